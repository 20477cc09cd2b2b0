"""What the drawing relies on in reportlab beyond its documented API, checked against the installed release.

Everything of it is in pnp/render/reportlab_internals.py; pyproject.toml pins
reportlab to the releases it is tested with. A reportlab release that changes
any of it fails here, naming what changed, before a kit is drawn wrong.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import reportlab
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from pnp.render import reportlab_internals as rl
from pnp.render.fonts import font

ROOT = Path(__file__).resolve().parent.parent


def canvas(**options) -> Canvas:
    return Canvas(None, pagesize=(200, 200), invariant=1, **options)


def version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def test_reportlab_is_a_release_of_the_pinned_range():
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    [pin] = [d for d in dependencies if re.match(r"reportlab\b", d)]
    low, high = re.fullmatch(r"reportlab>=([\d.]+),<([\d.]+)", pin).groups()
    assert version(low) <= version(reportlab.Version) < version(high), (
        f"reportlab {reportlab.Version} is outside {pin}: check pnp/render/reportlab_internals.py against it")


def test_page_ops_is_the_list_the_page_is_written_from():
    c = canvas(pageCompression=0)
    ops = rl.page_ops(c)
    assert isinstance(ops, list)
    c.rect(0, 0, 10, 10, stroke=1, fill=0)
    assert ops[-1] == "n 0 0 10 10 re S", "reportlab's canvas no longer appends its operators to _code"
    ops.append("0.5 0.5 0.5 rg")
    c.showPage()
    assert rl.page_ops(c) is not ops and rl.page_ops(c) == [], "a new page no longer starts a new _code"
    c.beginForm("F0")
    assert rl.page_ops(c) == [], "a form no longer draws into a _code of its own"
    c.endForm()
    assert b"0 0 10 10 re S\n0.5 0.5 0.5 rg" in c.getpdfdata(), "operators added to _code are not written"


def test_text_written_directly_is_what_draw_string_writes():
    from pnp.render.draw import Pen

    text = "Été – “Chasse” (x) \\ Œuf ½ K.-O."
    drawn, direct = canvas(pageCompression=0), canvas(pageCompression=0)
    assert rl.writes_text_as_drawn(direct) and not rl.writes_text_as_drawn(canvas(bottomup=0))
    drawn.setFont(font("bold"), 12)
    drawn.drawString(10, 20, text)
    ops = Pen(direct).text_ops("bold", 12, text)
    assert rl.page_ops(drawn)[-1] == f"BT 1 0 0 1 10 20 Tm {ops} T* ET"
    face = pdfmetrics.getFont(font("bold"))
    chunks = rl.font_chunks(face, text, direct)
    assert chunks and all(isinstance(subset, int) and isinstance(chunk, bytes) for subset, chunk in chunks)
    assert rl.subset_name(face, chunks[0][0], direct).startswith("/F")
    assert {ord(char) for char in text} <= set(rl.font_characters(face))
    codes = rl.glyph_codes(face, direct)
    assert bytes(codes[ord(char)] for char in "Chasse") == next(chunk for _, chunk in rl.font_chunks(face, "Chasse", direct)), \
        "the codes the font gave its characters are no longer kept where glyph_codes reads them"


def test_the_state_record_is_saved_and_put_back():
    c = canvas()
    c.setLineWidth(1)
    depth = rl.save_state_record(c)
    assert len(c.state_stack) == depth + 1
    c.setLineWidth(5)
    c.saveState()   # a drawing that saves a state a later drawing restores
    c.setFont(font("black"), 30)
    rl.restore_state_record(c, depth)
    assert len(c.state_stack) == depth
    assert c._lineWidth == 1 and c._fontsize != 30


def test_an_escaped_string_is_what_a_text_operator_takes():
    assert rl.escaper(canvas())("a(b)\\c") == "a\\(b\\)\\\\c"
    assert rl.fp_str(1.5) == "1.5" and rl.fp_str(0.25, 2) == ".25 2"


@pytest.mark.parametrize("pages", [1, 3])
def test_a_page_compressed_early_is_the_page_reportlab_writes(pages):
    def pdf(early: bool) -> bytes:
        c = canvas(pageCompression=1)
        for number in range(pages):
            c.setFont(font("regular"), 10)
            c.drawString(10, 10 + number, f"page {number} é")
            c.rect(5, 5, 50 + number, 50)
            c.showPage()
            if early:
                rl.compress_last_page(c)
                page = c._doc.Pages.pages[-1]
                assert page.stream is None and page.Contents is not None, "the page was not compressed early"
        return c.getpdfdata()

    assert pdf(True) == pdf(False)


def test_a_page_stream_compressed_early_is_let_go_once_written():
    c = canvas(pageCompression=1)
    c.rect(5, 5, 50, 50)
    c.showPage()
    rl.compress_last_page(c)
    stream = c._doc.Pages.pages[-1].Contents
    assert stream.content, "the page's stream holds its compressed drawing until the PDF is made"
    c.getpdfdata()
    assert stream.content is None, "the PDF is made, and the page's stream is still held beside it"


def test_a_form_placed_by_its_operators_is_registered_as_do_form_registers_it():
    def pdf(direct: bool) -> bytes:
        c = canvas(pageCompression=0)
        c.beginForm("I0")
        c.rect(0, 0, 10, 10, fill=1)
        c.endForm()
        for _ in range(2):
            if direct:
                rl.page_ops(c).append(f"q\n1 0 0 1 5 5 cm\n/{c._doc.getXObjectName('I0')} Do\nQ")
                rl.use_form(c, "I0")
            else:
                c.saveState()
                c.translate(5, 5)
                c.doForm("I0")
                c.restoreState()
            c.showPage()
        return c.getpdfdata()

    assert pdf(True) == pdf(False)


def test_reportlab_internals_are_named_in_one_module_only():
    private = re.compile(r"\._code\b|\._doc\b|\._escape\b|state_stack|charToGlyph|splitString|getSubsetInternalName"
                         r"|rl_accel|rtlSupport|pdfdoc|rl_config")
    found = [f"{path.relative_to(ROOT)}:{number}"
             for path in sorted((ROOT / "pnp").rglob("*.py")) if path.name != "reportlab_internals.py"
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if private.search(line)]
    assert found == []


def test_an_image_object_is_stored_once_and_named_on_each_page_and_form_that_shows_it():
    from pnp.render.pictures import Encoded

    c = canvas(pageCompression=0)
    mask = Encoded(1, 1, "DeviceGray", ("FlateDecode",), data=__import__("zlib").compress(b"\0\x80"),
                   predictor_colors=1)
    name = rl.image_object(c, "P0", Encoded(1, 1, "DeviceRGB", ("FlateDecode",),
                                            data=__import__("zlib").compress(b"\0\xff\0\0"), predictor_colors=3,
                                            mask=mask))
    shown = rl.use_xobject(c, name)
    rl.page_ops(c).append(f"q 10 0 0 10 0 0 cm /{shown} Do Q")
    c.showPage()
    c.beginForm("F0")
    rl.page_ops(c).append(f"/{rl.use_xobject(c, name)} Do")
    c.endForm()
    c.doForm("F0")
    c.showPage()
    data = c.getpdfdata()
    assert data.count(b"/Subtype /Image") == 2, "an image object (and its mask) is no longer stored once"
    assert data.count(f"/{shown} ".encode()) >= 3, "the page's and the form's resources no longer name the image"
    assert b"/SMask" in data
    assert b"/DecodeParms [ <<\n/BitsPerComponent 8 /Colors 3 /Columns 1 /Predictor 15\n>> ]" in data
