"""Faces are resolved before drawing: exact geometry without a PDF, and one face drawn alone."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap

import pytest

from helpers import pdf_reader
from pnp.core.errors import TemplateError
from pnp.layout.faces import FaceResolver, resolve_piece_face
from pnp.layout.kinds import laid_out
from pnp.layout.plan import plan_kit
from pnp.layout.primitives import Icon, Moved, Rect, Symbol, Text, absolute, describe
from pnp.layout.text import Measurer
from pnp.template.model import Copy, Face, PageKind, PrintOptions
from pnp.template.loader import load_game, load_shipped_game, templates_dir
from pnp.core.units import POINTS_PER_MM


def monospace(em: float = 0.5) -> Measurer:
    """Every character ``em`` wide and every glyph present: layout without fonts."""
    return Measurer(lambda text, style, size: len(text) * size * em, lambda text, style: "")


def test_the_wolf_front_has_exact_geometry_without_a_pdf_library():
    game = load_shipped_game("hunting-fever")
    face = resolve_piece_face(game, PrintOptions(), monospace(), component_id="player-cards", piece_id="wolf")
    assert face.size == (63.5, 88.9) and face.bleed == 3.0
    wolf_svg = str(templates_dir() / "icons" / "wolf.svg")
    assert describe(face.primitives) == [
        # The card's paper, bleed included, and the yellow set's band.
        "Rect x=-3 y=-3 w=69.5 h=94.9 fill='#f7f1e3'",
        "Rect x=-3 y=-3 w=69.5 h=19 fill='#f2c230'",
        "Line x1=-3 y1=16 x2=66.5 y2=16 stroke='#2b2118' width=0.5 cap=1",
        # The corner index, left, then moved to the right corner: symbol, prey value, pictogram.
        # All of it 3 mm and more inside the cut.
        "Symbol shape='star' cx=7 cy=6.2 size=6 fill='#2b2b2b'",
        "Moved dx=49.5 dy=0 primitives=(('star', 7, 6.2, 6, '#2b2b2b', None, 0, ()),)",
        "Text lines=(('+4', 4.88, 14.02),) style='black' size=12 color='#2b2b2b'",
        "Moved dx=49.5 dy=0 primitives=(((('+4', 4.88, 14.02),), 'black', 12, '#2b2b2b', 0, (0, 0)),)",
        f"Icon source={wolf_svg!r} x=3.2 y=18.2 w=7.6 h=7.6 tint='#2b2118'",
        f"Moved dx=49.5 dy=0 primitives=(({wolf_svg!r}, 3.2, 18.2, 7.6, 7.6, '#2b2118', 0, False, False),)",
        "Text lines=(('Wolf', 26.11, 10.03),) style='black' size=16 color='#2b2b2b'",
        "Rect x=11.5 y=19.5 w=40.5 h=45 fill='#ece3cc' stroke='#2b2118' width=0.35 radius=3",
        f"Icon source={wolf_svg!r} x=13 y=21.5 w=37.5 h=41 tint='#2b2118'",
        # Prey pile (good) and hand (bad) boxes, from the pieces' colour fields.
        "Rect x=4.5 y=67 w=25.75 h=18 fill='#dcead2' stroke='#2f6b3a' width=0.5 radius=2.5",
        "Rect x=33.25 y=67 w=25.75 h=18 fill='#f3d9d3' stroke='#a3342a' width=0.5 radius=2.5",
        "Text lines=(('Prey pile', 12.32, 71.39),) style='bold' size=7 color='#2b2118'",
        "Text lines=(('In hand', 42.3, 71.39),) style='bold' size=7 color='#2b2118'",
        "Text lines=(('+4', 13.99, 81.29),) style='black' size=22 color='#2f6b3a'",
        "Text lines=(('\u22124', 42.74, 81.29),) style='black' size=22 color='#a3342a'",
    ]
    # The title is centred in its 39.5 mm box: "Wolf" is 4 characters of 8 pt at 16 pt here.
    title = face.primitives[9]
    assert title.lines[0].x == pytest.approx(12 + (39.5 - 32 / POINTS_PER_MM) / 2)
    # The closed season's own elements are hidden on the wolf: empty layers keep their places.
    assert len(face.layers) == 20 and sum(1 for layer in face.layers if not layer) == 5


def test_layout_runs_without_reportlab():
    script = textwrap.dedent("""
        import sys
        from pnp.layout.faces import resolve_piece_face
        from pnp.layout.plan import plan_kit
        from pnp.layout.text import Measurer
        from pnp.template.model import PrintOptions
        from pnp.template.loader import load_shipped_game
        measure = Measurer(lambda t, s, z: len(t) * z * 0.35, lambda t, s: "")
        game = load_shipped_game("halali")
        plan = plan_kit(game, PrintOptions(), (210.0, 297.0), measure=measure)
        assert plan.pages[0].drawing and next(p for p in plan.pages if p.placements).placements[0].runs
        assert "reportlab" not in sys.modules, sorted(m for m in sys.modules if "reportlab" in m)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_the_ink_saver_is_applied_when_the_face_is_resolved():
    game = load_shipped_game("hunting-fever")
    face = resolve_piece_face(game, PrintOptions(ink_saver=True), monospace(), component_id="player-cards",
                              piece_id="wolf")
    rects = [p for p in face.primitives if isinstance(p, Rect)]
    assert {r.fill for r in rects} == {"#ffffff"}
    # The band, painted white, gets the ink saver's black outline.
    assert rects[1].stroke == "#000000" and rects[1].width == 0.3
    assert {p.color for p in face.primitives if isinstance(p, Text)} == {"#000000"}
    assert {p.fill for p in face.primitives if isinstance(p, Symbol)} == {"#000000"}
    icons = [p for p in absolute(face.primitives) if isinstance(p, Icon)]
    assert [p.line_art for p in icons] == [True, True, True]  # two corner pictograms, the big one


def test_a_repeated_element_is_laid_out_once_per_copy_and_moved_by_its_step():
    game = load_shipped_game("hunting-fever")
    front = resolve_piece_face(game, PrintOptions(), monospace(), component_id="player-cards", piece_id="wolf",
                               face=Face.FRONT,
                               set_name="red")
    corners = [p for p in front.primitives if isinstance(p, Moved)]
    assert [(m.dx, m.dy) for m in corners] == [(63.5 - 14, 0.0)] * 3
    symbols = [p for p in absolute(front.primitives) if isinstance(p, Symbol) and p.size == 6]
    assert [(s.cx, s.cy, s.shape) for s in symbols] == [(7, 6.2, "diamond"), (63.5 - 7, 6.2, "diamond")]


def test_each_element_is_resolved_once_per_distinct_set_of_the_values_it_uses(monkeypatch):
    calls: dict[str, int] = {}

    def counting(kind):
        resolve = laid_out(kind).resolve

        def count(props, *args):
            key = props.get("text") or kind
            calls[key] = calls.get(key, 0) + 1
            return resolve(props, *args)
        return count

    for kind in ("text", "symbol"):
        monkeypatch.setattr(laid_out(kind), "resolve", counting(kind))
    game = load_shipped_game("hunting-fever")
    component = game.component("player-cards")
    resolver = FaceResolver(game, PrintOptions(), monospace())
    wolf = next(p for p in component.pieces if p.id == "wolf")
    for set_name in component.sets:
        for number in (1, 2):
            resolver.face(Copy(component, wolf, number, set_name), Face.FRONT)
    # Ten wolves in five sets: a label in ink is resolved once; the title, in the set's ink,
    # once per set; so are the points, whose colour field could name the set's colour.
    assert calls["@label.prey_pile"] == 1
    assert calls["@card.{id}"] == 5
    # The points: the big one, and the corner index's, drawn twice (both corners), in each set.
    assert calls["{prey:+d}"] == 5 + 2 * 5
    assert calls["symbol"] == 2 * 5  # the corners' symbols, both copies of the repeat, in each set


def test_a_colour_field_may_hold_the_set_colour_and_each_set_gets_its_own(tmp_path):
    from helpers import write_deck

    deck = write_deck(tmp_path).read_text()
    deck = deck.replace('rotate = false\n', 'rotate = false\nsets = ["red", "blue"]\n')
    deck = deck.replace('colour = "#c8372d"', 'colour = "set"')
    (tmp_path / "numbered.toml").write_text(deck, encoding="utf-8")
    game = load_game(tmp_path / "numbered.toml")
    component = game.component("deck")
    fox = component.pieces[0]
    resolver = FaceResolver(game, PrintOptions(), monospace())  # one cache for both sets
    frames = {}
    for set_name in ("red", "blue"):
        face = resolver.face(Copy(component, fox, 1, set_name), Face.FRONT)
        frames[set_name] = next(p.stroke for p in face.primitives if isinstance(p, Rect) and p.stroke)
    assert frames == {"red": game.colors["red"].rgb, "blue": game.colors["blue"].rgb}


def test_problems_found_while_resolving_name_the_element_piece_face_and_language(tmp_path):
    from helpers import write_deck

    deck = write_deck(tmp_path).read_text()
    deck = deck.replace('y = "h - 20"', 'y = "h - 2"')  # the footer's box leaves the card
    deck += '\n[[components.back]]\ntype = "icon"\nname = "no_such_icon"\nx = 1\ny = 1\nw = 5\nh = 5\n'
    (tmp_path / "numbered.toml").write_text(deck, encoding="utf-8")
    game = load_game(tmp_path / "numbered.toml")
    with pytest.raises(TemplateError) as caught:
        plan_kit(game, PrintOptions(lang="fr"), (210.0, 297.0), measure=monospace())
    problems = caught.value.problems
    assert problems[0] == ("numbered.toml: components.deck.front[5] (numbered deck/fox front, fr): text "
                           "'Same on every card' box (6, 86.9, 51.5 x 6 mm) runs outside the "
                           "63.5 x 88.9 mm piece")
    assert problems[1].startswith("numbered.toml: components.deck.back[0].name (numbered deck/fox back, fr): "
                                  "no icon 'no_such_icon'")
    # The owls have the same two problems.
    assert len(problems) == 4 and "deck/owl front, fr" in problems[2]


def test_the_cover_is_laid_out_with_the_kit_so_its_pages_are_numbered_in_the_plan():
    from pnp.core.i18n import Catalog

    game = load_shipped_game("halali")
    en = game.catalogs["en"]
    long_credits = " ".join(["A long line of credits for every person who helped."] * 120)
    game = game._replace(catalogs={**game.catalogs,
                                   "en": Catalog("en", {**en.texts, "game.credits": long_credits})})
    plan = plan_kit(game, PrintOptions(), (210.0, 297.0), measure=monospace(0.35))
    kinds = [page.kind for page in plan.pages]
    covers = kinds.count(PageKind.COVER)
    assert covers >= 2 and kinds[:covers] == [PageKind.COVER] * covers
    assert [page.number for page in plan.pages] == list(range(1, len(plan.pages) + 1))
    # Each cover page carries its own footer, with the calibration bar.
    for page in plan.pages[:covers]:
        texts = [line.text for p in page.drawing if isinstance(p, Text) for line in p.lines]
        assert any("this bar must measure 50\u00a0mm" in t for t in texts)


def test_one_piece_face_is_drawn_alone_at_an_offset_with_its_bleed():
    from reportlab.pdfgen.canvas import Canvas

    from pnp.render.document import draw_piece_face
    from pnp.render.fonts import MEASURER
    from pnp.core.units import pt

    game = load_shipped_game("hunting-fever")
    w, h, bleed = 63.5, 88.9, 3.0
    out = io.BytesIO()
    canvas = Canvas(out, pagesize=(pt(w + 2 * bleed), pt(h + 2 * bleed)), invariant=1)
    drawn = draw_piece_face(canvas, game, component_id="player-cards", piece_id="wolf",
                            options=PrintOptions(lang="fr"),
                            set_name="blue", x=bleed, y=bleed)
    canvas.showPage()
    canvas.save()
    page = pdf_reader(out.getvalue()).pages[0]
    assert "Loup" in page.extract_text()
    ops = page.get_contents().operations
    # Clipped to the trim plus the bleed (the whole page here), then moved to the trim's corner.
    at = next(index for index, (_, op) in enumerate(ops) if op == b"re")
    clip = ops[at][0]
    assert [round(float(v), 3) for v in clip] == [0, 0, round(pt(w + 2 * bleed), 3), round(pt(h + 2 * bleed), 3)]
    move = next(operands for operands, op in ops[at:] if op == b"cm")
    assert [round(float(v), 3) for v in move] == [1, 0, 0, 1, round(pt(bleed), 3), round(pt(bleed), 3)]
    # The same face as the kit prints for that copy.
    plan = plan_kit(game, PrintOptions(lang="fr"), (210.0, 297.0), measure=MEASURER)
    placed = next(p for page in plan.pages for p in page.placements
                  if p.copy.piece.id == "wolf" and p.copy.set == "blue" and p.copy.copy == 1
                  and p.face is Face.FRONT)
    assert tuple(q for run in placed.runs for q in run.primitives) == drawn.primitives


def test_asking_for_a_piece_that_is_not_there_is_one_clear_error():
    from pnp.core.errors import UnknownNameError

    game = load_shipped_game("hunting-fever")
    with pytest.raises(UnknownNameError, match="player-cards has no piece 'fox'; expected one of: hunter, wolf"):
        resolve_piece_face(game, PrintOptions(), monospace(), component_id="player-cards", piece_id="fox")
    with pytest.raises(UnknownNameError, match="player-cards has 2 'wolf', not a copy 3"):
        resolve_piece_face(game, PrintOptions(), monospace(), component_id="player-cards", piece_id="wolf", copy=3)
    with pytest.raises(UnknownNameError, match="player-cards has no set 'pink'"):
        resolve_piece_face(game, PrintOptions(), monospace(), component_id="player-cards", piece_id="wolf",
                           set_name="pink")
