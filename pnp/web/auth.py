"""Secrets of ``pnp serve``: the organiser's token, one token per session, CSRF and read-only keys.

Tokens are stored and compared as SHA-256 digests, with ``hmac.compare_digest``
so a comparison takes the same time whatever the guess.  A session's token,
the CSRF tokens and the read-only keys printed on a scoresheet are HMACs under
the data folder's secret: they survive a restart, and the organiser can show
any table's join code again without the server keeping a token.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    """A fresh secret for a session or an organiser (192 random bits, URL-safe)."""
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    """How a token is stored: its SHA-256, in hex."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def matches(given: str | None, stored_hash: str | None) -> bool:
    """True when ``given`` is the token whose hash is ``stored_hash`` (constant time)."""
    if not given or not stored_hash:
        return False
    return hmac.compare_digest(token_hash(given), stored_hash)


def bearer(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, or None.

    >>> bearer("Bearer abc"), bearer("bearer  abc "), bearer("Basic abc"), bearer(None)
    ('abc', 'abc', None, None)
    """
    if not authorization:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


class Keys:
    """Signatures made with the data folder's secret."""

    def __init__(self, secret: bytes) -> None:
        self._secret = secret

    def _sign(self, purpose: str, value: str, length: int = 32) -> str:
        digest = hmac.new(self._secret, f"{purpose}\0{value}".encode("utf-8", "surrogatepass"), hashlib.sha256)
        return digest.hexdigest()[:length]

    def session_token(self, session_id: str) -> str:
        """The token that opens one session (carried by its join link), 256 bits."""
        return self._sign("session", session_id, 64)

    def csrf(self, credential: str) -> str:
        """The CSRF token forms carry for whoever holds ``credential`` (their cookie's token)."""
        return self._sign("csrf", credential)

    def csrf_ok(self, credential: str | None, given: str | None) -> bool:
        return bool(credential and given) and _same(self.csrf(credential), given)

    def read_key(self, session_id: str) -> str:
        """A key that shows a session's result (never changes it): printed on its scoresheet."""
        return self._sign("read", session_id, 24)

    def read_key_ok(self, session_id: str, given: str | None) -> bool:
        return bool(given) and _same(self.read_key(session_id), given)


def _same(expected: str, given: str) -> bool:
    """``given == expected`` in constant time, whatever ``given`` holds (any text an address can carry)."""
    return hmac.compare_digest(expected.encode("ascii"), given.encode("utf-8", "surrogatepass"))
