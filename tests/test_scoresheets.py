"""Scoresheets: blank ones in every kit, filled ones from a session (`pnp score sheet`)."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from conftest import front_items, pdf_reader, rendered
from hunting_fever_sim import play_game, session as hf_session
from pnp.cli import app
from pnp.layout.scoresheets import MIN_BOX
from pnp.scoresheet import render_filled_sheet, result_summary
from pnp.model import PrintOptions
from pnp.templates import game_files, load_shipped_game
from scoring import load_session, score_session

runner = CliRunner()
NAMES = ["Alice", "Bérénice", "Chloé", "Dörte", "Élodie"]


def hf_result(seed: int = 3, names=NAMES):
    raw = hf_session(names, list(play_game(names, random.Random(seed))))
    return raw, score_session(load_session(raw))


def test_every_kit_has_a_blank_scoresheet_that_fits_both_papers():
    for game_id in game_files():
        game = load_shipped_game(game_id)
        sheet = game.component("scoresheet")
        w, h = sheet.size
        assert w <= 194 and h <= 258.4, game_id  # printable area on A4 and on Letter
        assert [p.id for p in sheet.pieces] == ["scoresheet"]


@pytest.mark.parametrize("paper, x, y", [("a4", 10.0, 23.5), ("letter", 12.95, 14.7)])
def test_the_blank_sheet_sits_centred_on_its_page(paper, x, y):
    _, manifest = rendered("hunting-fever", "fr", paper)
    [item] = front_items(manifest, "scoresheet")
    assert (item["x"], item["y"], item["w"], item["h"]) == (x, y, 190.0, 255.0)
    page = next(p for p in manifest["pages"] if p.get("component") == "scoresheet")
    assert page["kind"] == "sheet"


def test_pen_boxes_are_at_least_7_mm():
    assert MIN_BOX == 7.0
    from pnp.layout import scoresheets
    # Hunting Fever rows are 7.6 mm with a 0.6 mm gap: 7.0 mm tall boxes, 9 mm wide.
    assert 7.6 - 0.6 >= MIN_BOX and 11.0 - 2 >= MIN_BOX
    from scoring import hunting_fever
    assert scoresheets.HF_PREY == hunting_fever.PREY_POINTS and scoresheets.HF_HAND == hunting_fever.HAND_POINTS
    from scoring import halali
    assert scoresheets.HALALI_POINTS == halali.POINTS


def test_blank_french_sheet_has_five_player_rows_and_its_labels():
    data, manifest = rendered("hunting-fever", "fr", "letter")
    page = next(i for i, p in enumerate(manifest["pages"]) if p.get("component") == "scoresheet")
    text = " ".join(pdf_reader(data).pages[page].extract_text().split())
    for word in ("Feuille de score", "Jour 1", "Jour 4", "Pile Proies", "En main", "Pavillon",
                 "Meilleure journée (départage)", "Gagnant"):
        assert word in text
    assert "Alice" not in text


def test_filled_sheet_holds_the_entered_numbers_and_totals_in_french():
    raw, result = hf_result()
    data, manifest = render_filled_sheet(result, PrintOptions(lang="fr"), date="2026-11-22")
    assert [p["kind"] for p in manifest["pages"]] == ["sheet"]
    text = pdf_reader(data).pages[0].extract_text()
    assert "Jour 1" in text and "Day 1" not in text and "2026-11-22" in text
    for name in NAMES:
        assert name in text
    totals = [f"+{v}" if v > 0 else (f"\u2212{-v}" if v < 0 else "0") for v in result.totals.values()]
    for total in totals:
        assert total in text
    assert "Gagnant" in text
    # The numbers entered for the first player's first day, in order.
    first = result.rounds[0].players[0]
    counts = " ".join(str(line.count) for line in first.lines[:10])
    assert counts in " ".join(text.split())


def test_filled_sheet_in_english_names_the_tie_break():
    # Two players tied on points; the best single day decides.
    raw, _ = hf_result()
    result = score_session(load_session(raw))
    from dataclasses import replace
    from scoring import TieBreak
    tied = replace(result, tie_break=TieBreak.BEST_DAY, winners=(NAMES[0],))
    data, _ = render_filled_sheet(tied, PrintOptions(lang="en", paper="letter"))
    text = pdf_reader(data).pages[0].extract_text()
    assert "the best single day decided it" in text
    assert "Winner" in text


def test_qr_summary_is_short_and_carries_the_result():
    raw, result = hf_result()
    catalog = load_shipped_game("hunting-fever").catalogs["en"]
    text = result_summary(result, catalog, "2026-11-22")
    assert text.startswith("Hunting Fever | 2026-11-22 | ")
    for name in NAMES:
        assert f"{name} {result.totals[name]}" in text
    assert f"winner: {', '.join(result.winners)}" in text
    assert len(text) < 200


def test_score_sheet_command_writes_the_pdf(tmp_path):
    raw, _ = hf_result(names=NAMES[:3])
    raw["date"] = "2026-11-21"
    session = tmp_path / "game.json"
    session.write_text(json.dumps(raw), encoding="utf-8")
    result = runner.invoke(app, ["score", "sheet", str(session), "--lang", "fr", "--paper", "letter"])
    assert result.exit_code == 0, result.output
    pdf = tmp_path / "game.pdf"
    assert pdf.exists() and (tmp_path / "game.manifest.json").exists()
    text = pdf_reader(pdf.read_bytes()).pages[0].extract_text()
    assert "2026-11-21" in text and "Chloé" in text


def test_an_invalid_session_prints_the_problems_and_writes_no_file(tmp_path):
    raw, _ = hf_result(names=NAMES[:3])
    raw["days"][0]["Alice"]["hand"] = {"wolf": 3}  # more wolves than a set has
    session = tmp_path / "bad.json"
    session.write_text(json.dumps(raw), encoding="utf-8")
    result = runner.invoke(app, ["score", "sheet", str(session), "--out", str(tmp_path / "out.pdf")])
    assert result.exit_code == 1
    assert "Error:" in result.output and "wolf" in result.output.lower()
    assert not (tmp_path / "out.pdf").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]


def test_score_sheet_refuses_an_unknown_paper(tmp_path):
    raw, _ = hf_result(names=NAMES[:3])
    session = tmp_path / "game.json"
    session.write_text(json.dumps(raw), encoding="utf-8")
    result = runner.invoke(app, ["score", "sheet", str(session), "--paper", "a5"])
    assert result.exit_code == 1 and "Error: unknown paper 'a5'" in result.output


def _text(result, lang="en", paper="a4") -> str:
    data, _ = render_filled_sheet(result, PrintOptions(lang=lang, paper=paper))
    return " ".join(pdf_reader(data).pages[0].extract_text().split())


def test_filled_halali_sheet_shows_roles_counts_points_and_the_tiles_tie_break():
    raw = {"game": "halali", "players": ["Ann", "Ben"], "rounds": [
        {"blue": "Ann", "tiles": {"Ann": {"hunter": 2, "duck": 1}, "Ben": {"tree": 4, "fox": 1}}},
        {"blue": "Ben", "tiles": {"Ann": {"tree": 3, "pheasant": 1}, "Ben": {"lumberjack": 1, "duck": 1}}},
    ]}
    result = score_session(load_session(raw))
    # Ann: 10 + 2 = 12, then 6 + 3 = 9; Ben: 8 + 5 = 13, then 5 + 2 = 7.
    assert result.totals == {"Ann": 21, "Ben": 20}
    text = _text(result, "fr")
    for word in ("Manche 1", "Manche 2", "Ann", "Ben", "Ours", "Bûcheron", "Gagnant"):
        assert word in text
    assert "21" in text and "20" in text


def test_filled_halali_sheet_names_the_tiles_tie_break():
    # 6 points each; Ben holds 3 tiles over both rounds, Ann 2.
    tie = {"game": "halali", "players": ["Ann", "Ben"], "rounds": [
        {"blue": "Ann", "tiles": {"Ann": {"pheasant": 1}, "Ben": {"tree": 1}}},
        {"blue": "Ben", "tiles": {"Ann": {"pheasant": 1}, "Ben": {"duck": 2}}},
    ]}
    result = score_session(load_session(tie))
    assert result.totals == {"Ann": 6, "Ben": 6} and result.winners == ("Ben",)
    assert "more tiles over both rounds decided it" in _text(result)


def test_filled_beavers_sheet_puts_each_player_under_their_colour():
    raw = {"game": "hunting-hunting-beavers", "players": ["Ann", "Ben", "Cid", "Dee"],
           "colors": {"Ann": "white", "Ben": "red", "Cid": "green", "Dee": "blue"},
           "rounds": [{"Ann": 3, "Ben": 2}, {"Ann": -1, "Cid": 4, "Dee": 5}]}
    result = score_session(load_session(raw))
    text = _text(result, "fr", "letter")
    assert "Rouge" in text and "Blanc" in text
    assert text.index("Ben") < text.index("Cid") < text.index("Dee") < text.index("Ann")
    assert "Partie pas encore finie : 2 sur 10 saisis." in text


def test_filled_card_hunter_log_shows_the_fight():
    raw = {"game": "card-hunter", "players": ["Ann", "Ben"], "difficulty": "hard",
           "result": "won", "knockouts_left": 2, "date": "2026-11-20"}
    result = score_session(load_session(raw))
    data, _ = render_filled_sheet(result, PrintOptions(lang="en"), date="2026-11-20")
    text = " ".join(pdf_reader(data).pages[0].extract_text().split())
    assert "Campaign log" in text and "Ann, Ben" in text and "The team won" in text
    assert "2026-11-20" in text
