"""Limits: every number finite and bounded, refused where it enters with the file, key, value and limit.

A value past a limit once hung the command, filled the memory or drew garbage
(NaN coordinates, a vanished board). Each case here is refused before any
drawing; those that used to hang run in a child process with a time and
memory limit, so that they cannot hang the suite if a limit goes missing.
"""

from __future__ import annotations

import contextlib
import json
import math
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pnp.core.errors import PnpError
from pnp.layout.text import MIN_SIZE
from pnp.core.limits import MAX_LENGTH_MM, MAX_NUMBER, MAX_PIECE_MM, MAX_REPEAT, MAX_TEXT_SIZE_PT, MIN_PIECE_MM
from pnp.template.model import PrintOptions

LIMIT_S = 60  # a guard against a hung child, never a measurement
CATALOGS = {
    "en": '[game]\nname = "Limits"\ncredits = "Tests."\n\n[component.cards]\nname = "Cards"\ncut = "Cut."\n',
    "fr": '[game]\nname = "Limites"\ncredits = "Tests."\n\n[component.cards]\nname = "Cartes"\ncut = "Découpez."\n',
}


def toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    raise TypeError(value)


def element(kind: str, **keys) -> str:
    return "\n".join(["[[components.front]]", f'type = "{kind}"',
                      *(f"{key} = {toml_value(value)}" for key, value in keys.items())]) + "\n"


def text(**keys) -> str:
    return element("text", **({"x": 4, "y": 4, "w": "w - 8", "h": 12, "text": "Limits", "size": 10} | keys))


def rect(**keys) -> str:
    return element("rect", **({"x": 2, "y": 2, "w": 10, "h": 10, "fill": "black"} | keys))


def write_kit(folder: Path, front: str = "", size: object = "poker", count: object = 2, component: str = "",
              params: str = "side = 30", game: str = "") -> Path:
    """A small valid kit, ``t.toml`` and its catalogs, with one thing changed."""
    template = folder / "t.toml"
    template.write_text(
        f'[game]\nid = "limits"\nplayers = [1, 4]\nrules_url = "https://example.org/limits"\n{game}\n\n'
        f"[params]\n{params}\n\n[[components]]\nid = \"cards\"\nsize = {toml_value(size)}\n{component}\n\n"
        + (front or rect()) + f'\n[[components.pieces]]\nid = "card"\ncount = {toml_value(count)}\n',
        encoding="utf-8")
    for lang, catalog in CATALOGS.items():
        (folder / f"t.{lang}.toml").write_text(catalog, encoding="utf-8")
    return template


def lay_out(template: Path, overrides: dict | None = None, **options):
    """Load the kit and resolve every face (everything but drawing the PDF)."""
    from pnp.layout.plan import plan_kit
    from pnp.layout.options import checked
    from pnp.render.fonts import MEASURER
    from pnp.template.loader import load_game
    from pnp.core.units import paper_size

    game = load_game(template, overrides=overrides)
    chosen = checked(PrintOptions(**options))
    return plan_kit(game, chosen, paper_size(chosen.paper), measure=MEASURER)


@contextlib.contextmanager
def deadline(seconds: float = LIMIT_S):
    """Stop a test that runs away instead of letting it hang the suite."""
    def stop(signum, frame):
        raise TimeoutError(f"still running after {seconds} s: a limit is missing")

    previous = signal.signal(signal.SIGALRM, stop)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def refusal(template: Path, overrides: dict | None = None) -> str:
    with deadline(), pytest.raises(PnpError) as refused:
        lay_out(template, overrides)
    return str(refused.value)


def accepted(template: Path, overrides: dict | None = None) -> None:
    with deadline():
        lay_out(template, overrides)


def _memory_limit() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (1536 * 1024 ** 2, 1536 * 1024 ** 2))


def pnp(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m pnp ARGS`` in a child process that cannot outlive the guard or fill the memory."""
    return subprocess.run([sys.executable, "-m", "pnp", *map(str, args)], cwd=cwd, capture_output=True,
                          text=True, timeout=LIMIT_S, preexec_fn=_memory_limit)


def one_error_line(done: subprocess.CompletedProcess) -> str:
    """The refusal's first line; every line an Error: line (a template's problems are one a line:
    a count past its limit is named with the kit's total too)."""
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert done.returncode == 1 and lines and all(line.startswith("Error: ") for line in lines), done.stderr
    return lines[0] if len(lines) == 1 else " ".join(lines)


INF = "*".join(["1e6"] * 52)  # 1e312: past what a float holds, made of allowed numbers
NAN = f"({INF}) - ({INF})"

# (case, what to write, words the one-line refusal must hold: the key, the value, the limit).
# Without its limit, a case in CHILD hangs or takes gigabytes: it runs in a child process.
REFUSED = [
    ("text size from an expression that overflows", dict(front=text(size=INF)), ["front[0].size", "inf", "finite"]),
    ("text size inf", dict(front=text(size=math.inf)), ["front[0].size", "inf", "finite"]),
    ("text size nan", dict(front=text(size=math.nan)), ["front[0].size", "nan"]),
    ("text size 10^6 pt", dict(front=text(size=1e6)), ["front[0].size", "1e+06", "500"]),
    ("text min_size nan", dict(front=text(min_size=math.nan)), ["front[0].min_size", "nan"]),
    ("text min_size 1000", dict(front=text(min_size=1000)), ["front[0].min_size", "1000", "500"]),
    ("text size 3 pt", dict(front=text(size=3)), ["front[0].size", "3 pt", "6 to 500"]),
    ("text leading 1e308", dict(front=text(leading=1e308)), ["front[0].leading", "1e+308", "5"]),
    ("a format two billion wide", dict(front=text(text="{copy:>2000000000}")), ["front[0].text", "2000000000", "100"]),
    ("a text of 2 million characters", dict(front=text(text="word " * 400_000, wrap=True)),
     ["front[0].text", "2000000", "10000"]),
    ("an expression of 100,000 terms", dict(front=rect(x="1+" * 100_000 + "1")), ["front[0].x", "200001", "500"]),
    ("a constant of 400 digits", dict(front=rect(x="1" + "0" * 400 + "*2")), ["front[0].x", "401 digits", "1000000"]),
    ("a constant of 10^308", dict(front=rect(x="1e308 * 10")), ["front[0].x", "1e+308", "1000000"]),
    ("x NaN from an expression", dict(front=rect(x=NAN)), ["front[0].x", "nan"]),
    ("x nan", dict(front=rect(x=math.nan)), ["front[0].x", "nan"]),
    ("x 1e308", dict(front=rect(x=1e308)), ["front[0].x", "1e+308"]),
    ("w inf", dict(front=rect(w=math.inf)), ["front[0].w", "inf"]),
    ("x 20 m", dict(front=rect(x=20_000)), ["front[0].x", "20000", "10000"]),
    ("stroke_width NaN", dict(front=rect(stroke="black", stroke_width=NAN)), ["front[0].stroke_width", "nan"]),
    ("stroke_width 1e308", dict(front=rect(stroke="black", stroke_width=1e308)), ["front[0].stroke_width", "1e+308"]),
    ("stroke_width below zero", dict(front=rect(stroke="black", stroke_width=-1)), ["front[0].stroke_width", "-1"]),
    ("radius -inf", dict(front=rect(radius=-math.inf)), ["front[0].radius", "-inf"]),
    ("dash of zeros", dict(front=rect(stroke="black", dash=[0, 0])), ["front[0].dash", "0"]),
    ("dash nan", dict(front=rect(stroke="black", dash=[math.nan, 1])), ["front[0].dash", "nan"]),
    ("step NaN", dict(front=rect(repeat=3, step=[NAN, 0])), ["front[0].step", "nan"]),
    ("repeat 10^8", dict(front=rect(repeat=100_000_000, step=[0, 0])), ["front[0].repeat", "100000000", "1000"]),
    ("repeat 10^5 x 10^5", dict(front=rect(repeat=[100_000, 100_000], step=[0, 0])),
     ["front[0].repeat[0]", "100000", "1000"]),
    ("repeat 40 x 40", dict(front=rect(repeat=[40, 40], step=[0, 0])), ["front[0].repeat", "1600", "1000"]),
    ("repeat inf", dict(front=rect(repeat=INF, step=[0, 0])), ["front[0].repeat", "inf"]),
    ("repeat nan", dict(front=rect(repeat=math.nan, step=[0, 0])), ["front[0].repeat", "nan"]),
    ("repeat -3", dict(front=rect(repeat=-3, step=[0, 0])), ["front[0].repeat", "-3"]),
    ("repeat 2.5", dict(front=rect(repeat=2.5, step=[0, 0])), ["front[0].repeat", "2.5"]),
    ("count 10^12", dict(count=10 ** 12), ["count", "1000000000000", "20000"]),
    ("count 10^6", dict(count=10 ** 6), ["count", "1000000", "20000"]),
    ("count 20,001", dict(count=20_001), ["20001", "20000"]),
    ("size 100 m", dict(size="100000x100000"), ["components.cards.size", "100000", "2000"]),
    ("size from an expression that overflows", dict(size=[INF, "5"]), ["components.cards.size", "inf"]),
    ("size nan from a param", dict(size=["side", "side"], params="side = nan"), ["params.side", "nan"]),
    ("size inf from a param", dict(size=["side", "side"], params="side = inf"), ["params.side", "inf"]),
    ("a param of 10^300", dict(params="side = 1e300"), ["params.side", "1e+300", "1000000"]),
    ("overlap 500", dict(size="300x300", component="overlap = 500"), ["components.cards.overlap", "500", "50"]),
    ("overlap as wide as the sheet", dict(size="300x300", component="overlap = 194"), ["overlap", "194", "50"]),
    ("overlap just under the piece", dict(size="300x300", component="overlap = 299.99"), ["overlap", "299.99"]),
    ("table cols [0, 0]", dict(front=element("table", x=2, y=2, w=50, rows=[["a", "b"]], cols=[0, 0], row_h=6,
                                             size=8)), ["front[0].cols", "0"]),
    ("a table of 100,000 rows", dict(front=element("table", x=2, y=2, w=50, rows=[["a"]] * 100_000, cols=[1],
                                                   row_h=6, size=8)), ["front[0].rows", "100000", "1000"]),
    ("a polygon of 20,000 corners", dict(front=element("polygon", points=[[1, 1], [2, 2]] * 10_000,
                                                       fill="black")), ["front[0].points", "20000", "10000"]),
    ("a template of 6 MB", dict(front=text(text="word " * 1_000, wrap=True) * 1_300), ["5 MiB"]),
    ("a QR code of 3,000 characters", dict(front=element("qr", x=5, y=5, size=30, data="x" * 3000)),
     ["front[0].data", "3000", "1000"]),
    ("a rules_url of 3,000 characters", dict(game='rules_url = "https://x.org/' + "a" * 2986 + '"'),
     ["rules_url", "3000", "1000"]),
]


CHILD = {'text size from an expression that overflows', 'text size inf', 'text size 10^6 pt', 'a format two billion wide', 'a text of 2 million characters', 'repeat 10^8', 'repeat 10^5 x 10^5', 'count 10^12', 'count 10^6', 'count 20,001', 'size 100 m', 'overlap just under the piece', 'a table of 100,000 rows', 'a polygon of a million corners'}


@pytest.mark.parametrize("case, spoilt, words", REFUSED, ids=[case for case, _, _ in REFUSED])
def test_a_value_past_a_limit_is_refused_naming_file_key_value_and_limit(tmp_path, case, spoilt, words):
    if "rules_url" in spoilt.get("game", ""):
        spoilt = dict(spoilt)
        game = spoilt.pop("game")
        template = write_kit(tmp_path, **spoilt)
        template.write_text(template.read_text().replace('rules_url = "https://example.org/limits"', game))
    else:
        template = write_kit(tmp_path, **spoilt)
    if case in CHILD:
        # The command line, in a child: one Error line, and no output folder made.
        message = one_error_line(pnp("render", "--template", "t.toml", "--out", "out", cwd=tmp_path))
        assert not (tmp_path / "out").exists()
    else:
        message = refusal(template)
    assert "t.toml" in message
    for word in words:
        assert word in message, (word, message)


def test_a_number_field_past_the_limit_is_refused(tmp_path):
    template = write_kit(tmp_path, component='fields = { value = "num" }')
    template.write_text(template.read_text().replace('count = 2\n', 'count = 2\nvalue = 1e300\n'))
    message = refusal(template)
    assert "pieces[0].value" in message and "1e+300" in message and "1000000" in message


@pytest.mark.parametrize("option, value, words", [
    ("--space-size", "100000", ["size", "2000"]),
    ("--space-size", "1e308", ["space_size", "1000000"]),
    ("--space-size", "inf", ["space_size", "inf"]),
    ("--set", "space_size=inf", ["space_size", "inf"]),
    ("--set", "space_size=1e308", ["space_size", "1000000"]),
    ("--set", "space_size=100000", ["size", "2000"]),
    ("--set", "frame=1e300", ["frame", "1000000"]),
    ("--space-size", "2000", ["size", "2000"]),
])
def test_a_setting_past_a_limit_is_one_error_line(tmp_path, option, value, words):
    done = pnp("render", "halali", "--component", "board", "--out", "out", option, value, cwd=tmp_path)
    line = one_error_line(done)
    assert all(word in line for word in words), line
    assert not (tmp_path / "out").exists()


# -- icons ------------------------------------------------------------------------------------

SVG = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">{}</svg>'


def icon_kit(folder: Path, svg: str | bytes, name: str = "x") -> Path:
    template = write_kit(folder, front=element("icon", name=name, x=5, y=5, w=20, h=20))
    (folder / "icons").mkdir(exist_ok=True)
    target = folder / "icons" / "x.svg"
    target.write_bytes(svg.encode() if isinstance(svg, str) else svg)
    return template


@pytest.mark.parametrize("name", ["../../x", "../icons/x", "/etc/x", "sub/x", "x.svg", ".x", ""])
def test_an_icon_is_a_plain_name_found_in_an_icons_folder(tmp_path, name):
    (tmp_path / "elsewhere").mkdir()
    (tmp_path / "elsewhere" / "x.svg").write_text(SVG.format("<rect width='9' height='9'/>"))
    template = icon_kit(tmp_path / "elsewhere", SVG.format("<rect width='9' height='9'/>"), name=name)
    message = refusal(template)
    assert "name" in message


def test_an_absolute_icon_path_is_refused(tmp_path):
    secret = tmp_path / "secret.svg"
    secret.write_text(SVG.format("<rect width='9' height='9'/>"))
    template = icon_kit(tmp_path, SVG.format(""), name=str(secret.with_suffix("")))
    assert "name" in refusal(template)


@pytest.mark.parametrize("case, svg, words", [
    ("1,000 nested groups", SVG.format("<g>" * 1000 + "<rect width='8' height='8'/>" + "</g>" * 1000),
     ["nested 1002 deep", "50"]),
    ("24 MB", SVG.format("<rect x='1' y='1' width='8' height='8'/>\n" * 600_000), ["2 MiB"]),
    ("30,000 elements", SVG.format("<rect width='1' height='1'/>" * 30_000), ["30001", "20000"]),
    ("a zero viewBox", '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 0"><rect width="1"/></svg>',
     ["viewBox"]),
    ("an infinite coordinate", SVG.format('<path d="M 1e400 0 L 5 5"/>'), ["inf"]),
    ("a huge stroke width", SVG.format('<path d="M 0 0 L 5 5" stroke="black" stroke-width="1e308"/>'),
     ["1e+308"]),
    ("a huge transform", SVG.format('<g transform="scale(1e300)"><rect width="1" height="1"/></g>'),
     ["1e+300"]),
], ids=lambda value: value if isinstance(value, str) and len(value) < 40 else "")
def test_an_icon_past_a_limit_is_refused(tmp_path, case, svg, words):
    template = icon_kit(tmp_path, svg)
    if case == "24 MB":  # without its limit: 12 s and 2 GB; in a child
        message = one_error_line(pnp("render", "--template", "t.toml", "--out", "out", cwd=tmp_path))
    else:
        message = refusal(template)
    assert "x.svg" in message
    for word in words:
        assert word in message, (word, message)


# -- properties --------------------------------------------------------------------------------

PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
any_float = st.floats(allow_nan=True, allow_infinity=True)


@PROPERTY
@given(any_float)
def test_a_coordinate_is_accepted_exactly_when_finite_and_within_the_length_limit(tmp_path, x):
    template = write_kit(tmp_path, front=rect(x=x, w=1, h=1))
    if math.isfinite(x) and abs(x) <= MAX_LENGTH_MM:
        accepted(template)
    else:
        assert "front[0].x" in refusal(template)


@PROPERTY
@given(any_float)
def test_a_coordinate_from_an_expression_is_held_to_the_same_limit(tmp_path, x):
    assume(math.isfinite(x) and abs(x) <= MAX_NUMBER)
    template = write_kit(tmp_path, front=rect(x=f"{x!r} * 100", w=1, h=1))
    if abs(x * 100) <= MAX_LENGTH_MM:
        accepted(template)
    else:
        assert "front[0].x" in refusal(template)


@PROPERTY
@given(any_float)
def test_a_text_size_past_its_limit_is_refused_by_name(tmp_path, size):
    assume(not (MIN_SIZE <= size <= MAX_TEXT_SIZE_PT))  # those are accepted below (shrunk to fit)
    # Huge and infinite sizes are tried in a child above: without the limit, fitting
    # the text steps down from them 0.25 pt at a time, for ever.
    assume(not (size > 5_000))
    template = write_kit(tmp_path, front=text(size=size))
    message = refusal(template)
    assert "front[0].size" in message
    assert "limit" in message or "finite" in message


@PROPERTY
@given(st.floats(min_value=MIN_SIZE, max_value=MAX_TEXT_SIZE_PT))
def test_a_text_size_within_the_limits_is_drawn(tmp_path, size):
    accepted(write_kit(tmp_path, front=text(size=size)))


@PROPERTY
@given(st.one_of(st.integers(-10, 3000), st.tuples(st.integers(-5, 60), st.integers(-5, 60))))
def test_a_repeat_is_accepted_exactly_when_it_draws_a_bounded_number_of_copies(tmp_path, repeat):
    value = list(repeat) if isinstance(repeat, tuple) else repeat
    template = write_kit(tmp_path, front=rect(repeat=value, step=[0, 0], w=1, h=1))
    counts = repeat if isinstance(repeat, tuple) else (repeat,)
    total = math.prod(counts)
    if min(counts) >= 0 and total <= MAX_REPEAT:
        accepted(template)
    else:
        assert "front[0].repeat" in refusal(template)


@PROPERTY
@given(any_float)
def test_a_setting_is_accepted_exactly_when_positive_bounded_and_the_piece_fits_the_limit(tmp_path, side):
    # Sides beyond 20 m are tried on the command line above: without the limit they
    # would be split over millions of sheets here.
    assume(not (math.isfinite(side) and side > 20_000))
    template = write_kit(tmp_path, size=["side", "side"])
    if math.isfinite(side) and MIN_PIECE_MM <= side <= MAX_PIECE_MM:
        accepted(template, {"side": side})
    else:
        message = refusal(template, {"side": side})
        assert "side" in message or "size" in message


@PROPERTY
@given(any_float, any_float)
def test_print_options_are_accepted_exactly_within_their_bounds(bleed, offset):
    from pnp.layout.options import MAX_BACK_OFFSET, MAX_BLEED, checked

    good = math.isfinite(bleed) and 0 <= bleed <= MAX_BLEED and math.isfinite(offset) \
        and abs(offset) <= MAX_BACK_OFFSET
    options = PrintOptions(bleed=bleed, back_offset=(offset, 0.0))
    if good:
        assert checked(options).bleed == bleed
    else:
        with pytest.raises(PnpError):
            checked(options)


_expressions = st.recursive(
    st.one_of(st.floats(allow_nan=False, allow_infinity=False).map(repr), st.integers(-10 ** 30, 10 ** 30).map(str),
              st.sampled_from(["w", "h", "copy"])),
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "//", "%"]), inner).map(lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(st.sampled_from(["min", "max"]), inner, inner).map(lambda t: f"{t[0]}({t[1]}, {t[2]})"),
        inner.map(lambda e: f"-{e}"),
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(_expressions)
def test_an_expression_gives_a_finite_number_or_says_why_not(expression):
    from pnp.template.language import ExpressionError, evaluate

    try:
        value = evaluate(expression, {"w": 63.5, "h": 88.9, "copy": 3})
    except ExpressionError:
        return
    assert math.isfinite(value)


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from("0123456789<>^=+-,._ %dfxsn"), max_size=12))
def test_a_placeholder_format_fills_a_bounded_text_or_says_why_not(spec):
    from pnp.template.language import ExpressionError, fill, placeholder_names
    from pnp.core.limits import MAX_FORMAT_WIDTH

    template = "{copy:" + spec + "}"
    try:
        placeholder_names(template)
        shown = fill(template, {"copy": 7})
    except ExpressionError:
        return
    assert len(shown) <= MAX_FORMAT_WIDTH + 20


# -- the guide ---------------------------------------------------------------------------------

#: Each limit, and words of the row of docs/TEMPLATES.md's "Limits" table that states it.
GUIDE_ROWS = {
    "MAX_NUMBER": "any number written in a template",
    "MIN_PIECE_MM": "a piece's side",
    "MAX_PIECE_MM": "a piece's side",
    "MAX_LENGTH_MM": "any other length or coordinate",
    "MAX_PIECES": "pieces in one kit",
    "MAX_PAGES": "pages of one PDF",
    "MAX_REPEAT": "copies of one repeated element",
    "MAX_TEXT_SIZE_PT": "a text's `size`",
    "MAX_LEADING": "a text's `leading`",
    "MAX_TEXT_CHARS": "any text, before and after",
    "MAX_FORMAT_WIDTH": "format width or precision",
    "MAX_EXPRESSION_CHARS": "an expression",
    "MAX_OVERLAP_MM": "`overlap`",
    "MAX_TABLE_ROWS": "a table",
    "MAX_TABLE_COLS": "a table",
    "MAX_SCORE_ROWS": "a declared scoresheet",
    "MAX_POINTS": "a polygon",
    "MAX_QR_BYTES": "a QR code's text",
    "MAX_TEMPLATE_BYTES": "a template or catalog file",
    "MAX_SVG_BYTES": "an icon's SVG file",
    "MAX_SVG_DEPTH": "an icon's SVG file",
    "MAX_SVG_ELEMENTS": "an icon's SVG file",
    "MAX_IMAGE_PIXELS": "an image of `pnp export`",
    "MAX_SESSION_BYTES": "a score session file",
    "MAX_MANIFEST_BYTES": "what `pnp check-manifest` reads",
    "MAX_PDF_BYTES": "what `pnp check-manifest` reads",
    "MAX_MANIFEST_ITEMS": "what `pnp check-manifest` reads",
    "MAX_COVER_PAIRS": "what `pnp check-manifest` reads",
    "MAX_CORNERS": "polygon corners (each repeat",
    "MAX_SHAPES": "shapes laid out",
    "MAX_QR_WORK": "bytes of the different QR codes",
    "MAX_DATA_ROWS": "a data file's rows and columns",
    "MAX_DATA_COLUMNS": "a data file's rows and columns",
    "MAX_XLSX_PARTS": "an `.xlsx`'s parts",
    "MAX_XLSX_PART_BYTES": "an `.xlsx`'s parts",
    "MAX_XLSX_ELEMENTS": "an `.xlsx`'s parts",
    "MAX_XLSX_DEPTH": "an `.xlsx`'s parts",
    "MAX_PICTURE_BYTES": "a picture's file",
    "MAX_PICTURE_PIXELS": "a picture's file",
    "MAX_PICTURE_WORK": "pixels of the different pictures",
    "MAX_DPI": "an image's `min_dpi`",
    "MAX_FONT_BYTES": "a font file of `[fonts]`",
}


def test_every_limit_is_stated_in_the_template_guide():
    from pnp.core import limits
    guide = (Path(__file__).resolve().parent.parent / "docs" / "TEMPLATES.md").read_text(encoding="utf-8")
    section = guide.split("## Limits", 1)[1]
    rows = [line for line in section.splitlines() if line.startswith("| ")]
    constants = {name: value for name, value in vars(limits).items() if name.startswith(("MAX_", "MIN_"))}
    assert set(constants) == set(GUIDE_ROWS), "a limit was added or removed: state it in the guide"
    for name, value in constants.items():
        row = next(row for row in rows if GUIDE_ROWS[name] in row)
        limit = row.split("|")[2]  # the table's "limit" column
        if name.endswith("_BYTES") and value >= 1024 * 1024:
            shown = limits.size_shown(value)
        elif name == "MAX_IMAGE_PIXELS":
            shown = f"{value // 1_000_000} million"
        else:
            shown = f"{value:,.0f}"
        assert shown in limit, (name, shown, row)


def test_a_filled_sheet_whose_qr_code_would_be_too_dense_is_refused(tmp_path):
    from typer.testing import CliRunner

    from helpers import score_host_app

    session = tmp_path / "s.toml"
    session.write_text(f'game = "halali"\nplayers = ["{"A" * 600}", "{"B" * 600}"]\n')
    result = CliRunner().invoke(score_host_app(), ["score", "sheet", str(session)])
    assert result.exit_code == 1
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "QR" in lines[0] and "1000" in lines[0]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.toml"]


def test_a_session_file_past_its_limit_is_refused_before_it_is_read_whole(tmp_path):
    from typer.testing import CliRunner

    from helpers import score_host_app

    session = tmp_path / "s.toml"
    session.write_text('game = "halali"\nplayers = ["Ann", "Bob"]\n' + "# padding\n" * 120_000)
    result = CliRunner().invoke(score_host_app(), ["score", "check", str(session)])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and "1 MiB" in result.stderr and "s.toml" in result.stderr


@PROPERTY
@given(any_float)
def test_any_number_a_template_writes_is_accepted_exactly_when_finite_and_bounded(tmp_path, value):
    template = write_kit(tmp_path, params=f"side = 30\nunused = {toml_value(value)}")
    if math.isfinite(value) and abs(value) <= MAX_NUMBER:
        accepted(template)
    else:
        assert "params.unused" in refusal(template)
