"""Numbers as each language writes them (issue 33): a French decimal has a comma, and in both
languages a number never leaves its unit at a line's end ("12 / mm", "220–300 / g/m²"): the space
between them is a no-break one, which the line breaker never breaks.

Read over every string of every catalog the project ships (the games', the common one, the example
and the test fixtures' designer games), then over every page of the French kits as printed, where
numbers filled in by the code (a bleed, a back offset, a mark's inset) come in too."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from helpers import rendered
from pnp.core import games
from pnp.core.i18n import load_catalog

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = sorted(p for folder in ("templates", "examples", "tests/fixtures", "bench")
                  for p in (ROOT / folder).rglob("*.toml") if re.search(r"\.(en|fr)\.toml$", p.name))
#: The units a number is measured in, as the kits and messages print them.
UNITS = r"(?:mm|cm|pt|g/m²|%|lb|MiB|minutes|dpi)"
#: A number, a placeholder standing for one, or X / Y of the alignment sheet's readings, then a
#: plain space and a unit.
SPLIT = re.compile(r"(?:\d|\}|\b[XY]) " + UNITS + r"(?![\w²])")
#: A number at a line's end, its unit on the next (as PDFium reads a page: "\r\n" ends a line).
BROKEN = re.compile(r"(?:\d|\b[XY]) *\r\n *" + UNITS + r"(?![\w²])")
#: A decimal point between digits; command lines (--back-offset 1,-0.5, --host 0.0.0.0), pnp's
#: version and a licence's name (CC BY-NC 4.0) are typed or read as they are.
POINT = re.compile(r"\d\.\d")
TYPED = re.compile(r"--[a-z-]+[ =]\S+|\b\d+(?:\.\d+){2,}\b|https?://\S+|\bCC [A-Z-]+ \d+\.\d+")


def _strings(node, where: str = ""):
    if isinstance(node, str):
        yield where, node
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from _strings(value, f"{where}.{key}" if where else key)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _strings(value, f"{where}[{index}]")


def test_the_catalogs_are_found():
    names = {p.name for p in CATALOGS}
    assert {"common.fr.toml", "common.en.toml", "hunting-fever.fr.toml", "halali.en.toml"} <= names
    assert len(CATALOGS) >= 14


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_a_number_keeps_its_unit_on_its_line(path):
    lang = "fr" if path.name.endswith(".fr.toml") else "en"
    split = [f"{key}: {m.group(0)!r}" for key, text in _strings(load_catalog(path, lang).texts)
             for m in SPLIT.finditer(text)]
    assert not split, "a plain space between a number and its unit (use \\u00a0):\n" + "\n".join(split)


@pytest.mark.parametrize("path", [p for p in CATALOGS if p.name.endswith(".fr.toml")],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_french_string_writes_its_decimals_with_a_comma(path):
    points = [f"{key}: {text!r}" for key, text in _strings(load_catalog(path, "fr").texts)
              if POINT.search(TYPED.sub("", text))]
    assert not points, "\n".join(points)


def test_the_rules_catch_what_they_are_for():
    assert SPLIT.search("12 mm") and SPLIT.search("{bleed} mm") and SPLIT.search("220–300 g/m²")
    assert SPLIT.search("de X mm vers la droite") and SPLIT.search("100 %")
    assert not SPLIT.search("12\u00a0mm") and not SPLIT.search("12 mmol") and not SPLIT.search("a mm")
    assert POINT.search(TYPED.sub("", "une marge de 2.5\u00a0mm"))
    assert not POINT.search(TYPED.sub("", "--back-offset 1,-0.5 ; pnp 0.1.0 ; --host 0.0.0.0 ; CC BY-NC 4.0"))


@pytest.mark.parametrize("paper", ("a4", "letter"))
@pytest.mark.parametrize("game_id", tuple(games.SHIPPED))
def test_french_kits_print_numbers_the_french_way(game_id, paper):
    """As printed, with numbers the code fills in: a bleed, a back offset and a cutter's marks."""
    import pypdfium2

    for options in ({}, {"bleed": 2.5, "back_offset": (0.5, -1.5)}, {"cutter": "silhouette", "mark_inset": 12.5}):
        data, _ = rendered(game_id, "fr", paper, **options)
        document = pypdfium2.PdfDocument(data)
        for number in range(len(document)):
            text_page = document[number].get_textpage()
            lines = text_page.get_text_range()
            text_page.close()
            text = lines.replace("\r\n", " ")
            assert not POINT.search(TYPED.sub("", text)), (options, number + 1, text)
            # PDFium reads a no-break space as a space: look for the line break itself.
            broken = BROKEN.search(lines)
            assert not broken, (options, number + 1, broken and broken.group(0))
        document.close()
