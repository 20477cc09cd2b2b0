"""A board's seams in its own frame, whatever way it lies on the sheet: x the vertical cuts, y the
horizontal ones; a cut the template did not ask for, or through text, and named seams left
unused, each said in a line; the cover's map shows where each part goes."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.kit.build import render_to_memory
from pnp.layout.plan import plan_kit
from pnp.layout.primitives import Text
from pnp.preflight.run import preflight
from pnp.render.fonts import MEASURER
from pnp.template.loader import load_game
from pnp.template.model import PageKind, PrintOptions

CATALOG = '[game]\nname = "Board"\ncredits = "Tests."\n[component.board]\nname = "Board"\ncut = "Cut."\n'


def board(folder: Path, seams: str, size: str = "200x200") -> Path:
    """A board with a title across its middle, 55 to 67 mm from its top, clear of y = 100."""
    path = folder / "b.toml"
    path.write_text(f'''[game]
id = "b"
fan_copy = false

[[components]]
id = "board"
kind = "board"
size = "{size}"
{seams}
pieces = [{{ id = "board", count = 1 }}]
front = [
  {{ type = "background", fill = "light" }},
  {{ type = "text", x = 20, y = 55, w = 160, h = 12, text = "The title of the board", size = 20 }},
]
''', encoding="utf-8")
    for lang in ("en", "fr"):
        (folder / f"b.{lang}.toml").write_text(CATALOG, encoding="utf-8")
    return path


def cuts(manifest: dict, size: float = 200.0) -> tuple[list[float], list[float]]:
    """Where the board is cut, in its own frame: x from its left edge, y from its top."""
    regions = [i["region"] for p in manifest["pages"] for i in p["items"] if "region" in i]
    xs = sorted({r["x"] + 6 for r in regions if r["x"] > 0})
    ys = sorted({size - (r["y"] + r["h"]) + 6 for r in regions if r["y"] + r["h"] < size})
    return xs, ys


def rendered(folder: Path, seams: str, size: str = "200x200", paper: str = "a4"):
    reports: list = []
    _, manifest = render_to_memory(load_game(board(folder, seams, size)), PrintOptions(paper=paper),
                                   reports=reports)
    return manifest, [(r.severity, r.line("b.toml")) for r in reports]


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_a_horizontal_seam_is_a_horizontal_cut_the_board_turned_to_make_it(tmp_path, paper):
    manifest, reports = rendered(tmp_path, "seams = { y = [100] }", paper=paper)
    # 200 mm is wider than either paper's printable width: turned, the board is cut at y = 100,
    # never at a line nobody named (it was cut 54 to 66 mm in, through the title).
    assert cuts(manifest) == ([], [100]) and reports == []
    assert all(i["rotation"] == 90 for p in manifest["pages"] for i in p["items"])


def test_a_vertical_seam_is_a_vertical_cut_even_through_text_and_says_so(tmp_path):
    manifest, reports = rendered(tmp_path, "seams = { x = [100] }")
    assert cuts(manifest) == ([100], [])
    assert reports == [("warning", "b.toml: components.board.seams: the cut at x = 100 mm (from its left edge) "
                                   "runs through text, where a join shows the slightest misalignment; name a "
                                   "line clear of it")]


def test_named_seams_not_needed_are_noted(tmp_path):
    manifest, reports = rendered(tmp_path, "seams = { x = [100], y = [100] }")
    # One cut is enough: the one clear of the title.
    assert cuts(manifest) == ([], [100])
    assert reports == [("note", "b.toml: components.board.seams.x: 100 mm not used: the piece is cut along "
                                "y = 100 mm, which is enough on A4")]


def test_a_cut_at_a_line_the_template_does_not_name_is_a_warning(tmp_path):
    manifest, reports = rendered(tmp_path, "seams = { y = [150] }", size="300x300")
    xs, ys = cuts(manifest, 300)
    assert 150 in ys and xs
    assert [severity for severity, _ in reports] == ["warning"] * len(xs)
    assert reports[0][1].startswith(f"b.toml: components.board.seams: cut at x = {xs[0]:g} mm (from its left "
                                    "edge), a line seams does not name: no named line lets every part fit a "
                                    "sheet of A4")


def test_render_and_preflight_say_each_line(tmp_path):
    path = board(tmp_path, "seams = { x = [100], y = [100] }")
    result = CliRunner().invoke(app, ["render", "--template", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0
    assert "Note: b.toml: components.board.seams.x: 100 mm not used" in result.output
    report = preflight(load_game(path), PrintOptions(), measure=MEASURER)
    [finding] = [f for f in report.findings if f.check == "seams"]
    assert (finding.severity, finding.piece, finding.element) == ("note", "board", "components.board.seams.x")
    assert not report.fails(strict=True)


def test_the_cover_maps_each_part_where_it_goes_on_the_board(tmp_path):
    game = load_game(board(tmp_path, "seams = { y = [100] }"))
    plan = plan_kit(game, PrintOptions(), (210.0, 297.0), measure=MEASURER)
    cover = next(p for p in plan.pages if p.kind is PageKind.COVER)
    labels = {line.text: line.y for t in cover.drawing if isinstance(t, Text) for line in t.lines
              if line.text in ("1/2", "2/2")}
    # The board as designed, its top part first: 1/2 above 2/2 (y downwards on the page).
    assert set(labels) == {"1/2", "2/2"} and labels["1/2"] < labels["2/2"]
