"""``icon``: an SVG pictogram fitted into its box, tinted, maybe turned or mirrored.

What it accepts: ``KINDS["icon"]`` in pnp/template/kinds.py. The SVG file is found in the
template's icon folders and read once (pnp.template.icons, through pnp.core.files'
``read_regular``: a regular file within its size limit); every letter of its text must be
in the kit's fonts.
"""

from __future__ import annotations

from typing import Any, Mapping

from pnp.core.errors import TemplateError
from pnp.layout.colors import BLACK
from pnp.layout.kinds.base import CopyFace, KeyedError, Layer, mm
from pnp.layout.primitives import Icon
from pnp.layout.text import Measurer

DRAWS = (Icon,)


def find_icon(folders: tuple[str, ...], name: str, measure: Measurer | None = None) -> str:
    """The SVG file of an icon, read and checked once (an IconError if missing or broken);
    with ``measure``, every letter of its text must be in the kit's fonts."""
    from pnp.template.icons import load_icon  # the SVG reader loads only for kits with icons

    return load_icon(folders, name, measure.missing if measure is not None else None).source


def resolve(keys: Mapping[str, Any], face: CopyFace, values: Mapping[str, Any],
            frame: tuple[float, float]) -> Layer:
    try:
        source = find_icon(face.icon_dirs, face.text(str(keys["name"]), values, "name"), face.measure)
    except TemplateError as exc:  # the icon this key names cannot be used
        raise KeyedError("name", str(exc)) from None
    tint = face.inks.resolve(face.color(keys.get("color", "ink"), values))
    return (Icon(source, mm(keys["x"], values, "x"), mm(keys["y"], values, "y"),
                 mm(keys["w"], values, "w", low=0), h=mm(keys["h"], values, "h", low=0), tint=tint or BLACK,
                 rotate=keys.get("rotate", 0), mirror=bool(keys.get("mirror", False)),
                 line_art=face.inks.ink_saver),)
