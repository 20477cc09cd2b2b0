"""The pen writes exactly what reportlab's canvas calls write, and its recordings are keyed right.

The pen records each shape's operators once and copies them wherever the
same shape is drawn again. A recording keyed on too little would copy one
shape's operators for another: each test draws a primitive, then the same
primitive with one value changed, and checks the second drawing against a
fresh canvas that has never seen the first.
"""

from __future__ import annotations

import io

import pytest
from reportlab.pdfgen.canvas import Canvas

from pnp.layout.primitives import QR, Ellipse, Line, Moved, Path, Rect, Symbol, Text, TextLine
from pnp.render import draw
from pnp.render.colors import fill_ops, set_fill, set_stroke, stroke_ops
from pnp.render.draw import Pen, _draw_text_with_canvas, draw_primitives
from pnp.render.fonts import font

HEIGHT = 88.9


def canvas(bottomup: int = 1) -> Canvas:
    return Canvas(io.BytesIO(), invariant=1, bottomup=bottomup, initialFontName=font("regular"))


def written(c: Canvas, start: int = 0) -> str:
    """What the canvas's page holds from entry ``start`` on, as it goes into the PDF."""
    return "\n".join(c._code[start:])


def drawn_after(first, second, height: float = HEIGHT, second_height: float | None = None) -> str:
    """The operators for ``second``, drawn by a pen that has just drawn ``first``."""
    c = canvas()
    pen = Pen(c)
    pen.draw([first], height)
    start = len(c._code)
    pen.draw([second], height if second_height is None else second_height)
    return written(c, start)


def drawn_alone(primitive, height: float = HEIGHT) -> str:
    c = canvas()
    draw_primitives(c, [primitive], height)
    return written(c)


RECT = Rect(4.0, 4.0, 55.5, 80.9, fill="#fbf7ee", stroke="#c8372d", width=2.5, radius=3.0)
ELLIPSE = Ellipse(16.0, 74.9, 3.5, 3.5, fill="#c8372d", stroke="#000000", width=0.3)
LINE = Line(1.0, 2.0, 30.0, 2.0, stroke="#2b2118", width=0.3, cap=1)
PATH = Path((((47.5, 70.9), (51.5, 78.4), (43.5, 78.4)),), True, "#c8372d", "#000000", width=0.3, join=1)
SYMBOL = Symbol("star", 10.0, 10.0, 6.0, fill="#d9a62e", stroke="#000000", width=0.3)
QR_CODE = QR("https://example.org/rules", 5.0, 5.0, 20.0, color="#000000")


@pytest.mark.parametrize("primitive, changes", [
    (RECT, {"x": 5.0, "y": 5.0, "w": 50.0, "h": 70.0, "fill": "#123456", "stroke": "#654321",
            "width": 1.0, "radius": 0.0, "dash": (1.0, 2.0)}),
    (RECT, {"fill": None}),
    (RECT, {"stroke": None}),
    (ELLIPSE, {"cx": 17.0, "cy": 70.0, "rx": 4.0, "ry": 2.0, "fill": "#123456", "stroke": None,
               "width": 1.0, "dash": (1.0, 1.0)}),
    (ELLIPSE, {"fill": None}),
    (LINE, {"x1": 2.0, "y1": 3.0, "x2": 20.0, "y2": 4.0, "stroke": "#123456", "width": 1.0,
            "dash": (2.0, 1.0), "cap": 0}),
    (PATH, {"segments": (((1.0, 1.0), (2.0, 2.0)),), "closed": False, "fill": None,
            "stroke": "#123456", "width": 1.0, "dash": (1.0, 1.0), "join": 0, "cap": 1}),
    (SYMBOL, {"shape": "heart", "cx": 11.0, "cy": 12.0, "size": 7.0, "fill": "#123456",
              "stroke": None, "width": 1.0, "dash": (1.0, 1.0)}),
    (QR_CODE, {"data": "https://example.org/other", "x": 6.0, "y": 7.0, "size": 25.0, "color": "#123456"}),
])
def test_a_shape_changed_in_any_one_value_is_written_as_a_fresh_canvas_writes_it(primitive, changes):
    for name, value in changes.items():
        changed = primitive._replace(**{name: value})
        assert drawn_after(primitive, changed) == drawn_alone(changed), name
    # The frame's height moves everything: a recording is keyed on it too.
    assert drawn_after(primitive, primitive, second_height=50.0) == drawn_alone(primitive, 50.0)


def test_a_shape_drawn_again_is_written_again_exactly():
    c = canvas()
    pen = Pen(c)
    pen.draw([RECT, ELLIPSE, LINE, PATH, SYMBOL, QR_CODE], HEIGHT)
    first = written(c)
    start = len(c._code)
    pen.draw([RECT, ELLIPSE, LINE, PATH, SYMBOL, QR_CODE], HEIGHT)
    assert written(c, start) == first
    assert len(pen.recorded) == 6  # the second time, every shape was copied


def test_shapes_are_written_as_reportlab_writes_them():
    """The recorded operators are reportlab's own (the fence and the saved state are not kept)."""
    c = canvas()
    draw_primitives(c, [RECT], HEIGHT)
    by_hand = canvas()
    set_fill(by_hand, "#fbf7ee")
    set_stroke(by_hand, "#c8372d")
    by_hand.setLineWidth(2.5 * 72 / 25.4)
    by_hand.roundRect(4 * 72 / 25.4, (HEIGHT - 4 - 80.9) * 72 / 25.4, 55.5 * 72 / 25.4,
                      80.9 * 72 / 25.4, 3 * 72 / 25.4, stroke=1, fill=1)
    assert written(c) == written(by_hand)
    # Recording leaves the canvas's own record of its state as it was.
    assert c._lineWidth == canvas()._lineWidth != by_hand._lineWidth


def test_colour_operators_are_those_the_canvas_writes():
    for color in ("#000000", "#ffffff", "#c8372d", "#2a5aa8"):
        c = canvas()
        set_fill(c, color)
        set_stroke(c, color)
        assert written(c) == f"{fill_ops(color)}\n{stroke_ops(color)}"


TEXTS = [
    Text((TextLine("Fox 1", 10.0, 20.0),), "black", 16.0, "#2b2118"),
    Text((TextLine("Chasseur à l'affût", 5.0, 30.0), TextLine("Proie facile : 3", 5.0, 36.0)),
         "regular", 9.5, "#7a2e1d"),
    Text((TextLine("Écureuil", -10.0, 2.0),), "italic", 8.0, "#000000", rotate=90, pivot=(30.0, 40.0)),
    Text((TextLine("(Règle) \\ 100 %", 1.0, 2.0),), "bold", 7.0, "#000000", rotate=270, pivot=(20.0, 10.0)),
]


@pytest.mark.parametrize("text", TEXTS)
def test_text_is_written_as_draw_string_writes_it(text):
    c = canvas()
    draw_primitives(c, [text], HEIGHT)
    by_canvas = canvas()
    _draw_text_with_canvas(by_canvas, text, HEIGHT)
    assert written(c) == written(by_canvas)


def test_text_beyond_a_font_subset_of_256_characters_is_written_as_draw_string_writes_it():
    # More distinct characters than one subset holds: later ones go to a second subset.
    chars = [chr(code) for code in range(0x21, 0x17F) if code not in range(0x7F, 0xA1)]
    lines = tuple(TextLine("".join(chars[i:i + 40]), 2.0, 4.0 + i / 4) for i in range(0, len(chars), 40))
    text = Text(lines, "regular", 8.0, "#000000")
    c = canvas()
    draw_primitives(c, [text], HEIGHT)
    by_canvas = canvas()
    _draw_text_with_canvas(by_canvas, text, HEIGHT)
    assert written(c) == written(by_canvas)
    assert "+1 " in written(c)  # the second subset was used


def test_texts_of_characters_written_before_are_written_as_draw_string_writes_them():
    # Each text after the first is mostly made of characters the font's subsets already hold,
    # which the pen writes from its own table of their codes (a no-break space is a space;
    # a character without a glyph is code 0; past 256 characters, the second subset).
    many = "".join(chr(code) for code in range(0x21, 0x17F) if code not in range(0x7F, 0xA1))
    texts = ["Fox 12", "Fox 21", "x\u00a0(2) \\ 1", "(2) 1 x", "\u00a0", "", "Fox \u2603", "\u2603 Fox",
             many[:120], many[120:], "Fox 12 " + many[-3:], many[-3:], "Fox 12"]
    lines = tuple(TextLine(text, 2.0, 4.0 + i) for i, text in enumerate(texts))
    c = canvas()
    pen = Pen(c)
    for style in ("regular", "bold"):
        pen.draw([Text(lines, style, 8.0, "#000000")], HEIGHT)
    by_canvas = canvas()
    for style in ("regular", "bold"):
        _draw_text_with_canvas(by_canvas, Text(lines, style, 8.0, "#000000"), HEIGHT)
    assert written(c) == written(by_canvas)
    assert pen.written["regular"].characters >= set("Fox 12(2)\u00a0")


def test_a_canvas_drawn_top_down_gets_its_text_through_reportlab():
    text = TEXTS[0]
    c = canvas(bottomup=0)
    draw_primitives(c, [text], HEIGHT)
    by_canvas = canvas(bottomup=0)
    _draw_text_with_canvas(by_canvas, text, HEIGHT)
    assert written(c) == written(by_canvas)
    assert "1 0 0 -1" in written(c)


def test_a_moved_frame_is_keyed_on_its_step():
    first = Moved(10.0, 0.0, (RECT,))
    second = Moved(0.0, 12.0, (RECT,))
    assert drawn_after(first, second) == drawn_alone(second)


def test_past_the_recording_limit_shapes_are_still_written_right(monkeypatch):
    monkeypatch.setattr(draw, "RECORDED_LIMIT", 2)
    shapes = [RECT._replace(x=float(x)) for x in range(6)]
    c = canvas()
    pen = Pen(c)
    pen.draw(shapes + shapes, HEIGHT)
    assert len(pen.recorded) == 2
    expected = "\n".join(drawn_alone(shape) for shape in shapes)
    assert written(c) == expected + "\n" + expected


def test_recording_leaves_the_canvas_state_stack_as_it_was():
    from pnp.layout.imposition import Box
    from pnp.render.document import _move_to_piece, _Placing

    c = canvas()
    pen = Pen(c)
    depth = len(c.state_stack)
    # Saves a state (closed later by the piece's drawing) and moves: recorded, then copied.
    at = _Placing(Box(10.0, 10.0, 69.5, 94.9), 13.0, 13.0, 90, sheet_w=88.9, sheet_h=63.5)
    pen.put(_move_to_piece, at)
    pen.put(_move_to_piece, at)
    assert len(c.state_stack) == depth
    assert c._currentMatrix == canvas()._currentMatrix
    assert written(c).count("q") == 2 and "cm" in written(c)
