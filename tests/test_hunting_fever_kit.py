"""The Hunting Fever kit: PDF structure, manifest counts, languages, papers."""

from __future__ import annotations

from collections import Counter

import pytest

from helpers import front_items, pdf_reader, rendered
from pnp.kit.build import render_to_memory
from pnp.core.errors import TemplateError
from pnp.template.model import PrintOptions
from pnp.template.loader import load_shipped_game
from pnp.core.units import pt

SET = {"hunter": 1, "wolf": 2, "rabbit": 3, "carrot": 3, "closed_season": 1}
COLOURS = ["yellow", "green", "red", "blue", "black"]


def test_player_cards_are_five_sets_of_ten(hunting_fever_en_a4):
    _, manifest = hunting_fever_en_a4
    cards = front_items(manifest, "player-cards")
    assert len(cards) == 50
    per_set = Counter((c["set"], c["piece"]) for c in cards)
    for colour in COLOURS:
        assert {piece: per_set[(colour, piece)] for piece in SET} == SET
    assert Counter(c["piece"] for c in cards) == {k: 5 * v for k, v in SET.items()}
    assert all(c["w"] == 63.5 and c["h"] == 88.9 for c in cards)


def test_other_pieces_and_their_sides(hunting_fever_en_a4):
    _, manifest = hunting_fever_en_a4
    fronts = Counter(i["piece"] for i in front_items(manifest))
    assert fronts["lodge"] == 5 and fronts["hunt_starts_here"] == 1 and fronts["player_aid"] == 5
    backs = Counter(i["piece"] for p in manifest["pages"] for i in p["items"] if i["face"] == "back")
    # Every card has a back; the lodge's back is its "4" side; aids are one-sided.
    assert backs == {**{k: 5 * v for k, v in SET.items()}, "lodge": 5, "hunt_starts_here": 1}
    lodge = next(i for i in front_items(manifest) if i["piece"] == "lodge")
    assert sorted((lodge["w"], lodge["h"])) == [88.9, 127.0]  # larger than the player cards


def test_backs_land_behind_their_fronts(hunting_fever_en_a4):
    _, manifest = hunting_fever_en_a4
    page_w = manifest["page_size_mm"][0]
    pages = manifest["pages"]
    for index, page in enumerate(pages):
        if page["kind"] != "back":
            continue
        front = pages[index - 1]
        assert front["kind"] == "front"
        assert len(page["items"]) == len(front["items"])
        for f, b in zip(front["items"], page["items"]):
            assert (b["piece"], b["copy"], b.get("set")) == (f["piece"], f["copy"], f.get("set"))
            assert b["x"] == pytest.approx(page_w - f["x"] - f["w"], abs=0.002)
            assert b["y"] == f["y"] and (b["w"], b["h"]) == (f["w"], f["h"])


def test_pdf_pages_sizes_fonts_and_metadata(hunting_fever_en_a4):
    data, manifest = hunting_fever_en_a4
    reader = pdf_reader(data)
    assert len(reader.pages) == len(manifest["pages"])
    assert [p["kind"] for p in manifest["pages"]][0] == "cover"
    for page in reader.pages:
        box = page.mediabox
        assert float(box.width) == pytest.approx(pt(210), abs=0.01)
        assert float(box.height) == pytest.approx(pt(297), abs=0.01)
    fonts = set()
    for page in reader.pages:
        resources = page["/Resources"]
        for font in resources.get("/Font", {}).values():
            font = font.get_object()
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"] \
                if "/DescendantFonts" in font else font.get("/FontDescriptor")
            if descriptor is not None:
                descriptor = descriptor.get_object()
                assert "/FontFile2" in descriptor, font["/BaseFont"]  # embedded
            fonts.add(str(font["/BaseFont"]))
    assert fonts and all("+" in f for f in fonts)  # subsets: ABCDEF+Lato
    assert all("Lato" in f for f in fonts)
    meta = reader.metadata
    assert meta.title.startswith("Hunting Fever") and meta.author == "Stefan Zlatintsis"
    assert "A4" in meta.subject
    root = reader.trailer["/Root"]
    assert root["/Lang"] == "en"
    prefs = root["/ViewerPreferences"]
    assert prefs["/PrintScaling"] == "/None" and prefs["/Duplex"] == "/DuplexFlipLongEdge"


def test_french_text_with_accents_is_in_the_pdf(hunting_fever_fr_letter):
    data, manifest = hunting_fever_fr_letter
    reader = pdf_reader(data)
    assert manifest["paper"] == "letter" and manifest["page_size_mm"] == [215.9, 279.4]
    covers = [i for i, p in enumerate(manifest["pages"]) if p["kind"] == "cover"]
    cover = "\n".join(reader.pages[i].extract_text() for i in covers)
    for word in ("Chasse en folie", "Découpe et assemblage", "« 100 % »", "d’impression", "en français"):
        assert word in cover
    aid_page = next(i for i, p in enumerate(manifest["pages"])
                    if p["kind"] == "sheet" and "player-aids" in p["components"])
    text = reader.pages[aid_page].extract_text()
    for word in ("Chasseur", "Pile Proies", "Proie facile", "Chasse interdite"):
        assert word in text
    sheet = manifest["pages"][aid_page]["sheet"]
    assert f"Feuille {sheet} sur {manifest['sheets']}, recto seul" in text and "FR" in text
    assert reader.trailer["/Root"]["/Lang"] == "fr"


def test_every_page_has_a_footer_with_the_calibration_note(hunting_fever_en_a4):
    data, manifest = hunting_fever_en_a4
    total = len(manifest["pages"])
    for page, entry in zip(pdf_reader(data).pages, manifest["pages"]):
        text = page.extract_text()
        if entry["kind"] == "blank":
            # Behind a one-sided page: nothing at all, not even a footer.
            assert text.strip() == "" and not page.get_contents()
            continue
        assert "Print at 100% / actual size" in text and "50 mm" in text
        assert "Hunting Fever" in text and f"{entry['number']}/{total}" in text


def test_output_is_deterministic():
    game = load_shipped_game("hunting-fever")
    first = render_to_memory(game, PrintOptions(lang="fr"))
    second = render_to_memory(game, PrintOptions(lang="fr"))
    assert first[0] == second[0] and first[1] == second[1]


def test_no_duplex_keeps_only_the_backs_that_carry_game_information():
    data, manifest = rendered("hunting-fever", "en", "letter", duplex=False)
    backs = Counter(i["piece"] for p in manifest["pages"] for i in p["items"] if i["face"] == "back")
    assert backs == {"lodge": 5}
    # A file for a printer without duplex: the lodges' "4" sides are folded over, not printed behind.
    assert manifest["duplex"] is False
    assert {p["kind"] for p in manifest["pages"] if any(i["face"] == "back" for i in p["items"])} == {"fold"}
    assert "/Duplex" not in pdf_reader(data).trailer["/Root"]["/ViewerPreferences"]


def test_back_offset_shifts_back_pages_only():
    _, plain = rendered("hunting-fever", "en", "a4")
    _, shifted = rendered("hunting-fever", "en", "a4", back_offset=(1.5, -0.5))
    for a, b in zip(plain["pages"], shifted["pages"]):
        for i, j in zip(a["items"], b["items"]):
            dx, dy = (1.5, -0.5) if i["face"] == "back" else (0, 0)
            assert j["x"] == pytest.approx(i["x"] + dx) and j["y"] == pytest.approx(i["y"] + dy)


def test_ink_saver_paints_no_background_colour():
    plain, _ = rendered("hunting-fever", "en", "a4")
    saver, manifest = rendered("hunting-fever", "en", "a4", ink_saver=True)
    assert manifest["ink_saver"] is True
    # The card paper colour #f7f1e3 as a reportlab fill operator.
    paper = b".968627 .945098 .890196 rg"

    def streams(data):
        """Page contents and the drawings (forms) they place."""
        out = b""
        for page in pdf_reader(data).pages:
            out += page.get_contents().get_data()
            for xobject in page["/Resources"].get("/XObject", {}).values():
                out += xobject.get_object().get_data()
        return out

    assert paper in streams(plain)
    assert paper not in streams(saver)


def test_every_text_problem_of_every_piece_is_reported_before_drawing(monkeypatch):
    from pnp.kit import build
    from pnp.core.i18n import Catalog
    game = load_shipped_game("hunting-fever")
    fr = game.catalogs["fr"]
    long_name = "Lapin " * 12
    # Two mistakes in two pieces: a name too long for its box, a letter the font cannot draw.
    catalogs = {**game.catalogs, "fr": Catalog("fr", {**fr.texts, "card.rabbit": long_name.strip(),
                                                      "card.wolf": "Loup \u0416"})}
    broken = game._replace(catalogs=catalogs)

    def drawn(*args, **kwargs):
        raise AssertionError("nothing may be drawn when a face has a problem")

    monkeypatch.setattr(build, "render_kit", drawn)
    with pytest.raises(TemplateError) as caught:
        render_to_memory(broken, PrintOptions(lang="fr"))
    problems = caught.value.problems
    fit = [p for p in problems if "does not fit" in p]
    glyph = [p for p in problems if "no glyph" in p]
    # Each problem once, though the card is printed in five sets; the wolf's
    # name is also on the player aid and in the rules summary's table.
    assert len(fit) == 1 and len(glyph) == 3 and len(problems) == 4
    assert "hunting-fever player-cards/rabbit front, fr" in fit[0] and "Lapin Lapin" in fit[0]
    assert "hunting-fever.toml: components.player-cards.front[6]" in fit[0]
    assert any("player-cards/wolf front, fr" in g and "'\u0416'" in g for g in glyph)
    assert any("player-aids/player_aid front, fr" in g for g in glyph)
    assert str(caught.value).endswith("(and 3 more problem(s))")


def test_card_names_are_at_least_12_pt():
    from pnp.layout.faces import resolve_piece_face
    from pnp.layout.primitives import Text
    from pnp.render.fonts import MEASURER
    game = load_shipped_game("hunting-fever")
    for lang, catalog in game.catalogs.items():
        for key in ("hunter", "wolf", "rabbit", "carrot", "closed_season"):
            face = resolve_piece_face(game, PrintOptions(lang=lang), MEASURER, component_id="player-cards",
                                      piece_id=key)
            name = catalog.get(f"card.{key}")
            [title] = [p for p in face.primitives if isinstance(p, Text)
                       and " ".join(line.text for line in p.lines) == name]
            assert title.size >= 12, (lang, key, title.size)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_player_card_has_a_corner_index_in_both_top_corners(lang):
    """In a fan only the corners show: each top corner holds the set's symbol, the
    prey value and the card's pictogram (Carrot and Closed Season are both +1)."""
    from pnp.layout.faces import resolve_piece_face
    from pnp.layout.primitives import Icon, Symbol, Text, absolute
    from pnp.render.fonts import MEASURER
    from scoring import hunting_fever

    game = load_shipped_game("hunting-fever")
    component = game.component("player-cards")
    w = component.size[0]
    pictograms = set()
    for set_name in component.sets:
        symbol = game.colors[set_name].symbol
        for card in hunting_fever.CARDS:
            face = resolve_piece_face(game, PrintOptions(lang=lang), MEASURER, component_id="player-cards",
                                      piece_id=card,
                                      set_name=set_name)
            drawn = absolute(face.primitives)
            value = f"{hunting_fever.PREY_POINTS[card]:+d}".replace("-", "\u2212")
            for side in ("left", "right"):
                def corner(x: float, y: float) -> bool:
                    return y < 27 and (x < 12 if side == "left" else x > w - 12)

                symbols = [p for p in drawn if isinstance(p, Symbol) and corner(p.cx, p.cy)]
                values = [p for p in drawn if isinstance(p, Text) and corner(p.lines[0].x, p.lines[0].y)]
                icons = [p for p in drawn if isinstance(p, Icon) and corner(p.x + p.w / 2, p.y + p.h / 2)]
                assert [s.shape for s in symbols] == [symbol], (card, set_name, side)
                assert [t.lines[0].text for t in values] == [value], (card, set_name, side)
                assert len(icons) == 1 and icons[0].w >= 7, (card, set_name, side)
                assert values[0].size >= 10
                pictograms.add((card, icons[0].source))
    # Each card has a pictogram of its own, so cards of equal value differ at a glance.
    assert len({source for _, source in pictograms}) == len(hunting_fever.CARDS)
