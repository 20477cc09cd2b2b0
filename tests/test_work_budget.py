"""Limits that multiply: each value within its own limit, together past the work budget of a
run, refused before the work with one line naming the limit, the total and why.

Also what ``pnp check-manifest`` and the score companion refuse before their work:
a manifest past its items, a cover sheet of too many pairs, numbers that are not
finite, a session with more days or rounds than its game has.
"""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.core.games import SHIPPED
from pnp.core.limits import MAX_CORNERS, MAX_COVER_PAIRS, MAX_MANIFEST_ITEMS, MAX_QR_WORK, MAX_SHAPES
from pnp.cli.score import score_app
from scoring import check_session
from scoring.rules import find_rules

runner = CliRunner()

HEADER = '''[game]
id = "busy"
players = [1, 4]
rules_url = "https://example.org/busy"
designers = ["test"]

[[components]]
id = "cards"
size = "poker"
'''
CATALOG = '[game]\nname = "Busy"\ncredits = "Test."\n\n[component.cards]\nname = "Cards"\ncut = "Cut."\n'


def kit(folder: Path, front: str, count: int = 1) -> Path:
    (folder / "busy.toml").write_text(HEADER + front + f'\n[[components.pieces]]\nid = "card"\ncount = {count}\n')
    for lang in ("en", "fr"):
        (folder / f"busy.{lang}.toml").write_text(CATALOG)
    return folder / "busy.toml"


def polygon(corners: int, repeat: int, **keys) -> str:
    points = ", ".join(f"[{30 + 20 * math.cos(i / corners * 6.283):.3f}, {40 + 20 * math.sin(i / corners * 6.283):.3f}]"
                       for i in range(corners))
    extra = "".join(f"{key} = {json.dumps(value)}\n" for key, value in ({"step": [0, 0]} | keys).items())
    return (f'[[components.front]]\ntype = "polygon"\npoints = [{points}]\nfill = "black"\n'
            f"repeat = {repeat}\n{extra}")


def refused(folder: Path, *args: str) -> str:
    result = runner.invoke(app, ["render", "--template", str(folder / "busy.toml"), "--out", str(folder / "out"), *args])
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert not (folder / "out").exists()
    return lines[0]


def test_polygons_within_their_limits_that_multiply_past_the_budget_are_refused_at_once(tmp_path):
    kit(tmp_path, polygon(10_000, 1_000) * 3)   # each polygon and each repeat within its limit
    line = refused(tmp_path)
    assert f"the limit is {MAX_CORNERS:,}" in line and "polygon corners" in line and "10,000,000" in line
    assert "components.cards.front[0]" in line      # the element where the total went past


def test_corners_are_counted_per_copy_when_each_copy_draws_its_own(tmp_path):
    # 60 corners, 10 repeats: 600 a card, and each card's differ (they use the copy number).
    kit(tmp_path, polygon(60, 10, step=["copy * 0.001", 0]), count=1000)
    assert "polygon corners" in refused(tmp_path)
    # The same polygon shared by every copy is one drawing: well within the budget.
    kit(tmp_path, polygon(60, 10), count=1000)
    result = runner.invoke(app, ["render", "--template", str(tmp_path / "busy.toml"), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.stderr


def test_shapes_repeated_on_thousands_of_different_cards_are_refused_before_any_is_laid_out(tmp_path):
    kit(tmp_path, '[[components.front]]\ntype = "rect"\nx = "1 + copy * 0.00001"\ny = 1\nw = 1\nh = 1\n'
                  'fill = "black"\nrepeat = 1000\nstep = [0, 0]\n', count=20_000)
    line = refused(tmp_path)
    assert "20,000,000 shapes" in line and f"the limit is {MAX_SHAPES:,}" in line


def stars(folder: Path, values: list[int]) -> None:
    """A card per value, each with a star (a small square) per point of its value."""
    pieces = "".join(f'\n[[components.pieces]]\nid = "c{i}"\ncount = 1\nstars = {v}\n' for i, v in enumerate(values))
    (folder / "busy.toml").write_text(
        HEADER + 'fields = { stars = "int" }\n[[components.front]]\ntype = "rect"\nx = 2\ny = 2\nw = 1\nh = 1\n'
        'fill = "black"\nrepeat = "stars"\nstep = [1.5, 0]\n' + pieces)
    for lang in ("en", "fr"):
        (folder / f"busy.{lang}.toml").write_text(CATALOG)


def test_a_repeat_given_by_a_field_is_counted_piece_by_piece(tmp_path):
    stars(tmp_path, [1 + i % 5 for i in range(2_000)])         # 6,000 stars: a real deck
    result = runner.invoke(app, ["render", "--template", str(tmp_path / "busy.toml"), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.stderr
    stars(tmp_path, [40] * 500 + [1_000] * 400)                 # 420,000: refused before any is laid out
    assert "420,000 shapes" in refused(tmp_path)


def test_different_qr_codes_are_counted_before_any_is_encoded(tmp_path):
    data = "{copy:>0}" + "q" * 990
    kit(tmp_path, f'[[components.front]]\ntype = "qr"\nx = 5\ny = 5\nsize = 50\ndata = "{data}"\n', count=400)
    line = refused(tmp_path)
    assert "QR codes" in line and f"the limit is {MAX_QR_WORK:,}" in line and "0.12 ms a byte" in line


def test_the_same_qr_code_on_every_card_is_encoded_once_and_passes(tmp_path):
    kit(tmp_path, '[[components.front]]\ntype = "qr"\nx = 5\ny = 5\nsize = 50\ndata = "' + "q" * 900 + '"\n', count=400)
    result = runner.invoke(app, ["render", "--template", str(tmp_path / "busy.toml"), "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.stderr


def test_every_shipped_kit_is_far_within_its_budget():
    from pnp.kit.build import imprint
    from pnp.layout.plan import plan_kit
    from pnp.template.model import PrintOptions
    from pnp.render.fonts import MEASURER
    from pnp.template.loader import game_files, load_game
    from pnp.core.units import paper_size

    for path in game_files().values():
        plan = plan_kit(load_game(path), PrintOptions(), paper_size("a4"), None, measure=MEASURER, imprint=imprint())
        spent = plan.budget.spent()
        assert spent["corners"] * 100 < MAX_CORNERS and spent["shapes"] * 100 < MAX_SHAPES
        assert spent["qr"] * 100 < MAX_QR_WORK, (path.name, spent)


# ---- pnp check-manifest ---------------------------------------------------------------------

def manifest(folder: Path, pages: list[dict], duplex: bool = True) -> Path:
    pdf = b"%PDF-1.4\n" + b"<< /Type /Page >>\n" * len(pages) + b"%%EOF\n"
    (folder / "k.pdf").write_bytes(pdf)
    path = folder / "k.manifest.json"
    path.write_text(json.dumps({"pdf": "k.pdf", "pdf_sha256": hashlib.sha256(pdf).hexdigest(), "duplex": duplex,
                                "page_size_mm": [210, 297], "pages": pages}))
    return path


def item(copy: int, face: str = "front") -> dict:
    return {"component": "c", "piece": "p", "copy": copy, "face": face, "x": 10, "y": 10, "w": 1, "h": 1}


def check(path: Path) -> str:
    result = runner.invoke(app, ["check-manifest", str(path)])
    assert result.exit_code == 1, result.output
    assert len(result.stderr.strip().splitlines()) == 1 and result.stderr.startswith("Error: ")
    return result.stderr


def test_a_cover_sheet_of_too_many_pairs_is_refused_before_they_are_compared(tmp_path):
    side = [item(i) for i in range(1, 1_101)]
    path = manifest(tmp_path, [{"number": 1, "kind": "cover", "sheet": 1, "items": side},
                               {"number": 2, "kind": "cover", "sheet": 1, "items": side}])
    line = check(path)
    assert "1,210,000 pairs" in line and f"the limit is {MAX_COVER_PAIRS:,}" in line


def test_a_manifest_of_too_many_items_is_refused(tmp_path):
    pages = [{"number": n + 1, "kind": "sheet", "sheet": n + 1, "items": [item(i) for i in range(1, 1_001)]}
             for n in range(MAX_MANIFEST_ITEMS // 1_000 + 1)]
    assert f"the limit is {MAX_MANIFEST_ITEMS:,}" in check(manifest(tmp_path, pages, duplex=False))


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e999"])
def test_check_manifest_refuses_numbers_that_are_not_finite(tmp_path, number):
    path = manifest(tmp_path, [{"number": 1, "kind": "front", "sheet": 1, "items": [item(1)]},
                               {"number": 2, "kind": "back", "sheet": 1, "items": [item(1, "back")]}])
    text = path.read_text().replace('"x": 10, "y": 10, "w": 1, "h": 1}]}]', f'"x": {number}, "y": {number}, "w": 1, "h": 1}}]}}]')
    assert text != path.read_text()
    path.write_text(text)
    line = check(path)
    assert "cannot read the manifest" in line and ("finite" in line or "not a number" in line)


# ---- sessions: at most the days or rounds the game has -----------------------------------------

@pytest.mark.parametrize("game", [g for g in SHIPPED if find_rules(g).rounds_key])
def test_a_session_of_more_rounds_than_its_game_has_is_one_problem_and_no_round_is_read(game):
    rules = find_rules(game)
    players = [f"P{i}" for i in range(rules.player_range[0])]
    raw = {"game": rules.id, "players": players, rules.rounds_key: [{}] * (rules.rounds + 1)}
    problems = check_session(raw).problems
    assert [p.code.value for p in problems] == ["too_many_days" if rules.rounds_key == "days" else "too_many_rounds"]
    assert problems[0].params["limit"] == rules.rounds


def test_a_session_file_of_340000_empty_rounds_is_refused_without_reading_them(tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps({"game": "halali", "players": ["Ann", "Bob"], "rounds": [{}] * 340_000},
                               separators=(",", ":")))
    result = runner.invoke(score_app, ["check", str(path)])
    assert result.exit_code == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 2 and "340000 rounds entered, but a game has at most 2" in lines[1]
