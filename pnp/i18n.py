"""Strict text catalogs: a missing key is an error, never the key printed.

A catalog is a TOML file of (possibly nested) tables of strings, flattened to
dotted keys: ``[card] hunter = "Hunter"`` gives ``card.hunter``.
"""

from __future__ import annotations

import string
import tomllib
from pathlib import Path
from typing import Mapping, NamedTuple

from pnp.errors import CatalogError

LANGUAGES = ("en", "fr")


def flatten(table: Mapping, prefix: str = "", source: str = "") -> dict[str, str]:
    """Flatten nested tables of strings into dotted keys."""
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
    return {field for _, field, _, _ in string.Formatter().parse(text) if field}


class Catalog(NamedTuple):
    """The strings of one language, looked up strictly."""

    lang: str
    texts: Mapping[str, str]
    sources: tuple[str, ...] = ()

    def has(self, key: str) -> bool:
        return key in self.texts

    def raw(self, key: str) -> str | None:
        """The string for ``key`` with its placeholders unfilled, or None."""
        return self.texts.get(key)

    def get(self, key: str, **values: object) -> str:
        """The string for ``key`` with its placeholders filled."""
        try:
            text = self.texts[key]
        except KeyError:
            where = ", ".join(self.sources) or f"the {self.lang} catalog"
            raise CatalogError(f"{where}: missing text {key!r} ({self.lang})") from None
        if not values:
            return text
        try:
            return text.format_map(values)
        except (KeyError, IndexError, ValueError) as exc:
            raise CatalogError(
                f"text {key!r} ({self.lang}) needs a value for {exc} that was not given"
            ) from None

    def merged(self, other: "Catalog") -> "Catalog":
        """This catalog with ``other``'s keys added (``other`` wins on a clash)."""
        return Catalog(self.lang, {**self.texts, **other.texts}, self.sources + other.sources)


def load_catalog(path: Path, lang: str) -> Catalog:
    """Read one catalog file; errors name the file."""
    try:
        with open(path, "rb") as handle:
            table = tomllib.load(handle)
    except OSError as exc:
        raise CatalogError(f"{path}: cannot read the catalog ({exc.strerror})") from None
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML ({exc})") from None
    return Catalog(lang, flatten(table, source=str(path)), (str(path),))


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
