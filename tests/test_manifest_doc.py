"""docs/MANIFEST.md describes every field a manifest holds, and the shipped games' pieces as they are.

The fields are read from manifests the code writes (kits with every print option, a cutting
machine's, the printer alignment sheet's), not listed here: a field added to a manifest fails
here until the page describes it.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from helpers import rendered
from pnp.core.games import game_ids
from pnp.kit.build import write_calibration, write_pdf_and_manifest
from pnp.template.loader import load_shipped_game

PAGE = (Path(__file__).resolve().parent.parent / "docs" / "MANIFEST.md").read_text(encoding="utf-8")
#: The manifests read: every game plain, and one each with the options that add fields.
OPTIONS = [{"fold": True}, {"duplex": False}, {"ink_saver": True}, {"cutter": "silhouette"}]


def named(field: str) -> bool:
    return f"`{field}`" in PAGE


def fields(manifest: dict, piece_fields: set[str]) -> set[tuple[str, str]]:
    """(where, field) for every field of a manifest, but the pieces' own fields (their names are
    the template's: the table of pieces lists them)."""
    found = {("file", key) for key in manifest}
    for key, value in manifest.get("cutter", {}).items():
        found.add(("cutter", key))
        if key == "marks":
            found |= {("mark", field) for mark in value for field in mark}
    for page in manifest["pages"]:
        found |= {("page", key) for key in page}
        for item in page["items"]:
            found |= {("item", key) for key in item if key not in piece_fields}
            found |= {("region", key) for key in item.get("region", {})}
    return found


def piece_fields(game_id: str) -> set[str]:
    return {name for component in load_shipped_game(game_id).components for name in component.fields}


@pytest.mark.parametrize("game_id", game_ids())
def test_every_field_a_kit_manifest_holds_is_described(game_id, tmp_path):
    own = piece_fields(game_id)
    found = set()
    for options in ({}, *OPTIONS):
        pdf, manifest = rendered(game_id, "en", "a4", **options)
        found |= fields(manifest, own)
    # The PDF's name and hash are added as the pair is written.
    written = write_pdf_and_manifest(tmp_path / "kit.pdf", b"%PDF", {"pages": []})
    found |= {("file", key) for key in json.loads(written.read_text(encoding="utf-8"))}
    assert {("file", "cutter"), ("page", "cut_file"), ("mark", "legs_toward")} <= found   # the options were read
    assert sorted(f"{where}: {field}" for where, field in found if not named(field)) == []


def test_every_field_of_the_alignment_sheets_manifest_is_described(tmp_path):
    written = write_calibration("en", "a4", tmp_path)
    manifest = json.loads(written.manifest.read_text(encoding="utf-8"))
    found = set(manifest) | {key for target in manifest["targets_mm"] for key in target}
    assert sorted(field for field in found if not named(field)) == []
    calibration = PAGE.split("## The printer alignment sheet", 1)[1].split("\n## ", 1)[0]
    assert all(f"`{field}`" in calibration for field in manifest), "each named where the sheet is described"


def test_the_table_of_pieces_is_the_shipped_games_own():
    rows = re.findall(r"^\| `([a-z-]+)` \| `([a-z-]+)` \| (.*?) \|(.*?)\|$", PAGE, re.MULTILINE)
    table = {(game, component): (re.findall(r"`(\w+)`", pieces), re.findall(r"`(\w+)`", own))
             for game, component, pieces, own in rows}
    shipped = {}
    for game_id in game_ids():
        for component in load_shipped_game(game_id).components:
            pieces = list(dict.fromkeys(piece.id for piece in component.pieces))
            own = [name for name in component.fields if not name.startswith("_")]
            shipped[game_id, component.id] = (pieces, own)
    assert table == shipped


def test_every_field_a_kit_with_pictures_adds_is_described(tmp_path):
    from PIL import Image

    from pnp.kit.build import render_to_memory
    from pnp.template.loader import load_game
    from pnp.template.model import PrintOptions

    Image.new("RGB", (600, 600), "#2f6e9c").save(tmp_path / "art.png")
    (tmp_path / "k.toml").write_text(
        '[game]\nid = "k"\n[[components]]\nid = "cards"\nsize = "poker"\npieces = [{ id = "card", count = 2 }]\n'
        '[[components.front]]\ntype = "image"\nfile = "art.png"\nx = 5\ny = 5\nw = 20\nh = 20\n', encoding="utf-8")
    for lang in ("en", "fr"):
        (tmp_path / f"k.{lang}.toml").write_text('[game]\nname = "K"\ncredits = "A test."\n'
                                                 '[component.cards]\nname = "Cards"\ncut = "Cut."\n', encoding="utf-8")
    manifest = render_to_memory(load_game(tmp_path / "k.toml"), PrintOptions())[1]
    found = {key for picture in manifest["pictures"] for key in picture}
    found |= {key for picture in manifest["pictures"] for use in picture["placed"] for key in use}
    assert "pictures" in manifest and sorted(field for field in found | {"pictures"} if not named(field)) == []
