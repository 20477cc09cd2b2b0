"""A designer's game with art, in under 200 lines of TOML, template and both catalogs
(examples/lantern-market): its own pictures (each lantern card's from a column of its data file,
a back, a coin, a market stall), its own font (Comfortaa Bold, its licence beside it and named on
the cover), its own icons inside its sentences, in English and French, exported for The Game
Crafter and Tabletop Simulator.

24 rounded lantern cards over full-bleed pictures, 4 aids, 28 round coins, a hex stall for each
player colour, a scoresheet. The pictures are small PNGs drawn for it by art/draw.py.
"""

from __future__ import annotations

import csv
import json
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image
from typer.testing import CliRunner

from helpers import pdf_reader
from pnp.cli import app
from pnp.kit.build import render_to_memory
from pnp.layout.faces import resolve_piece_face
from pnp.layout.primitives import absolute
from pnp.layout.print_order import print_order_problems
from pnp.render.fonts import MEASURER
from pnp.template.loader import load_game
from pnp.template.model import Face, PrintOptions

FOLDER = Path(__file__).resolve().parent.parent / "examples" / "lantern-market"
TEMPLATE = FOLDER / "lantern-market.toml"
PICTURES = ("art/back.png", "art/coin.png", "art/lantern-amber.png", "art/lantern-indigo.png", "art/lantern-jade.png",
            "art/lantern-rose.png", "art/stall.png")
runner = CliRunner()


@pytest.fixture(scope="module")
def game():
    return load_game(TEMPLATE)


@pytest.fixture(scope="module", params=[("en", "a4"), ("fr", "letter")])
def kit(request, game):
    lang, paper = request.param
    data, manifest = render_to_memory(game, PrintOptions(lang=lang, paper=paper))
    return lang, data, manifest


def test_the_template_is_short_and_brings_its_own_pictures_font_and_icons(game):
    # The template and both catalogs: under 200 lines, none of 100 characters or more.
    lines = [line for path in sorted(FOLDER.glob("*.toml")) for line in path.read_text(encoding="utf-8").splitlines()]
    assert len(sorted(FOLDER.glob("*.toml"))) == 3 and len(lines) < 200 and max(map(len, lines)) < 100
    rows = list(csv.DictReader((FOLDER / "lanterns.csv").open(encoding="utf-8")))
    assert len(rows) == 24 and {r["art"] for r in rows} == {f"art/lantern-{c}.png" for c in
                                                           ("amber", "jade", "rose", "indigo")}
    title = game.fonts["title"]
    assert (title.family, title.licence) == ("Comfortaa", "SIL Open Font License 1.1")
    assert "SIL OPEN FONT LICENSE" in (FOLDER / "fonts" / "OFL.txt").read_text(encoding="utf-8")
    assert sorted(p.name for p in (FOLDER / "icons").glob("*.svg")) == ["coin.svg", "glow.svg", "lantern.svg"]
    # Each picture small enough to keep in the repository, large enough for 300 dpi where it prints.
    assert all((FOLDER / name).stat().st_size < 40_000 for name in PICTURES)


def test_the_kit_places_each_picture_once_at_300_dpi_or_more(kit):
    lang, data, manifest = kit
    fronts = Counter(i["component"] for p in manifest["pages"] for i in p["items"] if i["face"] == "front")
    assert fronts == {"lanterns": 24, "aid": 4, "coins": 28, "stalls": 4, "scoresheet": 1}
    assert print_order_problems(manifest, len(pdf_reader(data).pages)) == []
    pictures = {p["file"]: p for p in manifest["pictures"]}
    assert sorted(pictures) == list(PICTURES)
    assert min(u["dpi"] for p in pictures.values() for u in p["placed"]) >= 300
    assert len(pictures["art/back.png"]["placed"]) == 24   # each piece by its id: 24 cards, 2 kinds of coin
    assert [u["piece"] for u in pictures["art/coin.png"]["placed"]] == ["coins/coin-1", "coins/coin-5"]
    # Each picture is one image of the PDF, however many pieces show it.
    reader = pdf_reader(data)
    images = {number for number in range(1, reader.trailer["/Size"])
              if getattr(reader.get_object(number), "get", lambda _: None)("/Subtype") == "/Image"
              and reader.get_object(number).get("/SMask") is None and reader.get_object(number).get("/Width") > 300}
    assert len(images) == len(PICTURES)


def test_its_words_are_set_in_its_own_font_with_icons_inside_them(kit, game):
    lang, data, _ = kit
    reader = pdf_reader(data)
    fonts = {font.get_object()["/BaseFont"] for page in reader.pages
             for font in page["/Resources"].get("/Font", {}).values()}
    assert any(name.endswith("+Comfortaa-Bold") for name in fonts), fonts   # embedded, a subset
    text = " ".join(page.extract_text() for page in reader.pages)
    # A rule's words read in their order, its bold figures in place.
    words = {"en": ("Amber lantern", "Buy it for 5", "At dawn it gives 8", "A night at the market",
                    "Typeface: Comfortaa, SIL Open Font License 1.1."),
             "fr": ("Lanterne ambre", "Achetez-la 5", "À l’aube, elle donne 8", "Une nuit au marché",
                    "Police : Comfortaa, SIL Open Font License 1.1.")}[lang]
    for word in words:
        assert word in " ".join(text.split()), word
    # The card's rule: a coin and a glow of the folder's icons, inline, each in the rule's colour.
    front = resolve_piece_face(game, PrintOptions(lang=lang), MEASURER, component_id="lanterns",
                               piece_id="amber-5")
    icons = [p for p in absolute(front.primitives) if type(p).__name__ == "Icon"]
    assert [Path(i.source).name for i in icons] == ["coin.svg", "glow.svg"]
    assert {i.tint for i in icons} == {game.palette["ink"]}


def test_it_exports_for_the_game_crafter_and_tabletop_simulator_from_its_pictures(tmp_path):
    tgc = runner.invoke(app, ["export", "--template", str(TEMPLATE), "--service", "tgc", "--component", "lanterns",
                              "--component", "aid", "--out", str(tmp_path)])
    assert tgc.exit_code == 0, tgc.output
    assert "Warning" not in tgc.output   # every picture has the pixels a 300 dpi image needs
    listed = list(csv.DictReader((tmp_path / "lantern-market_en_png_tgc" / "files.csv").open(encoding="utf-8")))
    assert Counter((r["component"], r["face"]) for r in listed) == {
        ("lanterns", "front"): 24, ("lanterns", "back"): 24, ("aid", "front"): 4}
    front = Image.open(tmp_path / "lantern-market_en_png_tgc" / "lanterns" / "jade-4-01-front.png").convert("RGB")
    assert front.size == (825, 1125)
    r, g, b = front.getpixel((412, 420))   # the middle of the lantern: the jade paper of its picture
    assert g > r + 40 and g > b
    tts = runner.invoke(app, ["export", "--template", str(TEMPLATE), "--format", "tts", "--dpi", "100",
                              "--lang", "fr", "--out", str(tmp_path)])
    assert tts.exit_code == 0, tts.output
    saved = json.loads((tmp_path / "lantern-market_fr_tts" / "lantern-market_fr.json").read_text(encoding="utf-8"))
    deck = next(o for o in saved["ObjectStates"] if len(o.get("ContainedObjects", ())) == 24)
    assert deck["Name"] == "DeckCustom" and deck["Nickname"] == "Cartes lanterne"
    stalls = [o for o in saved["ObjectStates"] if o.get("Nickname") == "Étals"]
    assert len(stalls) == 4 and {o["CustomImage"]["CustomTile"]["Type"] for o in stalls} == {1}   # hex tiles
