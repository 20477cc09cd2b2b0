"""Where the shipped data lives: the templates folder (definitions, catalogs, icons) and the fonts.

Beside ``pnp/`` in a checkout, inside it in an installed wheel (pyproject.toml
ships ``templates/`` as ``pnp/templates`` and ``fonts/`` as ``pnp/fonts``). The
template loader, the catalogs and the drawing all find their files here, so
none of them has to ask another: this module is below all of them and imports
nothing of the project but its errors.
"""

from __future__ import annotations

from pathlib import Path

from pnp.core.errors import TemplateError

PACKAGE_DIR = Path(__file__).resolve().parent.parent  # pnp/


def shipped_folder(name: str) -> Path | None:
    """``templates/`` or ``fonts/``: beside pnp/ in a checkout, inside it in a wheel."""
    for candidate in (PACKAGE_DIR.parent / name, PACKAGE_DIR / name):
        if candidate.is_dir():
            return candidate
    return None


def _data_dir(name: str) -> Path:
    folder = shipped_folder(name)
    if folder is None:
        raise TemplateError(f"cannot find the {name}/ folder next to {PACKAGE_DIR}")
    return folder


def templates_dir() -> Path:
    """The shipped templates, their catalogs, ``colors.toml`` and ``icons/``."""
    return _data_dir("templates")


def fonts_dir() -> Path:
    """The type family the kits embed (Lato)."""
    return _data_dir("fonts")
