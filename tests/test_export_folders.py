"""An export's folder holds exactly what its summary line says: replaced whole, one file
per piece and face, no two pieces under one name; and what a Tabletop Simulator export
is given (cells of a pixel at least, a --base-url that is an address).
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app
from pnp.export.plan import check_base_url, earlier_export
from pnp.core.errors import PnpError

runner = CliRunner()

CATALOG = '[game]\nname = "Kit"\ncredits = "Test."\n'


def kit(folder: Path, components: list[tuple[str, str, list[tuple[str, int]], list[str]]]) -> Path:
    """A kit of card components: (id, size, [(piece id, count)], sets)."""
    text = '[game]\nid = "kit"\nplayers = [1, 4]\nrules_url = "https://example.org/kit"\ndesigners = ["t"]\n'
    catalog = CATALOG
    for cid, size, pieces, sets in components:
        text += f'\n[[components]]\nid = "{cid}"\nsize = "{size}"\n'
        if sets:
            text += f"sets = {json.dumps(sets)}\n"
        text += ('[[components.front]]\ntype = "rect"\nx = 2\ny = 2\nw = "w - 4"\nh = "h - 4"\n'
                 f'fill = "{"set" if sets else "#336699"}"\n')
        text += "".join(f'[[components.pieces]]\nid = "{pid}"\ncount = {count}\n' for pid, count in pieces)
        catalog += f'\n[component.{cid}]\nname = "{cid}"\ncut = "Cut."\n'
    (folder / "kit.toml").write_text(text)
    for lang in ("en", "fr"):
        (folder / f"kit.{lang}.toml").write_text(catalog)
    return folder / "kit.toml"


def export(folder: Path, *args: str):
    return runner.invoke(app, ["export", "--template", str(folder / "kit.toml"), "--out", str(folder / "out"),
                               "--dpi", "72", *args])


def summary_count(stdout: str) -> int:
    return int(re.search(r"wrote (\d+) files?", stdout).group(1))


def files_in(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())


def test_an_export_replaces_the_earlier_one_whole(tmp_path):
    kit(tmp_path, [("cards", "poker", [("a", 3)], [])])
    result = export(tmp_path)
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "out" / "kit_en_png"
    assert len(files_in(folder)) == summary_count(result.stdout) == 4     # 3 fronts and files.csv
    kit(tmp_path, [("cards", "poker", [("a", 1)], [])])                  # fewer cards now
    result = export(tmp_path)
    assert result.exit_code == 0, result.stderr
    assert files_in(folder) == ["cards/a-01-front.png", "files.csv"]
    assert summary_count(result.stdout) == 2
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["kit_en_png"]   # nothing left beside it


def test_a_folder_holding_a_file_no_export_writes_is_kept_and_the_export_refused(tmp_path):
    kit(tmp_path, [("cards", "poker", [("a", 1)], [])])
    folder = tmp_path / "out" / "kit_en_png"
    folder.mkdir(parents=True)
    (folder / "notes.txt").write_text("mine")
    result = export(tmp_path)
    assert result.exit_code == 1 and "notes.txt" in result.stderr and "no export writes" in result.stderr
    assert files_in(folder) == ["notes.txt"]
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == ["kit_en_png"]


def test_earlier_export_tells_an_export_from_a_users_folder(tmp_path):
    (tmp_path / "cards").mkdir()
    (tmp_path / "cards" / "a-01-front.png").write_bytes(b"")
    (tmp_path / "files.csv").write_text("file\n")
    (tmp_path / ".kit.png.0123456789ab.tmp").write_bytes(b"")   # left by a crash of an older pnp
    assert earlier_export(tmp_path) is None
    (tmp_path / "cards" / "deeper").mkdir()
    assert "deeper" in earlier_export(tmp_path)


def test_an_export_through_a_linked_folder_is_written_at_the_links_target(tmp_path):
    kit(tmp_path, [("cards", "poker", [("a", 1)], [])])
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "kit_en_png").symlink_to(tmp_path / "elsewhere")
    result = export(tmp_path)
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "out" / "kit_en_png").is_symlink()
    assert files_in(tmp_path / "elsewhere") == ["cards/a-01-front.png", "files.csv"]


def test_ids_that_differ_only_by_underscore_and_dash_are_an_error_naming_both(tmp_path):
    kit(tmp_path, [("cards", "poker", [("a_b", 1), ("a-b", 1)], [])])
    result = export(tmp_path)
    assert result.exit_code == 1
    assert "'a_b 1'" in result.stderr and "'a-b 1'" in result.stderr and "cards/a-b-01-front.png" in result.stderr
    assert not (tmp_path / "out").exists() or files_in(tmp_path / "out") == []


def test_a_colour_listed_twice_in_sets_is_refused_where_it_is_written(tmp_path):
    kit(tmp_path, [("cards", "poker", [("a", 1)], ["red", "red"])])
    result = export(tmp_path)
    assert result.exit_code == 1 and "sets" in result.stderr and "each colour once" in result.stderr


def test_every_file_is_listed_once_and_every_piece_has_its_own(tmp_path):
    kit(tmp_path, [("cards", "poker", [("wolf", 2), ("closed_season", 2)], ["red", "blue"])])
    result = export(tmp_path)
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "out" / "kit_en_png"
    rows = list(csv.DictReader((folder / "files.csv").open()))
    assert len({row["file"] for row in rows}) == len(rows) == 8
    assert sorted(row["file"] for row in rows) == sorted(f for f in files_in(folder) if f != "files.csv")


def test_tts_sheets_of_a_component_never_meet_another_components_files(tmp_path):
    # c's 70 cards take two sheets; a component named like c's second sheet must not overwrite it.
    kit(tmp_path, [("c", "poker", [("p", 70)], []), ("c-1", "poker", [("q", 3)], []),
                   ("c-2", "poker", [("r", 2)], [])])
    result = export(tmp_path, "--format", "tts")
    assert result.exit_code == 0, result.stderr
    folder = tmp_path / "out" / "kit_en_tts"
    assert len(files_in(folder)) == summary_count(result.stdout)
    saved = json.loads((folder / "kit_en.json").read_text())
    faces = [sheet["FaceURL"] for deck in saved["ObjectStates"]
             for sheet in (deck.get("CustomDeck") or {}).values()]
    assert len(faces) == len(set(faces)) == 4
    assert {Path(url).parent.name for url in faces} == {"c", "c-1", "c-2"}


def test_tts_cards_too_thin_for_a_pixel_on_a_sheet_are_an_error(tmp_path):
    kit(tmp_path, [("strips", "2000x4", [("s", 69)], [])])
    result = export(tmp_path, "--format", "tts")
    assert result.exit_code == 1
    assert "strips" in result.stderr and "at least 1 pixel" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("url", ["https://", "http:///path", "https://example.org/my kit", "https://example.org/\nx",
                                 "ftp://example.org/kit", "example.org/kit", "file:kit", "https://example.org:port/"])
def test_a_base_url_that_is_not_an_address_is_refused(url):
    with pytest.raises(PnpError, match="--base-url"):
        check_base_url(url)


@pytest.mark.parametrize("url", ["https://example.org/kit", "http://192.168.1.5:8000/", "file:///srv/kit",
                                 "https://user@example.org/a%20b"])
def test_a_base_url_that_is_an_address_is_taken(url):
    check_base_url(url)
