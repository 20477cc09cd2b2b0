"""The shortcuts of resolving a face give what the long way gives.

Lengths that are the same on every copy are worked out once per element,
a single line of text is fitted without the remembered search, a text that is
one placeholder is filled without parsing it, and glyphs are checked with a
set. Each test compares a shortcut with the long way or with the piece's own
values, on inputs where a shortcut keyed or written wrong would differ.
"""

from __future__ import annotations

import string

from hypothesis import given, settings
from hypothesis import strategies as st

from pnp.template.language import _FORMAT, fill
from pnp.layout.faces import FaceResolver, fold_lengths
from pnp.layout.plan import copies
from pnp.layout.primitives import Rect
from pnp.layout.text import Measurer, _fitted, fit_text
from pnp.template.model import Face, PrintOptions
from pnp.render.fonts import MEASURER, _drawable, missing_glyphs
from pnp.template.loader import load_game

SHADOWED = """
[game]
id = "shadowed"
players = [1, 2]
rules_url = ""
designers = ["Someone"]

[params]
gap = 5
copy = 7

[[components]]
id = "tiles"
size = [40, 30]
fields = { gap = "num" }

[[components.front]]
type = "rect"
x = "gap"
y = "copy"
w = "w - 2 * gap"
h = 4
fill = "ink"

[[components.pieces]]
id = "narrow"
count = 2
gap = 1

[[components.pieces]]
id = "wide"
count = 1
gap = 12
"""

CATALOG = """
[game]
name = "Shadowed"
credits = "A test."
[component.tiles]
name = "Tiles"
cut = "Cut them out."
"""


def monospace() -> Measurer:
    return Measurer(lambda text, style, size: len(text) * size * 0.5, lambda text, style: "")


def test_a_length_is_worked_out_once_only_from_names_every_copy_shares(tmp_path):
    # The game's `gap` setting is hidden by each piece's own `gap`, and `copy` by
    # the copy number: neither may be folded into the element once for all copies.
    path = tmp_path / "shadowed.toml"
    path.write_text(SHADOWED, encoding="utf-8")
    for lang in ("en", "fr"):
        (tmp_path / f"shadowed.{lang}.toml").write_text(CATALOG, encoding="utf-8")
    game = load_game(path)
    component = game.components[0]
    resolver = FaceResolver(game, PrintOptions(), monospace())
    rects = [resolver.face(copy, Face.FRONT).primitives[0] for copy in copies(component)]
    assert [(r.x, r.y, r.w) for r in rects] == [(1.0, 1.0, 38.0), (1.0, 2.0, 38.0), (12.0, 1.0, 16.0)]
    assert all(isinstance(r, Rect) for r in rects)


def test_folding_leaves_what_it_cannot_work_out_to_be_reported_on_resolving():
    from pnp.template.model import Element

    element = Element("polygon", {"points": [["w / 0", "h - 1"], ["copy", 2]], "dash": ["w / 4"]}, "")
    folded = fold_lengths(element, {"w": 40.0, "h": 30.0})
    assert folded["points"] == [["w / 0", 29.0], ["copy", 2.0]]
    assert folded["dash"] == [10.0]
    assert element.props["points"] == [["w / 0", "h - 1"], ["copy", 2]]  # the template is left alone


values = st.one_of(st.text(max_size=6), st.integers(-10**6, 10**6), st.booleans(),
                   st.floats(allow_nan=False, allow_infinity=False))


@given(values)
def test_a_text_that_is_one_placeholder_is_filled_as_str_format_fills_it(value):
    expected = _FORMAT.vformat("{v}", (), {"v": value})
    assert fill("{v}", {"v": value}) == expected
    if isinstance(value, int) and not isinstance(value, bool) and value < 0:
        assert fill("{v}", {"v": value}).startswith("\u2212")  # a true minus sign


def naive_missing(text: str, style: str) -> str:
    from reportlab.pdfbase import pdfmetrics
    from pnp.render.fonts import font

    covered = pdfmetrics.getFont(font(style)).face.charToGlyph
    return "".join(sorted({ch for ch in text if ch != "\n" and ord(ch) not in covered}))


@given(st.text(alphabet=st.characters(max_codepoint=0x2FFF), max_size=12),
       st.sampled_from(["regular", "bold", "black", "italic"]))
@settings(max_examples=200)
def test_missing_glyphs_are_those_the_font_has_no_glyph_for(text, style):
    assert missing_glyphs(text, style) == naive_missing(text, style)
    assert "\n" in _drawable(style)


@given(st.text(alphabet=string.ascii_letters + " \n", min_size=1, max_size=30),
       st.sampled_from([6.0, 9.5, 16.0, 60.0]), st.floats(5, 300), st.floats(5, 80),
       st.booleans(), st.sampled_from([1.0, 1.18, 1.5]))
@settings(max_examples=300)
def test_one_line_fitted_at_once_is_what_the_search_for_a_size_finds(text, size, width, height,
                                                                      wrap, leading):
    assert fit_text(MEASURER, text, "regular", size, width=width, height=height, wrap=wrap, leading=leading,
                    min_size=6.0) == \
        _fitted.__wrapped__(MEASURER, text, "regular", size, width=width, height=height, wrap=wrap, leading=leading,
                            min_size=6.0)



def test_what_every_copy_shares_worked_out_once_lays_out_every_face_as_the_long_way_does(tmp_path, monkeypatch):
    """Every face of the shipped kits and of a deck of different cards (names, numbers,
    colours; texts aligned, wrapped, shrunk; frames and shapes): resolved with what each plain
    text, rectangle and ellipse shares worked out once (their kinds' prepare), then each time,
    the same layers."""
    import sys
    from pathlib import Path

    from pnp.core.games import SHIPPED
    from pnp.layout.kinds import ellipse, rect, text
    from pnp.layout.kinds.base import PreparedKeys
    from pnp.template.loader import load_shipped_game

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
    from unique_deck import write_template

    games = [load_shipped_game(game_id) for game_id in SHIPPED] + [load_game(write_template(tmp_path, 60))]

    def faces(lang: str) -> list:
        laid = []
        for game in games:
            resolver = FaceResolver(game, PrintOptions(lang=lang), MEASURER)
            laid += [resolver.face(copy, face).layers for component in game.components
                     for copy in copies(component) for face in (Face.FRONT, Face.BACK)]
        return laid

    prepared: dict[str, list[bool]] = {}

    def counted(kind):
        prepare = kind.prepare

        def prepare_counted(keys, size):
            keys = prepare(keys, size)
            prepared.setdefault(kind.__name__, []).append(type(keys) is PreparedKeys)
            return keys
        return prepare_counted

    kinds = (text, rect, ellipse)
    shortcuts = {kind: counted(kind) for kind in kinds}
    for lang in ("en", "fr"):
        for kind in kinds:
            monkeypatch.setattr(kind, "prepare", shortcuts[kind], raising=False)
        shortcut = faces(lang)
        for kind in kinds:
            monkeypatch.delattr(kind, "prepare")
        assert faces(lang) == shortcut
    assert all(sum(kept) > 10 for kept in prepared.values())   # each kind's are, mostly
    texts = prepared[text.__name__]
    assert sum(texts) < len(texts)   # a turned text is not
