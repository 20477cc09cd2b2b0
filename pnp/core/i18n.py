"""Strict text catalogs, the one list of languages, and where the shipped catalogs live.

A catalog is a TOML file of (possibly nested) tables of strings, flattened to
dotted keys: ``[card] hunter = "Hunter"`` gives ``card.hunter``. A table of
``one`` and ``other`` is a plural: :meth:`Catalog.plural` picks the form for a
count (French treats 0 as singular, English does not).

A game's texts are ``templates/<game>.<lang>.toml`` merged over the shared
``templates/common.<lang>.toml``: the kit draws with them and the score
companion speaks with them. It needs neither reportlab nor typer, so the
scoring package uses it alone; catalogs are read with the templates' TOML
reader (tomli's compiled parser, or the standard library's where it is missing).
"""

from __future__ import annotations

import functools
import os
import re
import string
import sys
from collections.abc import Mapping
from pathlib import Path

from pnp.core import toml_reader
from pnp.core.errors import CatalogError, KeyClash, composed
from pnp.core.files import ReadError, read_regular, write_file
from pnp.core.limits import MAX_TEMPLATE_BYTES, size_shown
from pnp.core.records import NamedTuple
from pnp.core.resources import PACKAGE_DIR, shipped_folder

#: Every language the project speaks, prints and checks catalogs for.
LANGUAGES = ("en", "fr")

_FORMATTER = string.Formatter()


def flatten(table: Mapping, prefix: str = "", source: str = "") -> dict[str, str]:
    """Flatten nested tables of strings into dotted keys.

    >>> flatten({"card": {"wolf": "Wolf"}, "title": "Kit"})
    {'card.wolf': 'Wolf', 'title': 'Kit'}
    """
    flat: dict[str, str] = {}
    for key, value in table.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, Mapping):
            flat.update(flatten(value, dotted + ".", source))
        elif isinstance(value, str):
            flat[dotted] = value
        else:
            raise CatalogError(
                f"{source}: key {dotted!r} must be a string, got {type(value).__name__}"
            )
    return flat


def placeholders(text: str) -> set[str]:
    """The ``{name}`` placeholders of a catalog string.

    >>> sorted(placeholders("Sheet {n} of {total}"))
    ['n', 'total']
    """
    try:
        return {field for _, field, _, _ in _FORMATTER.parse(text) if field}
    except ValueError:
        # An expression str.format cannot read ("{a != b}", pnp.template.language reads it): each
        # placeholder as written, to compare two languages' texts.
        return set(re.findall(r"(?<!\{)\{([^{}:]+)", text))


def plural_form(lang: str, count: int) -> str:
    """``one`` or ``other``: French treats 0 as singular, English does not.

    >>> plural_form("fr", 0), plural_form("en", 0), plural_form("en", 1)
    ('one', 'other', 'one')
    """
    if lang == "fr":
        return "one" if count in (0, 1) else "other"
    return "one" if count == 1 else "other"


#: "de {name}", "que {name}": elided before a value that starts with a vowel ("d’Émilie").
_ELISION = re.compile(r"\b([Dd]e|[Qq]ue) \{(\w+)\}")
_VOWELS = frozenset("aeiouyàâäéèêëîïôöùûüœæ")


def _elided(text: str, values: Mapping[str, object]) -> str:
    """A French text with "de" and "que" elided before the values that need it.

    >>> _elided("le téléphone de {names}", {"names": "Émilie"}), _elided("la part de {p}", {"p": "Ben"})
    ('le téléphone d’{names}', 'la part de {p}')
    >>> _elided("plus que {n}", {"n": "un"})
    'plus qu’{n}'
    """
    def elide(match: re.Match) -> str:
        value = values.get(match.group(2))
        if not isinstance(value, str) or value[:1].lower() not in _VOWELS:
            return match.group(0)
        word = match.group(1)
        return f"{word[:-1]}’{{{match.group(2)}}}" if word.lower() == "que" else f"{word[0]}’{{{match.group(2)}}}"

    return _ELISION.sub(elide, text) if "{" in text else text


class Catalog(NamedTuple):
    """The strings of one language, looked up strictly: a missing key is an error."""

    lang: str
    texts: Mapping[str, str]
    sources: tuple[str, ...] = ()

    def has(self, key: str) -> bool:
        return key in self.texts

    def raw(self, key: str) -> str | None:
        """The string for ``key`` with its placeholders unfilled, or None."""
        return self.texts.get(key)

    def get(self, key: str, /, **values: object) -> str:
        """The string for ``key`` with its placeholders filled.

        >>> Catalog("en", {"sheet": "Sheet {n}"}).get("sheet", n=2)
        'Sheet 2'
        """
        try:
            text = self.texts[key]
        except KeyError:
            where = ", ".join(self.sources) or f"the {self.lang} catalog"
            raise CatalogError(f"{where}: missing text {key!r} ({self.lang})") from None
        if not values:
            return text
        if self.lang == "fr":
            # A French number's fraction follows a comma, wherever it is printed.
            values = {k: self.number(v) if type(v) is float else v for k, v in values.items()}
            text = _elided(text, values)
        try:
            return text.format_map(values)
        except (KeyError, IndexError, ValueError) as exc:
            raise CatalogError(
                f"text {key!r} ({self.lang}) needs a value for {exc} that was not given"
            ) from None

    def number(self, value: float) -> str:
        """A measure as this language writes it: ``0.5`` in English, ``0,5`` in French.

        >>> Catalog("fr", {}).number(0.5), Catalog("en", {}).number(0.5), Catalog("fr", {}).number(3.0)
        ('0,5', '0.5', '3')
        """
        shown = f"{value:g}"
        return shown.replace(".", ",") if self.lang == "fr" else shown

    def plural(self, key: str, count: int, /, **values: object) -> str:
        """The ``one`` or ``other`` form of ``key`` for ``count``, filled (``{count}`` included).

        >>> fr = Catalog("fr", {"left.one": "{count} jeton", "left.other": "{count} jetons"})
        >>> fr.plural("left", 0), fr.plural("left", 2)
        ('0 jeton', '2 jetons')
        """
        return self.get(f"{key}.{plural_form(self.lang, count)}", count=count, **values)

    def merged(self, other: "Catalog") -> "Catalog":
        """This catalog with ``other``'s keys added (``other`` wins on a clash)."""
        return Catalog(self.lang, {**self.texts, **other.texts}, self.sources + other.sources)


def load_catalog(path: Path, lang: str, *, kept: bool = False) -> Catalog:
    """Read one catalog file; errors name the file. ``kept``: a shipped catalog, whose texts
    are kept read beside it (:func:`_kept_texts`)."""
    digest = None
    try:
        data = read_regular(path, MAX_TEMPLATE_BYTES)
        if kept and (digest := _digest(data)) is not None:
            texts = _kept_texts(path, digest, len(data))
            if texts is not None:
                return Catalog(lang, texts, (str(path),))
        text = data.decode("utf-8")
        table = composed(toml_reader.loads(text), text)   # every text composed (NFC)
    except KeyClash as exc:
        raise CatalogError(f"{path}: {exc}") from None
    except ReadError as exc:
        if exc.kind == "too_large":
            raise CatalogError(f"{path}: the catalog is larger than the limit of {size_shown(MAX_TEMPLATE_BYTES)}") from None
        raise CatalogError(f"{path}: cannot read the catalog ({exc.reason})") from None
    except UnicodeDecodeError:
        raise CatalogError(f"{path}: not a UTF-8 text file") from None
    except toml_reader.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML ({exc})") from None
    except RecursionError:
        raise CatalogError(f"{path}: not valid TOML (nested too deeply)") from None
    texts = flatten(table, source=str(path))
    if digest is not None:
        _keep_texts(path, digest, texts)
    return Catalog(lang, texts, (str(path),))


# ------------------------------------------------------------ shipped catalogs, kept read

def _kept_file(path: Path) -> Path:
    return path.parent / "__pycache__" / f"{path.stem}.texts.json"


def _digest(data: bytes) -> str | None:
    """What kept texts were read from, and by what: the catalog's size and two checksums of its
    bytes, and when this module and pnp.core.errors (``composed``) were last changed, so an
    edited catalog or an edited or upgraded pnp reads afresh; None where that cannot be told
    (no texts are kept then). Checksums, not a cryptographic digest: whoever could forge a
    catalog could as well write the kept file, and hashlib would load OpenSSL (3 MiB, 2 ms)
    into the score companion's commands."""
    import zlib

    from pnp.core import errors

    try:
        readers = ":".join(str(os.stat(module).st_mtime_ns) for module in (__file__, errors.__file__))
    except (OSError, TypeError):  # no files of their own (a frozen or zipped pnp)
        return None
    return f"1:{len(data)}:{zlib.crc32(data):08x}:{zlib.adler32(data):08x}:{readers}"


def _kept_texts(path: Path, digest: str, size: int) -> dict[str, str] | None:
    """The texts of the shipped catalog ``path`` (``size`` bytes, ``digest`` their
    :func:`_digest`) as they were kept when it was last read, or None.

    Reading TOML is most of a short command's work with its catalogs (the common catalog,
    some 50 KB, takes 2 to 3 ms: a tenth of rendering a small deck); the texts read are kept,
    as Python keeps a module's bytecode, in ``templates/__pycache__/<name>.texts.json`` with
    a digest of what they were read from and by (:func:`_digest`), and JSON reads about
    fifteen times faster. Nothing depends on the copy: one that is missing,
    stale or anything but what :func:`_keep_texts` writes is ignored and written again."""
    import json

    try:
        kept = json.loads(read_regular(_kept_file(path), 4 * size + 4096, noted=False))  # not for pnp watch
    except (ReadError, ValueError, RecursionError):
        return None
    if type(kept) is not dict or kept.get("source") != digest:
        return None
    texts = kept.get("texts")
    if type(texts) is not dict or not all(type(key) is str and type(text) is str for key, text in texts.items()):
        return None
    return texts


def _keep_texts(path: Path, digest: str, texts: dict[str, str]) -> None:
    """Keep the texts just read from ``path`` (``digest``: :func:`_digest` of its bytes) for the
    next command (:func:`_kept_texts`), unless Python is asked not to write its caches
    (``PYTHONDONTWRITEBYTECODE``, ``-B``); a folder that cannot be written (an installation
    another user owns) keeps none, and says nothing."""
    if sys.dont_write_bytecode:
        return
    import json

    kept = {"source": digest, "texts": texts}
    target = _kept_file(path)
    try:
        target.parent.mkdir(exist_ok=True)
        write_file(target, json.dumps(kept, ensure_ascii=False, separators=(",", ":")))
    except OSError:
        pass


def compare_catalogs(first: Catalog, second: Catalog) -> list[str]:
    """Every difference in keys or placeholders between two languages."""
    problems = []
    for key in sorted(set(first.texts) - set(second.texts)):
        problems.append(f"{key!r} is in {first.lang} but not in {second.lang}")
    for key in sorted(set(second.texts) - set(first.texts)):
        problems.append(f"{key!r} is in {second.lang} but not in {first.lang}")
    for key in sorted(set(first.texts) & set(second.texts)):
        a, b = placeholders(first.texts[key]), placeholders(second.texts[key])
        if a != b:
            problems.append(
                f"{key!r} has placeholders {sorted(a)} in {first.lang} but {sorted(b)} in {second.lang}"
            )
    return problems


# ------------------------------------------------------------ shipped catalogs


def catalog_folder() -> Path:
    """The folder of the shipped catalogs (the templates folder)."""
    folder = shipped_folder("templates")
    if folder is None:
        raise CatalogError(f"cannot find the templates/ folder next to {PACKAGE_DIR}")
    return folder


def _check_language(lang: str) -> None:
    if lang not in LANGUAGES:
        raise CatalogError(f"no catalog for language {lang!r}; expected one of: {', '.join(LANGUAGES)}")


@functools.cache
def common_catalog(lang: str) -> Catalog:
    """The texts every game shares (``templates/common.<lang>.toml``), read once."""
    _check_language(lang)
    return load_catalog(_common_file(lang), lang, kept=True)


def _common_file(lang: str) -> Path:
    return catalog_folder() / f"common.{lang}.toml"


def own_catalog(stem: str, lang: str, folder: Path | None = None) -> Catalog:
    """A game's own catalog, ``<stem>.<lang>.toml`` in ``folder`` (default: the shipped templates)."""
    _check_language(lang)
    own = Path(folder if folder is not None else catalog_folder()) / f"{stem}.{lang}.toml"
    if not own.exists():
        raise CatalogError(f"{own}: missing {lang} catalog for {stem}")
    shipped = folder is None or os.path.samefile(folder, catalog_folder())
    return load_catalog(own, lang, kept=shipped)


def game_catalog(stem: str, lang: str, folder: Path | None = None) -> Catalog:
    """A game's own catalog (``<stem>.<lang>.toml`` in ``folder``) merged over the common one.

    ``folder`` defaults to the shipped templates; a game kept elsewhere names its own.
    """
    return over_common(own_catalog(stem, lang, folder))


def over_common(own: Catalog) -> Catalog:
    """``own`` merged over the common catalog of its language (``own`` wins on a clash), which
    is read only when first needed: a text ``own`` has not, or all of them (:class:`_OverCommon`)."""
    return Catalog(own.lang, _OverCommon(own.texts, own.lang),
                   (str(_common_file(own.lang)), *own.sources))


_ABSENT = object()


class _OverCommon(Mapping):
    """A game's own texts over the common ones of its language, as ``{**common, **own}``.

    Every kit is checked in both languages, but drawn in one: the other language's common
    catalog (some 50 KB of TOML, a tenth of a small deck's render) is read only if one of its
    texts is looked up, or all of them are asked for (a game's own texts are usually all
    its checks need). Read, the merged texts are kept as one dict and looked up there."""

    __slots__ = ("_own", "_lang", "_whole")

    def __init__(self, own: Mapping[str, str], lang: str) -> None:
        self._own, self._lang = own, lang
        self._whole: dict[str, str] | None = None

    def _merged(self) -> dict[str, str]:
        whole = self._whole
        if whole is None:
            whole = self._whole = {**common_catalog(self._lang).texts, **self._own}
        return whole

    def __getitem__(self, key: str) -> str:
        whole = self._whole
        if whole is not None:
            return whole[key]
        value = self._own.get(key, _ABSENT)
        return self._merged()[key] if value is _ABSENT else value

    def __iter__(self):
        return iter(self._merged())

    def __len__(self) -> int:
        return len(self._merged())

    def __eq__(self, other: object) -> bool:
        return self._merged() == other

    def __repr__(self) -> str:
        return repr(self._merged())

    def __reduce__(self):
        return dict, (self._merged(),)
