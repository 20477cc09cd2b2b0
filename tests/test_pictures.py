"""A designer's pictures: read right and safely, fitted, bled, said at what resolution they print,
and stored once in the PDF at the size they need.

Every picture here is made by the test with Pillow (and one colour profile written byte by byte),
so what each should look like once printed is known exactly.
"""

from __future__ import annotations

import io
import json
import os
import struct
from pathlib import Path

import pytest
from PIL import Image, ImageDraw
from typer.testing import CliRunner

from helpers import pdf_reader
from pnp.cli import app
from pnp.core.errors import TemplateError
from pnp.core.files import recording
from pnp.kit.build import render_to_memory
from pnp.layout.faces import resolve_piece_face
from pnp.layout.primitives import describe
from pnp.render.fonts import MEASURER
from pnp.render.pictures import encoded
from pnp.template.loader import load_game
from pnp.template.model import PrintOptions
from pnp.template.pictures import picture_info

runner = CliRunner()

CATALOG = '[game]\nname = "Pictures"\ncredits = "Made for a test."\n[component.cards]\nname = "Cards"\ncut = "Cut."\n'


def kit(folder: Path, front: str, *, size: str = "poker", pieces: str = '[{ id = "card", count = 3 }]',
        extra: str = "", game: str = "") -> Path:
    """A kit of one component whose front is ``front`` (TOML element tables)."""
    (folder / "pictures.toml").write_text(
        f'[game]\nid = "pictures"\n{game}\n[[components]]\nid = "cards"\nsize = "{size}"\npieces = {pieces}\n'
        f'{extra}\n{front}\n', encoding="utf-8")
    for lang in ("en", "fr"):
        (folder / f"pictures.{lang}.toml").write_text(CATALOG, encoding="utf-8")
    return folder / "pictures.toml"


def image(file: str, **keys) -> str:
    lines = ['[[components.front]]', 'type = "image"', f'file = "{file}"']
    keys = {"x": 0, "y": 0, "w": "w", "h": "h", **keys}
    lines += [f"{k} = {json.dumps(v)}" for k, v in keys.items()]
    return "\n".join(lines) + "\n"


def quartered(path: Path, size=(300, 200), **save) -> None:
    """A picture in four coloured quarters: red top-left, green top-right, blue bottom-left, white
    bottom-right, so where each corner lands once turned, cropped or mirrored can be told."""
    w, h = size
    picture = Image.new("RGB", size)
    draw = ImageDraw.Draw(picture)
    draw.rectangle([0, 0, w // 2 - 1, h // 2 - 1], fill=(255, 0, 0))
    draw.rectangle([w // 2, 0, w - 1, h // 2 - 1], fill=(0, 255, 0))
    draw.rectangle([0, h // 2, w // 2 - 1, h - 1], fill=(0, 0, 255))
    draw.rectangle([w // 2, h // 2, w - 1, h - 1], fill=(255, 255, 255))
    picture.save(path, **save)


def pdf_images(data: bytes) -> list:
    """Every image object of a PDF (soft masks left out), once each."""
    reader = pdf_reader(data)
    found = []
    for number in range(1, reader.trailer["/Size"]):
        obj = reader.get_object(number)
        if hasattr(obj, "get") and obj.get("/Subtype") == "/Image" and not _is_mask(reader, number):
            found.append(obj)
    return found


def _is_mask(reader, number: int) -> bool:
    for other in range(1, reader.trailer["/Size"]):
        obj = reader.get_object(other)
        if hasattr(obj, "get") and obj.get("/SMask") is not None and obj.raw_get("/SMask").idnum == number:
            return True
    return False


def colour_near(actual, expected, tolerance=40) -> bool:
    return all(abs(a - e) <= tolerance for a, e in zip(actual, expected))


def stored(tmp_path: Path, name: str, size=None) -> Image.Image:
    """A picture as the PDF stores it, decoded back."""
    result = encoded(str(tmp_path / name), name, size)
    if result.filters == ("DCTDecode",):
        return Image.open(io.BytesIO(result.data)).convert("RGB")
    import zlib

    raw = zlib.decompress(result.data)
    channels = result.predictor_colors
    rows, stride, previous, out = [], result.width * channels, bytearray(result.width * channels), bytearray()
    at = 0
    for _ in range(result.height):   # PNG's row filters undone, as a PDF reader does
        kind, row = raw[at], bytearray(raw[at + 1:at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            left = row[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                row[i] = (row[i] + left) & 255
            elif kind == 2:
                row[i] = (row[i] + up) & 255
            elif kind == 3:
                row[i] = (row[i] + (left + up) // 2) & 255
            elif kind == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                row[i] = (row[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)) & 255
        out += row
        previous = row
    return Image.frombytes("L" if channels == 1 else "RGB", (result.width, result.height), bytes(out)).convert("RGB")


# ------------------------------------------------------------------ read right

def test_a_phones_photo_is_turned_as_its_exif_orientation_says(tmp_path):
    exif = Image.Exif()
    exif[0x0112] = 6   # stored on its side: shown turned a quarter clockwise
    quartered(tmp_path / "phone.jpg", exif=exif.tobytes(), quality=95)
    info = picture_info(str(tmp_path), "phone.jpg")
    assert (info.width, info.height) == (200, 300)
    shown = stored(tmp_path, "phone.jpg")
    assert shown.size == (200, 300)
    # Turned clockwise, the stored top-left (red) is the top-right, blue the top-left.
    assert colour_near(shown.getpixel((190, 10)), (255, 0, 0)) and colour_near(shown.getpixel((10, 10)), (0, 0, 255))


def test_cmyk_greyscale_sixteen_bit_and_palette_pictures_come_out_in_srgb(tmp_path):
    Image.new("CMYK", (40, 40), (0, 255, 255, 0)).save(tmp_path / "cmyk.jpg", quality=95)   # red ink
    assert colour_near(stored(tmp_path, "cmyk.jpg").getpixel((20, 20)), (255, 0, 0))
    Image.new("L", (40, 40), 100).save(tmp_path / "grey.jpg", quality=95)
    grey = encoded(str(tmp_path / "grey.jpg"), "grey.jpg", None)
    assert grey.color_space == "DeviceGray" and grey.data == (tmp_path / "grey.jpg").read_bytes()  # as it is
    deep = Image.new("I;16", (40, 40))
    deep.paste(65535, (0, 0, 20, 40))
    deep.paste(32896, (20, 0, 40, 40))
    deep.save(tmp_path / "deep.png")
    pixels = stored(tmp_path, "deep.png")
    assert pixels.getpixel((5, 5)) == (255, 255, 255) and colour_near(pixels.getpixel((30, 5)), (128, 128, 128), 2)
    palette = Image.new("P", (40, 40), 1)
    palette.putpalette([0, 0, 0, 40, 200, 90] + [0] * 762)
    palette.save(tmp_path / "palette.png")
    assert stored(tmp_path, "palette.png").getpixel((3, 3)) == (40, 200, 90)


def test_transparency_becomes_the_pdfs_soft_mask(tmp_path):
    picture = Image.new("RGBA", (40, 40), (200, 30, 30, 255))
    picture.paste((0, 0, 0, 0), (0, 0, 20, 40))
    picture.save(tmp_path / "cut-out.png")
    result = encoded(str(tmp_path / "cut-out.png"), "cut-out.png", None)
    assert result.mask is not None and result.mask.color_space == "DeviceGray"
    Image.new("RGBA", (40, 40), (200, 30, 30, 255)).save(tmp_path / "opaque.png")
    assert encoded(str(tmp_path / "opaque.png"), "opaque.png", None).mask is None   # nothing see-through


def _s15(value: float) -> bytes:
    return struct.pack(">i", round(value * 65536))


def _xyz(x: float, y: float, z: float) -> bytes:
    return b"XYZ " + b"\0" * 4 + _s15(x) + _s15(y) + _s15(z)


def icc_profile(red, green, blue, name: str) -> bytes:
    """An RGB colour profile (ICC version 2: primaries, white point, gamma 2.2 curves)."""
    text = name.encode() + b"\0"
    curve = b"curv" + b"\0" * 4 + struct.pack(">IH", 1, round(2.2 * 256)) + b"\0\0"
    tags = [(b"desc", b"desc" + b"\0" * 4 + struct.pack(">I", len(text)) + text + b"\0" * 78),
            (b"cprt", b"text" + b"\0" * 4 + b"none\0"), (b"wtpt", _xyz(0.9642, 1.0, 0.8249)),
            (b"rXYZ", _xyz(*red)), (b"gXYZ", _xyz(*green)), (b"bXYZ", _xyz(*blue)),
            (b"rTRC", curve), (b"gTRC", curve), (b"bTRC", curve)]
    start = 128 + 4 + 12 * len(tags)
    table, body = b"", b""
    for signature, data in tags:
        body += b"\0" * (-(start + len(body)) % 4)
        table += signature + struct.pack(">II", start + len(body), len(data))
        body += data
    header = (struct.pack(">I", start + len(body)) + b"\0" * 4 + struct.pack(">I", 0x02100000) + b"mntrRGB XYZ "
              + b"\0" * 12 + b"acsp" + b"\0" * 28 + _s15(0.9642) + _s15(1.0) + _s15(0.8249) + b"\0" * 48)
    return header + struct.pack(">I", len(tags)) + table + body


def test_an_embedded_colour_profile_is_converted_to_srgb(tmp_path):
    # sRGB's primaries with red and blue swapped: the file's pure red is the world's blue.
    red, green, blue = (0.4361, 0.2225, 0.0139), (0.3851, 0.7169, 0.0971), (0.1431, 0.0606, 0.7141)
    profile = icc_profile(blue, green, red, "Swapped primaries")
    Image.new("RGB", (40, 40), (255, 0, 0)).save(tmp_path / "swapped.png", icc_profile=profile)
    Image.new("RGB", (40, 40), (255, 0, 0)).save(tmp_path / "swapped.jpg", icc_profile=profile, quality=95)
    assert colour_near(stored(tmp_path, "swapped.png").getpixel((20, 20)), (0, 0, 255))
    jpeg = encoded(str(tmp_path / "swapped.jpg"), "swapped.jpg", None)
    assert jpeg.data != (tmp_path / "swapped.jpg").read_bytes()   # converted, not passed through
    assert colour_near(stored(tmp_path, "swapped.jpg").getpixel((20, 20)), (0, 0, 255))


# ------------------------------------------------------------------ read safely

@pytest.mark.parametrize("name, content, message", [
    ("../outside.png", None, "'../outside.png': a picture lies in the template's folder or under it"),
    ("/etc/hostname.png", None, "'/etc/hostname.png': a picture lies in the template's folder or under it"),
    ("art.gif", b"GIF89a", "'art.gif': a picture is a .png, .jpg, .jpeg or .webp file"),
    ("missing.png", None, "missing.png: no such picture beside the template"),
    ("text.png", b"not a picture at all", "text.png: not a picture that can be read (PNG, JPEG, WebP)"),
    ("cut.png", "truncated", "cut.png: a damaged picture"),
    ("bomb.png", "bomb", "bomb.png: the picture claims more than 100,000,000 pixels, the limit"),
    ("eps.png", b"%!PS-Adobe-3.0 EPSF-3.0\n%%BoundingBox: 0 0 10 10\n", "eps.png: not a picture that can be read"),
])
def test_a_picture_that_cannot_be_used_is_one_error_line(tmp_path, name, content, message):
    if content == "truncated":
        quartered(tmp_path / "whole.png")
        (tmp_path / name).write_bytes((tmp_path / "whole.png").read_bytes()[:300])
    elif content == "bomb":
        # A PNG whose header claims 20,000 x 20,000 pixels, in a few bytes.
        import zlib

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        (tmp_path / name).write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0))
                                      + chunk(b"IDAT", zlib.compress(b"\0" * 100)) + chunk(b"IEND", b""))
    elif content is not None:
        (tmp_path / name).write_bytes(content)
    result = runner.invoke(app, ["render", "--template", str(kit(tmp_path, image(name))), "--out",
                                 str(tmp_path / "out")])
    assert result.exit_code == 1
    lines = result.output.strip().splitlines()
    assert all(line.startswith("Error: pictures.toml: components.cards.front[0].file (pictures cards/card front, ")
               for line in lines), lines
    assert message in lines[0]
    assert not (tmp_path / "out").exists()   # nothing written


def test_a_link_leading_out_of_the_folder_is_refused(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    quartered(outside / "art.png")
    game = tmp_path / "game"
    game.mkdir()
    os.symlink(outside, game / "art")
    with pytest.raises(TemplateError, match="'art/art.png': a picture lies in the template's folder or under it; "
                                            "this one leads out of it"):
        render_to_memory(load_game(kit(game, image("art/art.png", x=5, y=5, w=20, h=20))), PrintOptions())


def test_the_kits_pictures_have_a_work_budget(tmp_path, monkeypatch):
    import pnp.core.limits as limits

    monkeypatch.setattr(limits, "MAX_PICTURE_WORK", 100_000)
    quartered(tmp_path / "a.png", (300, 200))
    quartered(tmp_path / "b.png", (300, 200))
    front = image("{_art}")
    pieces = '[{ id = "a", count = 1, _art = "a.png" }, { id = "b", count = 1, _art = "b.png" }]'
    game = load_game(kit(tmp_path, front, pieces=pieces, extra='fields = { _art = "str" }'))
    with pytest.raises(limits.BudgetError, match="b.png: the kit's 2 different pictures hold at least 120,000 "
                                                 "pixels; the limit is 100,000 in one kit"):
        render_to_memory(game, PrintOptions())


def test_a_large_deck_of_different_cards_with_a_picture_stores_and_lists_it_as_a_small_one(tmp_path, monkeypatch):
    """In a deck of many cards of their own, those with a picture are still resolved before any page
    is drawn (the others as their pages are drawn): each picture's stored size and every place it is
    printed are known first."""
    from pnp.layout import plan as plan_module

    quartered(tmp_path / "art.png", (600, 400))
    front = image("art.png", x=5, y=5, w="{_w}", h=20) + \
        '[[components.front]]\ntype = "rect"\nx = 2\ny = 40\nw = "{_w}"\nh = 5\nfill = "ink"\n'
    pieces = "[" + ", ".join(f'{{ id = "c{i}", count = 1, _w = {10 + i} }}' for i in range(40)) + "]"
    game = load_game(kit(tmp_path, front, pieces=pieces, extra='fields = { _w = "num" }'))
    pdf, manifest = render_to_memory(game, PrintOptions())
    assert len(manifest["pictures"][0]["placed"]) == 40
    monkeypatch.setattr(plan_module, "LATER_FROM", 30)
    assert render_to_memory(game, PrintOptions()) == (pdf, manifest)


def test_what_a_render_reads_includes_its_pictures_for_pnp_watch(tmp_path):
    quartered(tmp_path / "art.png")
    game = load_game(kit(tmp_path, image("art.png", x=5, y=5, w=20, h=20)))
    with recording() as read:
        render_to_memory(game, PrintOptions())
    assert str(tmp_path / "art.png") in {path for path, _ in read}


# ------------------------------------------------------------------ fitted, turned, bled

def _picture(tmp_path, front: str, size="60x40"):
    game = load_game(kit(tmp_path, front, size=size))
    face = resolve_piece_face(game, PrintOptions(), MEASURER, component_id="cards", piece_id="card")
    return [p for layer in face.layers for p in layer][0]


def test_cover_contain_stretch_anchor_and_focus_place_the_picture_exactly(tmp_path):
    quartered(tmp_path / "art.png", (300, 200))   # 3:2, in a 20 x 20 mm box
    box = dict(x=10, y=5, w=20, h=20)
    placed = {fit: _picture(tmp_path, image("art.png", fit=fit, **box)) for fit in ("cover", "contain", "stretch")}
    assert [(round(p.ix, 2), round(p.iy, 2), round(p.iw, 2), round(p.ih, 2)) for p in placed.values()] == [
        (5.0, 5.0, 30.0, 20.0), (10.0, 8.33, 20.0, 13.33), (10.0, 5.0, 20.0, 20.0)]
    assert [round(p.dpi) for p in placed.values()] == [254, 381, 254]   # 300 px over 30, 20 and 20 mm (stretch: the least)
    left = _picture(tmp_path, image("art.png", anchor="left", **box))
    assert (left.ix, left.iy) == (10.0, 5.0)
    # The focus as near the box's middle as the picture allows: [0.25, 0.5] is 7.5 mm from the
    # picture's left, put at the box's middle (20 mm) would leave a gap; it stops at the edge.
    focused = _picture(tmp_path, image("art.png", focus=[0.4, 0.5], **box))
    assert round(focused.ix, 2) == round(20 - 0.4 * 30, 2) == 8.0
    turned = _picture(tmp_path, image("art.png", rotate=90, **box))
    assert (round(turned.iw, 2), round(turned.ih, 2)) == (20.0, 30.0)   # 200 x 300 once turned


def test_bleed_true_grows_each_side_on_the_trim_and_extend_or_mirror_spread_from_the_edge(tmp_path):
    quartered(tmp_path / "art.png", (600, 400))
    top = dict(x=0, y=0, w="w", h=20)   # the top 20 mm of a 60 x 40 mm card
    grown = _picture(tmp_path, image("art.png", bleed=True, **top))
    assert (grown.x, grown.y, grown.w, grown.h, grown.spread) == (-3.0, -3.0, 66.0, 23.0, (0.0, 0.0, 0.0, 0.0))
    spread = _picture(tmp_path, image("art.png", bleed="mirror", **top))
    assert (spread.x, spread.y, spread.w, spread.h, spread.spread) == (0.0, 0.0, 60.0, 20.0, (3.0, 3.0, 3.0, 0.0))
    with pytest.raises(TemplateError, match="reaches no edge of the 60 x 40 mm piece"):
        _picture(tmp_path, image("art.png", bleed="extend", x=5, y=5, w=10, h=10))


def export_front(tmp_path: Path, front: str, size: str, **options) -> Image.Image:
    """The front of the kit's one card as pnp export draws it (300 dpi, 3 mm of bleed)."""
    template = kit(tmp_path, front, size=size, pieces='[{ id = "card", count = 1 }]', **options)
    result = runner.invoke(app, ["export", "--template", str(template), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    return Image.open(tmp_path / "out" / "pictures_en_png" / "cards" / "card-01-front.png")


def test_extend_draws_the_edge_out_and_mirror_mirrors_the_picture_into_the_bleed(tmp_path):
    # 300 x 300 px: a red left half and a blue right half, its leftmost 10 px green.
    picture = Image.new("RGB", (300, 300), (0, 0, 255))
    picture.paste((255, 0, 0), (0, 0, 150, 300))
    picture.paste((0, 255, 0), (0, 0, 10, 300))
    picture.save(tmp_path / "edge.png")
    mm = 300 / 25.4   # pixels per mm in the export
    extended = export_front(tmp_path, image("edge.png", bleed="extend"), "20x20")
    row = int(13 * mm)
    assert colour_near(extended.getpixel((int(0.5 * mm), row)), (0, 255, 0))     # in the bleed: the edge drawn out
    assert colour_near(extended.getpixel((int(2.5 * mm), row)), (0, 255, 0))
    mirrored = export_front(tmp_path, image("edge.png", bleed="mirror"), "20x20")
    # 10 px of green are 0.67 mm of the 20 mm card: mirrored, 0.67 mm of green then red beyond.
    assert colour_near(mirrored.getpixel((int(2.7 * mm), row)), (0, 255, 0))
    assert colour_near(mirrored.getpixel((int(0.8 * mm), row)), (255, 0, 0))
    plain = export_front(tmp_path, image("edge.png"), "20x20")
    assert plain.getpixel((int(0.5 * mm), row))[:3] == (255, 255, 255)   # no bleed: the paper


def test_a_picture_is_clipped_to_a_round_piece(tmp_path):
    quartered(tmp_path / "art.png", (400, 400))
    token = export_front(tmp_path, image("art.png", bleed=True), "20x20", extra='shape = "circle"')
    assert token.mode == "RGBA"
    assert token.getpixel((2, 2))[3] == 0                               # outside the circle and its bleed
    middle = token.size[0] // 2
    assert colour_near(token.getpixel((middle - 40, middle - 40))[:3], (255, 0, 0))


# ------------------------------------------------------------------ resolution and storage

def test_a_picture_under_300_dpi_is_a_warning_and_under_150_an_error_unless_min_dpi_allows_it(tmp_path):
    quartered(tmp_path / "small.png", (300, 420))   # on a poker card with its bleed: about 110 dpi
    template = kit(tmp_path, image("small.png", bleed=True))
    result = runner.invoke(app, ["render", "--template", str(template), "--out", str(tmp_path / "out")])
    assert result.exit_code == 1
    assert result.output.splitlines()[0] == (
        "Error: pictures.toml: components.cards.front[0].file (pictures cards/card front, en): small.png prints at "
        "110 dpi (300 x 420 px over 69.5 x 97.3 mm); below 150 dpi a picture prints soft and blocky: use a larger "
        "file, a smaller box, or allow it with min_dpi")
    template = kit(tmp_path, image("small.png", bleed=True, min_dpi=100))
    result = runner.invoke(app, ["render", "--template", str(template), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "Warning: cards/card front: small.png prints at 110 dpi (300 x 420 px over 69.5 x 97.3 mm); under 300 dpi "
        "it may print soft")
    manifest = json.loads((tmp_path / "out" / "pictures_en_a4.manifest.json").read_text())
    assert manifest["pictures"] == [{"file": "small.png", "pixels": [300, 420], "stored": [300, 420],
                                     "placed": [{"piece": "cards/card", "face": "front", "dpi": 109.6}]}]
    report = runner.invoke(app, ["preflight", str(template)])
    assert ("warning: cards/card front, components.cards.front[0] (image 'small.png'): 110 dpi printed 69.5 x 97.3 "
            "mm: under 300 dpi at its printed size: it may print soft (a larger file, or a smaller box)") in report.output
    export = runner.invoke(app, ["export", "--template", str(template), "--out", str(tmp_path / "out")])
    assert export.exit_code == 0
    warning = export.output.splitlines()[0]   # the export's bleed is its own, to the pixel
    assert warning.startswith("Warning: cards/card front: small.png prints at 110 dpi (300 x 420 px over 69.")
    assert warning.endswith("mm); the 300 dpi images of this export enlarge it")


def test_a_picture_every_piece_shares_is_said_once_with_the_count_of_its_pieces(tmp_path):
    quartered(tmp_path / "back.png", (500, 700))   # 200 dpi over a poker card, on three cards' backs
    template = kit(tmp_path, image("back.png").replace("components.front", "components.back"),
                   pieces='[{ id = "a", count = 2 }, { id = "b", count = 1 }, { id = "c", count = 1 }]',
                   extra='[[components.front]]\ntype = "background"\nfill = "white"')
    result = runner.invoke(app, ["render", "--template", str(template), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert [line for line in result.output.splitlines() if line.startswith("Warning")] == [
        "Warning: cards back, 3 pieces: back.png prints at 200 dpi (500 x 700 px over 63.5 x 88.9 mm); under 300 "
        "dpi it may print soft"]


#: Each raster export: what pnp export is asked, and the image the kit's one card's front is in.
RASTER_EXPORTS = {
    "tgc": (["--service", "tgc"], "pictures_en_png_tgc/cards/card-01-front.png"),
    "mpc": (["--service", "mpc"], "pictures_en_png_mpc/cards/card-01-front.png"),
    "cricut": (["--format", "cricut"], "pictures_en_cricut/cards/cards.png"),
    "tts": (["--format", "tts"], "pictures_en_tts/cards/cards-faces.png"),
}


def striped(path: Path, size: tuple[int, int], stripe: int) -> None:
    """Black and white upright stripes ``stripe`` pixels wide."""
    picture = Image.new("L", size, 255)
    draw = ImageDraw.Draw(picture)
    for x in range(0, size[0], 2 * stripe):
        draw.rectangle([x, 0, x + stripe - 1, size[1] - 1], fill=0)
    picture.save(path)


def sharp_share(picture: Image.Image) -> float:
    """The share of the pixels across the middle of a picture (across its stripes, however the
    export turned it) that are black or white: grey where the stripes were blurred together."""
    grey = picture.convert("L")
    w, h = grey.size
    across = [grey.getpixel((x, h // 2)) for x in range(w // 4, 3 * w // 4)]
    down = [grey.getpixel((w // 2, y)) for y in range(h // 4, 3 * h // 4)]
    return max(sum(1 for v in line if v < 30 or v > 225) / len(line) for line in (across, down))


@pytest.mark.parametrize("export", sorted(RASTER_EXPORTS))
def test_a_raster_export_draws_a_picture_from_its_own_pixels_whatever_the_kits_image_dpi(tmp_path, export):
    # 1500 x 2100 px over a 63.5 x 88.9 mm card: 600 dpi, stripes 8 px wide (0.34 mm). The kit's PDF
    # keeps 100 dpi (image_dpi), where the stripes are a grey blur; each export's 300 dpi images
    # are drawn from the file's own pixels, the stripes 4 px wide and sharp.
    striped(tmp_path / "stripes.png", (1500, 2100), 8)
    template = kit(tmp_path, image("stripes.png"), pieces='[{ id = "card", count = 1 }]', game="image_dpi = 100")
    assert render_to_memory(load_game(template), PrintOptions())[1]["pictures"][0]["stored"] == [250, 350]
    asked, front = RASTER_EXPORTS[export]
    result = runner.invoke(app, ["export", "--template", str(template), "--out", str(tmp_path / "out"), *asked])
    assert result.exit_code == 0, result.output
    assert "Warning" not in result.output
    assert sharp_share(Image.open(tmp_path / "out" / front)) > 0.7


@pytest.mark.parametrize("export", sorted(RASTER_EXPORTS))
def test_a_raster_export_that_enlarges_a_picture_says_so(tmp_path, export):
    quartered(tmp_path / "art.png", (500, 700))   # 200 dpi over a 63.5 x 88.9 mm card
    template = kit(tmp_path, image("art.png"), pieces='[{ id = "card", count = 1 }]', game="image_dpi = 150")
    asked, _ = RASTER_EXPORTS[export]
    result = runner.invoke(app, ["export", "--template", str(template), "--out", str(tmp_path / "out"), *asked])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[0] == (
        "Warning: cards/card front: art.png prints at 200 dpi (500 x 700 px over 63.5 x 88.9 mm); the 300 dpi "
        "images of this export enlarge it")


def test_a_tabletop_simulator_deck_sheet_of_many_cards_needs_fewer_pixels_and_says_nothing(tmp_path):
    # 69 cards on one sheet of at most 4,096 px a side: 10 x 7 cells of 409 x 573 px, 164 dpi. A
    # picture at 200 dpi is made smaller there, not larger (a single card, at 300 dpi, enlarges it).
    quartered(tmp_path / "art.png", (500, 700))
    template = kit(tmp_path, image("art.png"), pieces='[{ id = "card", count = 69 }]')
    result = runner.invoke(app, ["export", "--template", str(template), "--out", str(tmp_path / "out"),
                                 "--format", "tts"])
    assert result.exit_code == 0, result.output
    assert "Warning" not in result.output and "cards 10 x 7 sheet 4090 x 4011 px" in result.output


def test_a_background_on_every_card_is_stored_once_and_different_pictures_once_each(tmp_path):
    quartered(tmp_path / "background.jpg", (800, 1100), quality=90)
    for name in ("a", "b", "c"):
        quartered(tmp_path / f"{name}.png", (200, 200))
    front = image("background.jpg") + image("{_art}", x=10, y=10, w=20, h=20)
    pieces = ", ".join(f'{{ id = "{n}", count = 4, _art = "{n}.png" }}' for n in "abc")
    game = load_game(kit(tmp_path, front, pieces=f"[{pieces}]", extra='fields = { _art = "str" }'))
    data, manifest = render_to_memory(game, PrintOptions())
    images = pdf_images(data)
    assert len(images) == 4   # one background for 12 cards, three pictures
    assert sorted(p["file"] for p in manifest["pictures"]) == ["a.png", "b.png", "background.jpg", "c.png"]
    # The background, 800 px over a 63.5 mm card (320 dpi), goes in as its file is.
    jpeg = next(i for i in images if i["/Filter"] == ["/DCTDecode"])
    assert jpeg.get_data() == (tmp_path / "background.jpg").read_bytes()


def test_a_picture_far_larger_than_it_prints_is_stored_at_image_dpi(tmp_path):
    quartered(tmp_path / "huge.png", (2400, 2400))   # 20 x 20 mm: 3,048 dpi
    game = load_game(kit(tmp_path, image("huge.png", x=5, y=5, w=20, h=20)))
    data, manifest = render_to_memory(game, PrintOptions())
    assert manifest["pictures"][0]["stored"] == [236, 236]   # 20 mm at 300 dpi
    assert [(i["/Width"], i["/Height"]) for i in pdf_images(data)] == [(236, 236)]
    game = load_game(kit(tmp_path, image("huge.png", x=5, y=5, w=20, h=20), game="image_dpi = 600"))
    assert render_to_memory(game, PrintOptions())[1]["pictures"][0]["stored"] == [472, 472]


def test_the_ink_saver_outlines_where_a_picture_goes(tmp_path):
    quartered(tmp_path / "art.png", (600, 600))
    game = load_game(kit(tmp_path, image("art.png", x=5, y=5, w=20, h=20)))
    face = resolve_piece_face(game, PrintOptions(ink_saver=True), MEASURER, component_id="cards",
                              piece_id="card")
    assert describe(face.primitives) == ["Rect x=5.15 y=5.15 w=19.7 h=19.7 stroke='#000000' width=0.3"]


def test_a_png_that_needs_no_change_goes_in_as_its_own_compressed_rows(tmp_path):
    quartered(tmp_path / "plain.png", (120, 80))
    result = encoded(str(tmp_path / "plain.png"), "plain.png", None)
    data = (tmp_path / "plain.png").read_bytes()
    at, rows = 8, b""
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        rows += data[at + 8:at + 8 + length] if kind == b"IDAT" else b""
        at += 12 + length
    assert result.data == rows and result.predictor_colors == 3
    assert stored(tmp_path, "plain.png").getpixel((100, 70)) == (255, 255, 255)
