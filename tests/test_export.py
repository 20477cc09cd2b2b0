"""`pnp export`: print-service images and PDFs, Tabletop Simulator sheets and saved objects.

Sizes are checked against the services' published figures written here as
numbers, never recomputed by the formula under test.
"""

from __future__ import annotations

import csv
import json
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from PIL import Image
from typer.testing import CliRunner

from pnp.cli import app
from helpers import pdf_reader, rendered

runner = CliRunner()


@lru_cache(maxsize=None)
def export(tmp_root: str, *args: str) -> tuple[int, str, str]:
    """Run `pnp export` once per argument list (the outputs are only read)."""
    result = runner.invoke(app, ["export", *args, "--out", tmp_root])
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def out(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("export")


def run(out: Path, *args: str) -> tuple[int, str, str]:
    return export(str(out), *args)


def png_size(path: Path) -> tuple[int, int]:
    with Image.open(path) as image:
        return image.size


# ---- The Game Crafter and MakePlayingCards ---------------------------------------------------

def test_tgc_poker_cards_are_825_by_1125_rgb_at_300_dpi(out):
    code, stdout, stderr = run(out, "hunting-fever", "--service", "tgc")
    assert code == 0, stderr
    folder = out / "hunting-fever_en_png_tgc"
    card = folder / "player-cards" / "yellow-wolf-02-front.png"
    with Image.open(card) as image:
        assert image.size == (825, 1125)
        assert image.mode == "RGB"
        assert round(image.info["dpi"][0]) == 300
    assert png_size(folder / "player-cards" / "yellow-wolf-02-back.png") == (825, 1125)
    assert png_size(folder / "hunt-starts-here" / "hunt-starts-here-01-front.png") == (825, 1125)


def test_tgc_export_pairs_every_front_with_its_back_in_the_csv(out):
    run(out, "hunting-fever", "--service", "tgc")
    folder = out / "hunting-fever_en_png_tgc"
    rows = list(csv.DictReader((folder / "files.csv").open(encoding="utf-8")))
    player_cards = [r for r in rows if r["component"] == "player-cards"]
    assert len(player_cards) == 100            # 50 cards, front and back
    fronts = {r["file"].removesuffix("-front.png") for r in player_cards if r["face"] == "front"}
    backs = {r["file"].removesuffix("-back.png") for r in player_cards if r["face"] == "back"}
    assert fronts == backs and len(fronts) == 50
    wolf = next(r for r in rows if r["file"] == "player-cards/yellow-wolf-02-front.png")
    assert (wolf["piece"], wolf["set"], wolf["copy"], wolf["quantity"]) == ("wolf", "yellow", "2", "1")
    for row in rows:
        assert (folder / row["file"]).is_file()


def test_tgc_skips_what_it_does_not_make_and_says_so(out):
    code, stdout, stderr = run(out, "hunting-fever", "--service", "tgc")
    assert code == 0
    folder = out / "hunting-fever_en_png_tgc"
    assert not (folder / "lodges").exists() and not (folder / "scoresheet").exists()
    skipped = [line for line in stderr.splitlines() if line.startswith("skipped:")]
    assert len(skipped) == 4  # the lodges, and three sheets printed at home
    assert any("88.9 x 127 mm" in line and "lodges" in line for line in skipped)
    assert any("scoresheet" in line and "paper at home" in line for line in skipped)
    assert any("how-to-play" in line and "paper at home" in line for line in skipped)
    assert "skipped 4 components" in stdout


def test_asking_tgc_for_lodges_names_the_piece_and_the_sizes_it_offers(out):
    code, stdout, stderr = run(out, "hunting-fever", "--service", "tgc", "--component", "lodges")
    assert code == 1
    lines = stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: The Game Crafter makes no card of 88.9 x 127 mm")
    assert "hunting-fever lodges" in lines[0] and "poker card 63.5 x 88.9 mm (2.5 x 3.5 in)" in lines[0]
    assert not (out / "hunting-fever_en_png_tgc" / "lodges").exists()


def test_asking_a_service_for_a_scoresheet_is_an_error(out):
    code, _, stderr = run(out, "hunting-fever", "--service", "mpc", "--component", "scoresheet")
    assert code == 1
    assert stderr.startswith("Error: hunting-fever scoresheet is a sheet printed on paper at home")


def test_mpc_poker_cards_are_822_by_1122_and_lodges_are_jumbo(out):
    code, _, stderr = run(out, "hunting-fever", "--service", "mpc")
    assert code == 0, stderr
    folder = out / "hunting-fever_en_png_mpc"
    assert png_size(folder / "player-cards" / "red-carrot-03-front.png") == (822, 1122)
    # 3.5 x 5 in with MakePlayingCards' 36 px on each side.
    assert png_size(folder / "lodges" / "red-lodge-01-back.png") == (1122, 1572)


def test_a_service_takes_300_dpi_only(out):
    code, _, stderr = run(out, "hunting-fever", "--service", "tgc", "--dpi", "600")
    assert code == 1 and "exactly 300 dpi" in stderr


def test_tgc_makes_a_25_mm_token_as_its_one_inch_chit(tmp_path):
    code, _, stderr = export(str(tmp_path), "hunting-hunting-beavers", "--service", "tgc",
                             "--component", "currency")
    assert code == 0, stderr
    # 1 in + 1/8 in on each side at 300 dpi.
    assert png_size(tmp_path / "hunting-hunting-beavers_en_png_tgc" / "currency"
                    / "currency-01-front.png") == (375, 375)


# ---- PDF ----------------------------------------------------------------------------------

def _boxes(page) -> tuple[list[float], list[float], list[float]]:
    return ([round(float(v), 2) for v in page.mediabox], [round(float(v), 2) for v in page.trimbox],
            [round(float(v), 2) for v in page.bleedbox])


def test_tgc_pdf_pages_are_trim_plus_eighth_inch_with_trim_and_bleed_boxes(out):
    code, _, stderr = run(out, "hunting-fever", "--format", "pdf", "--service", "tgc")
    assert code == 0, stderr
    reader = pdf_reader((out / "hunting-fever_en_pdf_tgc" / "player-cards.pdf").read_bytes())
    assert len(reader.pages) == 100
    for page in reader.pages:
        # 2.75 x 3.75 in; the trim 2.5 x 3.5 in, 9 pt (1/8 in) in from every edge.
        assert _boxes(page) == ([0, 0, 198, 270], [9, 9, 189, 261], [0, 0, 198, 270])
        assert "/TrimBox" in page and "/BleedBox" in page


def test_pdf_order_puts_each_back_beside_its_front(out):
    run(out, "hunting-fever", "--format", "pdf", "--service", "tgc")
    front_first = pdf_reader((out / "hunting-fever_en_pdf_tgc" / "player-cards.pdf").read_bytes())
    code, _, stderr = run(out / "back", "hunting-fever", "--format", "pdf", "--service", "tgc",
                          "--order", "back-front")
    assert code == 0, stderr
    back_first = pdf_reader((out / "back" / "hunting-fever_en_pdf_tgc" / "player-cards.pdf").read_bytes())
    texts = [p.extract_text() for p in front_first.pages[:4]]
    assert "Hunter" in texts[0] and "Wolf" in texts[2]          # fronts name the card
    assert "Hunter" not in texts[1] and "Yellow" in texts[1]     # the back shows the colour
    swapped = [p.extract_text() for p in back_first.pages[:4]]
    assert swapped == [texts[1], texts[0], texts[3], texts[2]]


def test_generic_pdf_has_the_kit_bleed_exactly_and_no_crop_marks(out):
    code, _, stderr = run(out, "halali", "--format", "pdf", "--component", "tiles")
    assert code == 0, stderr
    reader = pdf_reader((out / "halali_en_pdf" / "tiles.pdf").read_bytes())
    assert len(reader.pages) == 96                              # 48 tiles, two faces
    mm = 72 / 25.4
    media, trim, _ = _boxes(reader.pages[0])
    assert media == [0, 0, round(29 * mm, 2), round(29 * mm, 2)]  # 23 mm + 3 mm a side
    assert trim == [round(3 * mm, 2), round(3 * mm, 2), round(26 * mm, 2), round(26 * mm, 2)]


# ---- Tabletop Simulator -----------------------------------------------------------------------

def _saved(out: Path, game: str, lang: str = "en") -> dict:
    return json.loads((out / f"{game}_{lang}_tts" / f"{game}_{lang}.json").read_text(encoding="utf-8"))


def _local(url: str) -> Path:
    assert url.startswith("file:///")
    return Path(unquote(urlparse(url).path))


def test_tts_decks_card_ids_and_sheets_match(out):
    code, stdout, stderr = run(out, "hunting-fever", "--format", "tts")
    assert code == 0, stderr
    saved = _saved(out, "hunting-fever")
    decks = [o for o in saved["ObjectStates"] if o["Name"] == "DeckCustom"]
    # One deck per player colour, and the five lodges.
    assert len(decks) == 6
    keys = set()
    for deck in decks:
        assert len(deck["CustomDeck"]) == 1
        key, sheet = next(iter(deck["CustomDeck"].items()))
        keys.add(key)
        cards = deck["ContainedObjects"]
        assert deck["DeckIDs"] == [int(key) * 100 + slot for slot in range(len(cards))]
        assert [c["CardID"] for c in cards] == deck["DeckIDs"]
        assert all(c["CustomDeck"] == deck["CustomDeck"] for c in cards)
        assert sheet["NumWidth"] <= 10 and sheet["NumHeight"] <= 7
        assert sheet["NumWidth"] * sheet["NumHeight"] >= len(cards)
        assert sheet["BackIsHidden"] is True
        with Image.open(_local(sheet["FaceURL"])) as faces:
            assert faces.mode == "RGB" and max(faces.size) <= 4096
            assert faces.size[0] % sheet["NumWidth"] == 0 and faces.size[1] % sheet["NumHeight"] == 0
            cell = (faces.size[0] // sheet["NumWidth"], faces.size[1] // sheet["NumHeight"])
        with Image.open(_local(sheet["BackURL"])) as backs:
            assert backs.size == (faces.size if sheet["UniqueBack"] else cell)
    assert len(keys) == len(decks)
    by_name = {d["Nickname"]: d for d in decks}
    yellow = by_name["Player cards (5 sets) — Yellow"]
    assert len(yellow["ContainedObjects"]) == 10
    assert next(iter(yellow["CustomDeck"].values()))["UniqueBack"] is False   # one back per colour
    lodges = by_name["Hunting lodges"]
    assert next(iter(lodges["CustomDeck"].values()))["UniqueBack"] is True    # colours differ


def test_tts_big_deck_takes_several_sheets_within_the_limits(tmp_path):
    code, _, stderr = export(str(tmp_path), "hunting-hunting-beavers", "--format", "tts",
                             "--component", "unit-cards", "--dpi", "100")
    assert code == 0, stderr
    (deck,) = _saved(tmp_path, "hunting-hunting-beavers")["ObjectStates"]
    assert len(deck["ContainedObjects"]) == 144
    assert sorted(deck["CustomDeck"]) == ["1", "2", "3"]
    sizes = [int(k) for k in deck["CustomDeck"]]
    counts = {k: sum(1 for c in deck["ContainedObjects"] if c["CardID"] // 100 == k) for k in sizes}
    assert counts == {1: 69, 2: 69, 3: 6}
    assert deck["DeckIDs"][69] == 200 and deck["DeckIDs"][-1] == 305


def test_tts_tiles_tokens_and_boards(out):
    code, _, stderr = run(out, "halali", "--format", "tts", "--component", "tiles",
                          "--component", "board")
    assert code == 0, stderr
    objects = _saved(out, "halali")["ObjectStates"]
    tiles = [o for o in objects if o["Name"] == "Custom_Tile"]
    boards = [o for o in objects if o["Name"] == "Custom_Board"]
    assert len(tiles) == 48 and len(boards) == 1
    image = tiles[0]["CustomImage"]
    assert image["ImageURL"] != image["ImageSecondaryURL"]      # a tile has two faces
    assert _local(image["ImageURL"]).is_file() and _local(image["ImageSecondaryURL"]).is_file()
    # Tiles that look alike share one image: one front per kind of tile, one back for all.
    assert len({t["CustomImage"]["ImageURL"] for t in tiles}) == 8
    assert len({t["CustomImage"]["ImageSecondaryURL"] for t in tiles}) == 1
    code, _, stderr = run(out, "card-hunter", "--format", "tts", "--component", "tokens")
    tokens = _saved(out, "card-hunter")["ObjectStates"]
    assert code == 0 and {o["Name"] for o in tokens} == {"Custom_Token"}
    assert tokens[0]["CustomImage"]["CustomToken"]["Thickness"] > 0


def test_tts_base_url_points_every_image_there(out):
    code, _, stderr = run(out / "hosted", "hunting-fever", "--format", "tts", "--component",
                          "hunt-starts-here", "--base-url", "https://example.org/hf")
    assert code == 0, stderr
    (card,) = _saved(out / "hosted", "hunting-fever")["ObjectStates"]
    assert card["Name"] == "CardCustom" and card["CardID"] == 100
    sheet = card["CustomDeck"]["1"]
    assert sheet["FaceURL"] == "https://example.org/hf/hunt-starts-here/hunt-starts-here-faces.png"
    assert sheet["BackURL"] == "https://example.org/hf/hunt-starts-here/hunt-starts-here-back.png"


def test_tts_takes_no_service_and_base_url_is_for_tts(out):
    code, _, stderr = run(out, "hunting-fever", "--format", "tts", "--service", "tgc")
    assert code == 1 and stderr.startswith("Error: --service is for print files")
    code, _, stderr = run(out, "hunting-fever", "--base-url", "https://example.org")
    assert code == 1 and "--base-url is for --format tts" in stderr


# ---- same pixels as the kit ---------------------------------------------------------------

def _kit_card(game: str, component: str, piece: str, copy: int, dpi: int) -> Image.Image:
    """The front of one copy cut from the kit's PDF page rendered at ``dpi``, turned upright."""
    import pypdfium2 as pdfium

    pdf, manifest = rendered(game, "en", "a4")
    for page in manifest["pages"]:
        for item in page["items"]:
            if (item["component"], item["piece"], item["face"], item["copy"]) == \
                    (component, piece, "front", copy) and item.get("set") in (None, "yellow"):
                document = pdfium.PdfDocument(pdf)
                image = document[page["number"] - 1].render(scale=dpi / 72).to_pil().convert("RGB")
                px = dpi / 25.4
                top = 297 - item["y"] - item["h"]
                box = (round(item["x"] * px), round(top * px), round((item["x"] + item["w"]) * px),
                       round((top + item["h"]) * px))
                card = image.crop(box)
                return card.rotate(-item.get("rotation", 0), expand=True)
    raise AssertionError(f"no {piece} {copy} front in the {game} kit")


def _differing(a: Image.Image, b: Image.Image) -> float:
    """The share of pixels that differ by more than a faint edge: both are softened first,
    so the half pixel by which a card sits differently on the kit's page does not count."""
    from PIL import ImageChops, ImageFilter

    soft = ImageFilter.GaussianBlur(2)
    difference = ImageChops.difference(a.filter(soft), b.filter(soft)).convert("L")
    return sum(difference.point(lambda v: 255 if v > 40 else 0).histogram()[255:]) / (a.width * a.height)


@pytest.mark.parametrize("game, component, piece, copy, file, other", [
    ("hunting-fever", "player-cards", "wolf", 1, "yellow-wolf-01", "green-wolf-01"),
    ("halali", "tiles", "fox", 1, "fox-01", "duck-01"),
    ("card-hunter", "characters", "character", 2, "character-02", "character-03"),
    ("hunting-hunting-beavers", "unit-cards", "unit", 1, "unit-001", "unit-144"),
])
def test_exported_card_matches_the_kit_pdf(tmp_path, game, component, piece, copy, file, other):
    dpi = 300
    code, _, stderr = export(str(tmp_path), game, "--component", component, "--dpi", str(dpi))
    assert code == 0, stderr
    kit = _kit_card(game, component, piece, copy, dpi)
    bleed = round(3 * dpi / 25.4)
    folder = tmp_path / f"{game}_en_png" / component
    with Image.open(folder / f"{file}-front.png") as exported:
        card = exported.convert("RGB").crop((bleed, bleed, bleed + kit.width, bleed + kit.height))
    assert _differing(kit, card) < 0.01
    # A wrong card would not pass: another piece or colour differs.
    with Image.open(folder / f"{other}-front.png") as exported:
        wrong = exported.convert("RGB").crop((bleed, bleed, bleed + kit.width, bleed + kit.height))
    assert _differing(kit, wrong) > 0.01


def test_nothing_is_written_when_the_template_is_broken(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text("[game]\nid = 'x'\n", encoding="utf-8")
    result = runner.invoke(app, ["export", "--template", str(broken), "--out", str(tmp_path / "o")])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and len(result.stderr.strip().splitlines()) == 1
    assert not any((tmp_path / "o").rglob("*.png"))


def test_an_export_that_fails_late_leaves_nothing_behind(tmp_path, monkeypatch):
    import errno

    from pnp.core import files

    folder = tmp_path / "hunting-fever_en_png_mpc"
    folder.mkdir()
    (folder / "earlier.png").write_bytes(b"an earlier export")
    real_open = files.os.open

    def full_disk(path, *args, **kwargs):
        if Path(path).name == "files.csv":    # the last file cannot be written
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(files.os, "open", full_disk)
    result = runner.invoke(app, ["export", "hunting-fever", "--service", "mpc", "--component",
                                 "hunt-starts-here", "--out", str(tmp_path)])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: cannot write") and "files.csv" in result.stderr
    # The earlier export is as it was, and nothing of this one is left, in it or beside it.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hunting-fever_en_png_mpc"]
    assert [p.name for p in folder.iterdir()] == ["earlier.png"]


def test_every_pnp_package_ships_in_the_wheel():
    import tomllib

    root = Path(__file__).resolve().parent.parent
    listed = set(tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(root).parts) for p in (root / "pnp").rglob("__init__.py")}
    assert found <= listed, f"not in pyproject.toml's packages: {sorted(found - listed)}"


@pytest.mark.parametrize("name, pixels", [("poker", (825, 1125)), ("bridge", (750, 1125)),
                                          ("mini", (600, 825)), ("tarot", (900, 1500))])
def test_named_card_sizes_are_the_services_own(name, pixels):
    # The Game Crafter's pixels, as its product catalogue gives them (tarot: 2.75 x 4.75 in, not
    # the 70 x 120 mm pnp had, which neither service takes); MakePlayingCards' 36 px less a side.
    from pnp.core.units import piece_size
    from pnp.export.services import MAKE_PLAYING_CARDS, THE_GAME_CRAFTER, match
    from pnp.template.model import Component

    cards = Component("cards", piece_size(name), (), (), None)
    assert match(THE_GAME_CRAFTER, cards).product.pixels == pixels
    mpc = match(MAKE_PLAYING_CARDS, cards)
    assert mpc is not None and mpc.product.pixels == (pixels[0] - 3, pixels[1] - 3)
