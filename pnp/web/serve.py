"""``pnp serve``: open the database, listen, print where phones join, run until Ctrl+C."""

from __future__ import annotations

import contextlib
import ipaddress
import re
import signal
import socket
import threading
from pathlib import Path
from typing import Callable

from pnp.core.errors import PnpError
from pnp.core.i18n import common_catalog
from pnp.web.auth import new_token
from pnp.web.db import Database, default_data_dir


def _say(key: str, **values: object) -> str:
    """A sentence of ``pnp serve`` (``cli.serve.<key>``); the commands speak English."""
    return common_catalog("en").get(f"cli.serve.{key}", **values)

_TOKEN = re.compile(r"[A-Za-z0-9._~-]{8,200}")
#: The shortest organiser token taken when the server listens beyond this computer: 16 of
#: its characters hold about 96 bits, out of reach of anyone guessing over the network.
NETWORK_TOKEN = 16
_ANYWHERE = ("0.0.0.0", "::", "")


def check_token(token: str) -> str:
    """The organiser's token as given with ``--token``: it goes into links, so URL-safe characters only."""
    if not _TOKEN.fullmatch(token):
        raise PnpError(_say("bad_token"))
    return token


def lan_address() -> str | None:
    """This machine's address on its local network, as phones on the same Wi-Fi reach it.

    Connecting a UDP socket sends nothing; it only makes the system pick the
    interface it would route through.
    """
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            address = probe.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def listen(host: str, port: int) -> socket.socket:
    """A listening socket on ``host:port``; PnpError saying why when the address cannot be used."""
    try:
        family, kind, protocol, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0]
    except (socket.gaierror, UnicodeError) as error:
        raise PnpError(_say("bad_host", host=host, reason=error)) from None
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as error:
        sock.close()
        raise PnpError(_say("cannot_listen", host=host, port=port, reason=error.strerror or error)) from None
    return sock


def url_host(host: str) -> str:
    """``host`` as written in a URL (an IPv6 address goes in brackets)."""
    try:
        return f"[{host}]" if ipaddress.ip_address(host).version == 6 else host
    except ValueError:
        return host


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def public_url(host: str, port: int) -> str:
    """The address to print and put in QR codes: the LAN address when listening everywhere."""
    shown = (lan_address() or "127.0.0.1") if host in _ANYWHERE else host
    return f"http://{url_host(shown)}:{port}"


def _server(uvicorn, config):
    """uvicorn's server, stopped gracefully by SIGHUP too (a closed terminal), as it is by
    Ctrl-C and SIGTERM; once it has stopped, the signal is raised again so that the
    command ends as every command does on it (:mod:`pnp.core.signals`: one line, exit 129)."""
    hangup = getattr(signal, "SIGHUP", None)

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self):
            if hangup is None or threading.current_thread() is not threading.main_thread():
                with super().capture_signals():
                    yield
                return
            previous = signal.signal(hangup, self.handle_exit)
            hung_up = False
            try:
                with super().capture_signals():
                    try:
                        yield
                    finally:
                        # uvicorn raises again only the signals it handles itself.
                        hung_up = hangup in self._captured_signals
                        self._captured_signals = [s for s in self._captured_signals if s != hangup]
            finally:
                signal.signal(hangup, previous)
            if hung_up:
                signal.raise_signal(hangup)

    return Server(config)


def run(host: str, port: int, data: Path | None, token: str | None, *, echo: Callable[[str], None]) -> None:
    """Serve until interrupted; every committed entry is in ``DATA/pnp.sqlite3`` at every moment."""
    import uvicorn

    from pnp.web import qr
    from pnp.web.app import create_app

    organiser = check_token(token) if token is not None else new_token()
    if not _loopback(host) and len(organiser) < NETWORK_TOKEN:
        raise PnpError(_say("short_token", least=NETWORK_TOKEN, host=host or "*", count=len(organiser)))
    folder = Path(data) if data is not None else default_data_dir()
    db = Database.in_folder(folder)
    sock = listen(host, port)
    try:
        actual_port = sock.getsockname()[1]
        address = public_url(host, actual_port)
        app = create_app(db, organiser, address)
        organiser_link = f"{address}/?token={organiser}"
        echo(_say("listening", address=address, database=db.path))
        if _loopback(host):
            echo(_say("loopback_only"))
        else:
            echo(_say("unencrypted"))
        echo(_say("organiser", link=organiser_link))
        echo(qr.terminal(organiser_link))
        echo(_say("keep"))
        # Phones poll every few seconds: a longer keep-alive spares them a new connection each time.
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                timeout_keep_alive=30, timeout_graceful_shutdown=3)
        _server(uvicorn, config).run(sockets=[sock])
    finally:
        sock.close()
        db.close()
