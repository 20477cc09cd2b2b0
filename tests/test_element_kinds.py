"""Every kind of element is whole: what it accepts, how it is laid out, where its ink lands, how it is drawn.

A kind is its row in pnp/template/kinds.py (its keys, required ones, choices, limits,
rules), its module in pnp/layout/kinds/ named after it (``resolve`` and ``DRAWS``, the
primitives its layers hold), and for each of those primitives its box and move
(``boxes``, ``moved``) and its drawer in pnp/render/draw.py. A kind missing any of them
fails here, with what it lacks.
"""

from __future__ import annotations

import inspect
from importlib import import_module
from pathlib import Path
from types import SimpleNamespace

import pytest

from pnp.core.games import game_ids
from pnp.layout.faces import FaceResolver, face_elements
from pnp.layout.kinds import laid_out
from pnp.layout.primitives import Moved, Rect
from pnp.render.draw import DRAWERS
from pnp.render.fonts import MEASURER
from pnp.template.kinds import COMMON_KEYS, KINDS, ElementKind
from pnp.template.loader import load_shipped_game
from pnp.template.model import Copy, Element, Face, PrintOptions

RESOLVER_PARAMETERS = ["keys", "face", "values", "frame"]


def missing_parts(name: str, kind: ElementKind) -> list[str]:
    """What the kind ``name`` lacks, each as a line naming the part and where it belongs."""
    missing = []
    if not kind.keys:
        missing.append(f"{name}: no keys in its row (pnp/template/kinds.py)")
    for key in (*kind.required, *kind.choices, *kind.limits):
        if key not in kind.keys and key not in COMMON_KEYS:
            missing.append(f"{name}: {key!r} is required, chosen or limited but not one of its keys")
    try:
        module = laid_out(name)
    except ModuleNotFoundError:
        return [*missing, f"{name}: no module pnp/layout/kinds/{name}.py"]
    resolve = getattr(module, "resolve", None)
    if not callable(resolve) or list(inspect.signature(resolve).parameters) != RESOLVER_PARAMETERS:
        missing.append(f"{name}: no resolve({', '.join(RESOLVER_PARAMETERS)}) in pnp/layout/kinds/{name}.py")
    draws = getattr(module, "DRAWS", ())
    if not draws:
        missing.append(f"{name}: no DRAWS (the primitives its layers hold) in pnp/layout/kinds/{name}.py")
    for primitive in draws:
        for method in ("boxes", "moved"):
            if not callable(getattr(primitive, method, None)):
                missing.append(f"{name}: its primitive {primitive.__name__} has no {method}()")
        if primitive not in DRAWERS:
            missing.append(f"{name}: its primitive {primitive.__name__} has no drawer in pnp/render/draw.py")
    if hasattr(module, "spent") and not callable(module.spent):
        missing.append(f"{name}: spent is not a function")
    return missing


@pytest.mark.parametrize("name", list(KINDS))
def test_every_kind_has_its_keys_its_resolver_its_boxes_and_its_drawers(name):
    assert missing_parts(name, KINDS[name]) == []


def test_a_kind_without_a_module_or_a_drawer_is_named(monkeypatch):
    monkeypatch.setitem(KINDS, "sticker", ElementKind({"x": "len"}, required=("x", "y")))
    assert missing_parts("sticker", KINDS["sticker"]) == [
        "sticker: 'y' is required, chosen or limited but not one of its keys",
        "sticker: no module pnp/layout/kinds/sticker.py"]
    rect = import_module("pnp.layout.kinds.rect")
    monkeypatch.setattr(rect, "DRAWS", (Rect, SimpleNamespace))
    assert missing_parts("rect", KINDS["rect"]) == [
        "rect: its primitive SimpleNamespace has no boxes()", "rect: its primitive SimpleNamespace has no moved()",
        "rect: its primitive SimpleNamespace has no drawer in pnp/render/draw.py"]


def test_no_module_in_the_kinds_package_is_a_kind_the_template_language_does_not_know():
    import pnp.layout.kinds as package

    modules = {path.stem for path in Path(package.__file__).parent.glob("*.py")} - {"__init__", "base"}
    assert modules == set(KINDS)


#: Kinds no shipped kit prints, each on a card of its own: a QR code, a designer's picture.
QR_CARD = (Element("qr", {"x": 5.0, "y": 5.0, "size": 20.0, "data": "https://example.org/{id}"}, "test: qr",
                   names=("id",)),)
IMAGE_CARD = (Element("image", {"file": "art.png", "x": 0.0, "y": 0.0, "w": 30.0, "h": 20.0, "bleed": "mirror"},
                      "test: image"),)


def _layers(pictures: Path):
    """Every element's layer on every face of every shipped kit, with the element (and the kinds
    no shipped kit prints, on cards of their own; a picture is found in ``pictures``)."""
    for game_id in game_ids():
        game = load_shipped_game(game_id)
        resolver = FaceResolver(game, PrintOptions(), MEASURER)
        resolver.folder = str(pictures)
        first = game.components[0]
        with_qr = first._replace(id="qr-card", front=QR_CARD, pieces=first.pieces[:1])
        with_image = first._replace(id="image-card", front=IMAGE_CARD, pieces=first.pieces[:1])
        for component in (*game.components, with_qr, with_image):
            for piece in component.pieces:
                copy = Copy(component, piece, 1, component.sets[0] if component.sets else None)
                faces = (Face.FRONT, Face.BACK) if component.two_sided else (Face.FRONT,)
                for face in faces:
                    resolved = resolver.face(copy, face)
                    yield from zip(face_elements(component, piece, face), resolved.layers)


def _kinds_of(primitives) -> set[type]:
    found = set()
    for p in primitives:
        if type(p) is Moved:
            found |= _kinds_of(p.primitives)
        else:
            found.add(type(p))
    return found


def test_what_each_kind_draws_in_the_shipped_kits_is_what_it_declares(tmp_path):
    from PIL import Image

    Image.new("RGB", (600, 400), "#3366aa").save(tmp_path / "art.png")
    seen = set()
    for element, layer in _layers(tmp_path):
        assert _kinds_of(layer) <= set(laid_out(element.type).DRAWS), element.where
        seen.add(element.type)
    assert seen == set(KINDS)   # the shipped kits and the cards above use every kind
