"""Hostile input and concurrency: run ``pnp`` on bad input and say how each run ended.

Usage: python bench/hostile.py [--python PY] [--pythonpath DIR] [--only WORD] [--timeout S]
                               [--list] [--json FILE]

Each case runs ``PY -m pnp ...`` in a fresh folder (bad templates, icons and
sessions are written there first), under a memory limit (2 GiB of address
space) and a time limit, and is classified:

- ``as expected``: a refusal is exactly one ``Error:`` line on stderr, exit 1,
  and nothing written or changed; a valid input exits 0 and its output passes
  the case's check;
- ``traceback``: Python's traceback reached the terminal, or the line pnp's
  last-resort handler prints in its place (a bug either way);
- ``hang``: the time limit passed, or the memory limit was hit (runaway memory);
- ``wrong``: anything else (exit 0 on bad input, a file written or lost, an
  error that spans several lines, a check on the output that fails).

The table groups the cases by the finding they test (1-10: issue 13; 11-17: issue 26; 18-23:
issue 40). ``--python``
and ``--pythonpath`` run another checkout's code (``git archive main | tar -x``
into a folder, then ``--pythonpath`` that folder) to compare before and after.
Nothing here is a test: the tests are in tests/; this script counts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import resource
import select
import signal
import stat
import subprocess
import zlib
import tempfile
import time
from pathlib import Path
from typing import Callable, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
MEMORY_LIMIT = 2 * 1024 ** 3

FINDINGS = {
    1: "lost update (two score add at once)",
    2: "outputs over inputs (sheet --out SESSION...)",
    3: "hangs and runaway memory",
    4: "NaN / silent bad output",
    5: "tracebacks instead of one Error: line",
    6: "symlinks in the output folder",
    7: "icon names outside icons/",
    8: "players: seat numbers, case, Unicode",
    9: "PDF and manifest pair",
    10: "minor: refusals, folders, terminal, Ctrl-C",
    11: "exports: the folder holds what the summary says",
    12: "SIGTERM and SIGHUP",
    13: "special files: FIFO, device, folder",
    14: "OS limits on names and paths",
    15: "icons drawn blank or wrong",
    16: "work budgets: limits that multiply",
    17: "manifest NaN, foreign SQLite, TTS, --base-url, NFC",
    18: "data files: structure read within bounds",
    19: "numbers from every source within the limits",
    20: "expression functions and formats checked on load",
    21: "check-manifest: forged manifests",
    22: "files a spreadsheet reads otherwise",
    23: "pnp new names, icon shapes, the alignment sheet",
}


class Case(NamedTuple):
    name: str
    finding: int
    argv: tuple[str, ...]
    expect: str = "refused"  # or "accepted"
    files: Callable[[Path], None] | None = None
    stdin: str | None = None
    check: Callable[[Path, subprocess.CompletedProcess], str | None] | None = None
    run: Callable[["Runner", Path], tuple[str, str]] | None = None  # a case that runs itself
    # Where the Error: line is: the only line ("one"), or the first or last of several
    # (a session's problems are listed one per line under it, or above it).
    error_lines: str = "one"


class Runner(NamedTuple):
    python: str
    pythonpath: str | None
    timeout: float

    def env(self) -> dict:
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "COLUMNS")}
        if self.pythonpath:
            env["PYTHONPATH"] = self.pythonpath
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        return env

    def command(self, argv) -> list[str]:
        return [self.python, "-m", "pnp", *argv]

    def start(self, argv, folder: Path, **kwargs) -> subprocess.Popen:
        return subprocess.Popen(self.command(argv), cwd=folder, env=self.env(), preexec_fn=_limits,
                                text=True, **kwargs)


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    # A shell that started this script in the background ignores Ctrl-C, and children
    # inherit that: give pnp the ordinary Ctrl-C back.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


# ---------------------------------------------------------------- what a folder holds


def _snapshot(folder: Path) -> dict[str, str]:
    """Every file and link under ``folder``: its kind and content hash (lock files left out;
    a named pipe or a device by its kind: reading one would hang or never end)."""
    seen = {}
    for path in sorted(folder.rglob("*")):
        name = str(path.relative_to(folder))
        if path.name.endswith(".lock"):
            continue
        mode = path.lstat().st_mode
        if stat.S_ISLNK(mode):
            seen[name] = "link:" + os.readlink(path)
        elif stat.S_ISDIR(mode):
            seen[name] = "dir"
        elif not stat.S_ISREG(mode):
            seen[name] = "special"
        else:
            seen[name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return seen


def classify(case: Case, done: subprocess.CompletedProcess | None, before: dict, after: dict,
             folder: Path, elapsed: float) -> tuple[str, str]:
    if done is None:
        return "hang", f"no answer after {elapsed:.0f} s"
    err = done.stderr
    if "MemoryError" in err or done.returncode in (-9, -6) or "Cannot allocate memory" in err:
        return "hang", "memory limit hit"
    if "Traceback (most recent call last)" in err or "stopped on an unexpected error" in err:
        # A bug: a traceback, or the line the last-resort handler puts in its place.
        last = [line for line in err.strip().splitlines() if line.strip()][-1]
        return "traceback", last[:120]
    if case.expect == "refused":
        lines = [line for line in err.splitlines() if line.strip()]
        if done.returncode == 0:
            return "wrong", "exit 0 on bad input"
        if done.returncode != 1:
            return "wrong", f"exit {done.returncode}"
        at = {"one": 0, "first": 0, "last": -1}[case.error_lines]
        # "one": every line an Error: line (a broken template names each of its problems, one a line).
        if not lines or not lines[at].startswith("Error: ") or (
                case.error_lines == "one" and not all(line.startswith("Error: ") for line in lines)):
            return "wrong", f"{len(lines)} stderr lines: {' | '.join(lines)[:120]}"
        if before != after:
            changed = sorted(set(before.items()) ^ set(after.items()))
            return "wrong", f"files changed: {sorted({name for name, _ in changed})[:4]}"
    elif done.returncode != 0:
        lines = [line for line in err.splitlines() if line.strip()]
        return "wrong", f"exit {done.returncode}: {(lines or [''])[-1][:120]}"
    if case.check is not None:
        problem = case.check(folder, done)
        if problem:
            return "wrong", problem
    return "as expected", (err.strip().splitlines() or [""])[0][:120]


def run_case(case: Case, runner: Runner) -> tuple[str, str]:
    with tempfile.TemporaryDirectory(prefix="hostile-") as tmp:
        folder = Path(tmp)
        if case.files is not None:
            case.files(folder)
        if case.run is not None:
            return case.run(runner, folder)
        before = _snapshot(folder)
        started = time.monotonic()
        process = runner.start(case.argv, folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, start_new_session=True)
        try:
            out, err = process.communicate(case.stdin or "", timeout=runner.timeout)
            done = subprocess.CompletedProcess(case.argv, process.returncode, out, err)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            done = None
        after = _snapshot(folder)
        return classify(case, done, before, after, folder, time.monotonic() - started)


# ---------------------------------------------------------------- inputs: a template to spoil


CATALOG = {
    "en": '[game]\nname = "Hostile"\ncredits = "Bench."\n\n[component.cards]\nname = "Cards"\ncut = "Cut."\n',
    "fr": '[game]\nname = "Hostile"\ncredits = "Banc."\n\n[component.cards]\nname = "Cartes"\ncut = "Découpez."\n',
}


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return {"inf": "inf", "-inf": "-inf", "nan": "nan"}.get(repr(value), repr(value))
    if isinstance(value, (int,)):
        return str(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    raise TypeError(value)


def element(kind: str, **keys) -> str:
    lines = ["[[components.front]]", f'type = "{kind}"']
    lines += [f"{key} = {_toml(value)}" for key, value in keys.items()]
    return "\n".join(lines) + "\n"


TEXT = dict(x=4, y=4, w="w - 8", h=12, text="Hostile", size=10)


def template(front: str = "", size: object = "poker", count: object = 2, component: str = "",
             params: str = "", game: str = "", piece: str = "") -> Callable[[Path], None]:
    """A small valid kit (``t.toml`` and its catalogs) with one thing spoilt."""
    text = (
        f'[game]\nid = "hostile"\nplayers = [1, 4]\nrules_url = "https://example.org/hostile"\n'
        f'designers = ["bench"]\n{game}\n\n[params]\nside = 30\n{params}\n\n'
        f'[[components]]\nid = "cards"\nsize = {_toml(size)}\n{component}\n\n'
        + element("rect", x=2, y=2, w="w - 4", h="h - 4", stroke="black") + "\n" + front
        + f'\n[[components.pieces]]\nid = "card"\ncount = {_toml(count)}\n{piece}\n'
    )

    def write(folder: Path) -> None:
        (folder / "t.toml").write_text(text, encoding="utf-8")
        for lang, catalog in CATALOG.items():
            (folder / f"t.{lang}.toml").write_text(catalog, encoding="utf-8")

    return write


def with_icon(svg: str | bytes | Callable[[], bytes], name: str = "x", where: str = "icons",
              **icon_keys) -> Callable[[Path], None]:
    """The small kit drawing one icon; the SVG file is written at ``where/name.svg``."""
    keys = dict(name=name, x=5, y=5, w=20, h=20) | icon_keys
    base = template(front=element("icon", **keys))

    def write(folder: Path) -> None:
        base(folder)
        data = svg() if callable(svg) else svg
        target = folder / where / "x.svg" if where != "icons" else folder / "icons" / f"{name}.svg"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data.encode() if isinstance(data, str) else data)

    return write


SVG_HEAD = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">'


def _nested_svg(depth: int) -> str:
    return SVG_HEAD + "<g>" * depth + '<rect x="1" y="1" width="8" height="8"/>' + "</g>" * depth + "</svg>"


def _big_svg() -> bytes:
    rect = b'<rect x="1" y="1" width="8" height="8" fill="#123456"/>\n'
    return SVG_HEAD.encode() + rect * (24 * 1024 * 1024 // len(rect)) + b"</svg>"


RENDER_T = ("render", "--template", "t.toml", "--out", "out")


def with_data(pieces: str, files: dict[str, bytes | Callable[[Path], None]]) -> Callable[[Path], None]:
    """The small kit with its pieces from a data file (``pieces = ...``), and the files given."""
    base = template(front=element("text", x=5, y=5, w=40, h=10, text="{id}", size=10))

    def write(folder: Path) -> None:
        base(folder)
        path = folder / "t.toml"
        text = path.read_text(encoding="utf-8")
        text = text[:text.index("\n[[components.pieces]]")].replace('size = "poker"\n', f'size = "poker"\npieces = {pieces}\n', 1)
        path.write_text(text + "\n", encoding="utf-8")
        for name, data in files.items():
            if callable(data):
                data(folder)
            else:
                (folder / name).write_bytes(data)

    return write


def _xlsx(sheet: bytes, strings: bytes = b"") -> bytes:
    """A workbook of one sheet, its parts as given (a zip bomb or an entity bomb among them)."""
    import io
    import zipfile

    main = b'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"'
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("xl/workbook.xml", b'<workbook ' + main + b' xmlns:r="http://schemas.openxmlformats.org/'
                         b'officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/>'
                         b'</sheets></workbook>')
        archive.writestr("xl/_rels/workbook.xml.rels", b'<Relationships xmlns="http://schemas.openxmlformats.org/'
                         b'package/2006/relationships"><Relationship Id="rId1" Target="worksheets/sheet1.xml"/>'
                         b'</Relationships>')
        archive.writestr("xl/worksheets/sheet1.xml", sheet)
        if strings:
            archive.writestr("xl/sharedStrings.xml", strings)
    return data.getvalue()


def _sheet_bomb() -> bytes:
    """A sheet part that unpacks to 200 MB of one repeated row (a zip bomb of a few hundred KB)."""
    row = b'<row><c t="inlineStr"><is><t>card</t></is></c></row>'
    return _xlsx(b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
                 + row * (200 * 1024 * 1024 // len(row)) + b"</sheetData></worksheet>")


def data_file_cases() -> list[Case]:
    """Pieces from a data file: out of the template's folder, past the limits, XML bombs."""
    entities = ('<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a "aaaaaaaaaa">'
                + "".join(f'<!ENTITY {chr(98 + i)} "' + f"&{chr(97 + i)};" * 10 + '">' for i in range(8))
                + ']><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>&i;</t></si></sst>')
    sheet = (b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
             b'<row r="1"><c r="A1" t="s"><v>0</v></c></row></sheetData></worksheet>')
    return [
        Case("data file ../secret.csv", 7, RENDER_T, files=with_data('"../secret.csv"', {})),
        Case("data file /etc/passwd", 7, RENDER_T, files=with_data('"/etc/passwd"', {})),
        Case("data file linked out of the folder", 7, RENDER_T, files=with_data('"cards.csv"', {
            "cards.csv": lambda f: (f / "cards.csv").symlink_to("/etc/hostname")})),
        Case("data file a named pipe", 6, RENDER_T, files=with_data('"cards.csv"', {
            "cards.csv": lambda f: os.mkfifo(f / "cards.csv")})),
        Case("data file of 40,000 rows", 3, RENDER_T, files=with_data('"cards.csv"', {
            "cards.csv": b"id\n" + b"card\n" * 40_000})),
        Case("data file 6 MB", 3, RENDER_T, files=with_data('"cards.csv"', {
            "cards.csv": b"id,#note\n" + (b"card," + b"x" * 1000 + b"\n") * 6000})),
        Case("data file a cell of 20,000 characters", 5, RENDER_T, files=with_data('"cards.csv"', {
            "cards.csv": b"id\n" + b"c" * 20_000 + b"\n"})),
        Case("xlsx zip bomb (200 MB sheet)", 3, RENDER_T, files=with_data('"d.xlsx"', {"d.xlsx": _sheet_bomb()})),
        Case("xlsx entity bomb", 5, RENDER_T, files=with_data('"d.xlsx"', {
            "d.xlsx": _xlsx(sheet, entities.encode())})),
        Case("xlsx external entity (XXE)", 5, RENDER_T, files=with_data('"d.xlsx"', {
            "d.xlsx": _xlsx(sheet, b'<?xml version="1.0"?><!DOCTYPE s [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
                                   b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
                                   b'<si><t>&x;</t></si></sst>')})),
        Case("xlsx that is not a zip", 5, RENDER_T, files=with_data('"d.xlsx"', {"d.xlsx": b"id\ncard\n"})),
        Case("placeholder expression reaching {(copy).__class__}", 5, RENDER_T,
             files=template(front=element("text", **(TEXT | {"text": "{(copy).__class__}"})))),
        Case("placeholder expression 1e6 * 1e6 * 1e6 ...", 5, RENDER_T,
             files=template(front=element("text", **(TEXT | {"text": "{copy * " + " * ".join(["1e6"] * 60) + "}"})))),
    ]
RENDER_H = ("render", "halali", "--component", "tiles", "--out", "out")


def _nan_free_manifest(folder: Path, done) -> str | None:
    for manifest in folder.rglob("*.manifest.json"):
        text = manifest.read_text()
        if "NaN" in text or "Infinity" in text:
            return f"{manifest.name} holds NaN/Infinity"
        json.loads(text)
    return None


def _manifest_hash_matches(folder: Path, done) -> str | None:
    manifests = list(folder.rglob("*.manifest.json"))
    if not manifests:
        return "no manifest written"
    for manifest in manifests:
        data = json.loads(manifest.read_text())
        pdf = manifest.with_name(data.get("pdf", ""))
        if data.get("pdf_sha256") != hashlib.sha256(pdf.read_bytes()).hexdigest():
            return f"{manifest.name}: pdf_sha256 missing or wrong"
    return None


def _tiles_once(folder: Path, done) -> str | None:
    manifests = list(folder.rglob("*.manifest.json"))
    if len(manifests) != 1:
        return f"{len(manifests)} manifests"
    data = json.loads(manifests[0].read_text())
    fronts = [i for p in data["pages"] for i in p["items"] if i["face"] == "front"]
    return None if len(fronts) == 48 else f"{len(fronts)} tiles drawn, 48 expected"


def option_cases() -> list[Case]:
    cases = []
    for value in ("nan", "inf", "-inf", "-1", "11", "1e308", "1e-400x"):
        finding = 4 if value == "nan" else 5
        cases.append(Case(f"--bleed {value}", finding, (*RENDER_H, "--bleed", value)))
    for value in ("nan,nan", "inf,0", "1e300,0", "0,-21", "1", "1,2,3", "nan,0"):
        cases.append(Case(f"--back-offset {value}", 4 if "nan" in value else 5,
                          (*RENDER_H, "--back-offset", value)))
    for value in ("nan", "inf", "-6", "1e308", "5"):
        cases.append(Case(f"--mark-inset {value}", 4 if value == "nan" else 5,
                          (*RENDER_H, "--cutter", "silhouette", "--mark-inset", value)))
    for value in ("nan", "inf", "-20", "1e308", "4"):
        cases.append(Case(f"--mark-length {value}", 4 if value == "nan" else 5,
                          (*RENDER_H, "--cutter", "silhouette", "--mark-length", value)))
    cases += [Case("--cutter cricut", 5, (*RENDER_H, "--cutter", "cricut")),
              Case("--mark-inset without --cutter", 5, (*RENDER_H, "--mark-inset", "6")),
              Case("--mark-length without --cutter", 5, (*RENDER_H, "--mark-length", "10"))]
    for label, value in (("3000 characters", "https://x.org/" + "a" * 2986),
                         ("1001 characters", "https://x.org/" + "a" * 987),
                         ("empty", ""), ("a line break", "https://x.org/\nb"),
                         ("an escape", "https://x.org/\x1b[2J")):
        cases.append(Case(f"--qr-url {label}", 5, (*RENDER_H, "--qr-url", value)))
    for value in ("1e308", "inf", "nan", "0", "-5", "100000", "1e-9", "2000"):
        cases.append(Case(f"--space-size {value}", 3 if value in ("100000", "2000") else 5,
                          ("render", "halali", "--component", "board", "--out", "out", "--space-size", value)))
    for value in ("space_size=inf", "space_size=nan", "space_size=1e308", "space_size=100000",
                  "space_size=-1", "space_size=0", "nope=3", "space_size", "=5", "frame=1e300"):
        cases.append(Case(f"--set {value}", 3 if "100000" in value else 5,
                          ("render", "halali", "--component", "board", "--out", "out", "--set", value)))
    cases += [
        Case("--paper a3", 5, (*RENDER_H, "--paper", "a3")),
        Case("--lang de", 5, (*RENDER_H, "--lang", "de")),
        Case("--component nope", 5, ("render", "halali", "--component", "nope", "--out", "out")),
        Case("--out is a file", 5, (*RENDER_H[:-1], "f"), files=lambda f: (f / "f").write_text("x")),
        Case("--component tiles twice", 10, (*RENDER_H, "--component", "tiles"), expect="accepted",
             check=_tiles_once),
        Case("--dpi 100000 (export)", 3, ("export", "halali", "--component", "tiles", "--dpi", "100000",
                                          "--out", "out")),
        Case("--dpi 0 (export)", 5, ("export", "halali", "--component", "tiles", "--dpi", "0", "--out", "out")),
        Case("--format nope (export)", 5, ("export", "halali", "--format", "nope", "--out", "out")),
        Case("a 2 m board exported at 1200 dpi", 3, ("export", "--template", "t.toml", "--dpi", "1200", "--out", "out"),
             files=template(size="2000x2000")),
    ]
    return cases


NAN = "(1e308*10) - (1e308*10)"
INF = "1e308*10"


def template_cases() -> list[Case]:
    t = template
    text = lambda **k: element("text", **(TEXT | k))  # noqa: E731
    rect = lambda **k: element("rect", **(dict(x=2, y=2, w=10, h=10, fill="black") | k))  # noqa: E731
    cases = [
        Case("valid template (control)", 0, RENDER_T, expect="accepted", files=t(front=text())),
        Case("text size \"1e308*10\"", 3, RENDER_T, files=t(front=text(size=INF))),
        Case("text size inf (TOML)", 5, RENDER_T, files=t(front=text(size=float("inf")))),
        Case("text size nan (TOML)", 4, RENDER_T, files=t(front=text(size=float("nan")))),
        Case("text size 1e6 pt", 3, RENDER_T, files=t(front=text(size=1e6))),
        Case("text min_size nan", 4, RENDER_T, files=t(front=text(min_size=float("nan")))),
        Case("text leading 1e308", 5, RENDER_T, files=t(front=text(leading=1e308))),
        Case("text {copy:>2000000000}", 3, RENDER_T, files=t(front=text(text="{copy:>2000000000}"))),
        Case("text 2 MB long", 3, RENDER_T, files=t(front=text(text="word " * 400_000))),
        Case("text 100k-term expression in x", 5, RENDER_T, files=t(front=text(x="1+" * 100_000 + "1"))),
        Case("x 10^400 * 2 (OverflowError)", 5, RENDER_T, files=t(front=rect(x="1" + "0" * 400 + "*2"))),
        Case("x deep parentheses (5000)", 5, RENDER_T, files=t(front=rect(x="(" * 5000 + "1" + ")" * 5000))),
        Case("x NaN from an expression", 4, RENDER_T, files=t(front=rect(x=NAN))),
        Case("x nan (TOML)", 4, RENDER_T, files=t(front=rect(x=float("nan")))),
        Case("x 1e308", 5, RENDER_T, files=t(front=rect(x=1e308))),
        Case("w inf", 5, RENDER_T, files=t(front=rect(w=float("inf")))),
        Case("stroke_width NaN", 4, RENDER_T, files=t(front=rect(stroke="black", stroke_width=NAN))),
        Case("stroke_width 1e308", 5, RENDER_T, files=t(front=rect(stroke="black", stroke_width=1e308))),
        Case("radius -inf", 5, RENDER_T, files=t(front=rect(radius=float("-inf")))),
        Case("dash [0, 0]", 3, RENDER_T, files=t(front=rect(stroke="black", dash=[0, 0]))),
        Case("dash nan", 4, RENDER_T, files=t(front=rect(stroke="black", dash=[float("nan"), 1]))),
        Case("step NaN", 4, RENDER_T, files=t(front=rect(repeat=3, step=[NAN, 0]))),
        Case("repeat 100000000", 3, RENDER_T, files=t(front=rect(repeat=100_000_000, step=[0, 0]))),
        Case("repeat [100000, 100000]", 3, RENDER_T, files=t(front=rect(repeat=[100_000, 100_000], step=[0, 0]))),
        Case("repeat \"1e308*10\"", 5, RENDER_T, files=t(front=rect(repeat=INF, step=[0, 0]))),
        Case("repeat nan", 5, RENDER_T, files=t(front=rect(repeat=float("nan"), step=[0, 0]))),
        Case("repeat -3", 5, RENDER_T, files=t(front=rect(repeat=-3, step=[0, 0]))),
        Case("count 10^12", 3, RENDER_T, files=t(front=text(), count=10 ** 12)),
        Case("count 10^6", 3, RENDER_T, files=t(front=text(), count=10 ** 6)),
        Case("count 20001", 3, RENDER_T, files=t(front=text(), count=20_001)),
        Case("count inf", 5, RENDER_T, files=t(front=text(), count=float("inf"))),
        Case("size \"100000x100000\"", 3, RENDER_T, files=t(front=text(), size="100000x100000")),
        Case("size \"0x0\"", 5, RENDER_T, files=t(front=text(), size="0x0")),
        Case("size \"infxinf\"", 5, RENDER_T, files=t(front=text(), size="infxinf")),
        Case("size \"nanx50\"", 4, RENDER_T, files=t(front=text(), size="nanx50")),
        Case("size [\"1e308*10\", \"5\"]", 5, RENDER_T, files=t(front=text(), size=[INF, "5"])),
        Case("size [\"side\", \"side\"] with side = nan", 4, RENDER_T, files=_param_file(float("nan"))),
        Case("size [\"side\", \"side\"] with side = inf", 5, RENDER_T, files=_param_file(float("inf"))),
        Case("--set side=1e308 on a sized piece", 5, (*RENDER_T, "--set", "side=1e308"),
             files=template(front=rect(), size=["side", "side"])),
        Case("overlap 500", 4, RENDER_T, files=t(front=rect(), size="300x300", component="overlap = 500")),
        Case("overlap = the sheet", 5, RENDER_T, files=t(front=rect(), size="300x300", component="overlap = 194")),
        Case("overlap just under the piece", 3, RENDER_T,
             files=t(front=rect(), size="300x300", component="overlap = 299.99")),
        Case("overlap nan", 4, RENDER_T, files=t(front=rect(), size="300x300", component="overlap = nan")),
        Case("table cols [0, 0]", 5, RENDER_T,
             files=t(front=element("table", x=2, y=2, w=50, rows=[["a", "b"]], cols=[0, 0], row_h=6, size=8))),
        Case("table 100000 rows", 3, RENDER_T,
             files=t(front=element("table", x=2, y=2, w=50, rows=[["a"]] * 100_000, cols=[1], row_h=6, size=8))),
        Case("polygon 1e6 points", 3, RENDER_T,
             files=t(front=element("polygon", points=[[1, 1], [2, 2]] * 500_000, fill="black"))),
        Case("qr data 3000 characters", 5, RENDER_T,
             files=t(front=element("qr", x=5, y=5, size=30, data="x" * 3000))),
        Case("rules_url 3000 characters", 5, RENDER_T,
             files=_long_rules_url()),
        Case("icon name ../../x", 7, RENDER_T, files=with_icon(SVG_HEAD + "<rect width='9' height='9'/></svg>",
                                                             name="../../x", where="outside")),
        Case("icon name absolute path", 7, RENDER_T, files=_absolute_icon()),
        Case("icon 1000 nested <g>", 5, RENDER_T, files=with_icon(_nested_svg(1000))),
        Case("icon 24 MB", 3, RENDER_T, files=with_icon(_big_svg)),
        Case("icon entity bomb", 5, RENDER_T, files=with_icon(
            '<?xml version="1.0"?><!DOCTYPE s [<!ENTITY a "aaaaaaaaaa">'
            + "".join(f'<!ENTITY {chr(98 + i)} "&{chr(97 + i)};&{chr(97 + i)};&{chr(97 + i)};'
                      f'&{chr(97 + i)};&{chr(97 + i)};&{chr(97 + i)};&{chr(97 + i)};&{chr(97 + i)};'
                      f'&{chr(97 + i)};&{chr(97 + i)};">' for i in range(8))
            + ']><svg xmlns="http://www.w3.org/2000/svg"><text>&i;</text></svg>')),
        Case("icon with an external entity (XXE)", 5, RENDER_T, files=with_icon(
            '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]>'
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><title>&x;</title></svg>')),
        Case("expression calling __import__", 5, RENDER_T,
             files=t(front=rect(x="__import__('os').system('touch pwned')")),
             check=lambda folder, done: "pwned" if (folder / "pwned").exists() else None),
        Case("expression reaching w.__class__", 5, RENDER_T, files=t(front=rect(x="w.__class__"))),
        Case("placeholder reaching {copy.__class__}", 5, RENDER_T,
             files=t(front=text(text="{copy.__class__.__mro__}"))),
        Case("template that is a folder", 5, ("render", "--template", "d.toml", "--out", "out"),
             files=lambda f: (f / "d.toml").mkdir()),
        Case("template not UTF-8", 5, RENDER_T, files=lambda f: (f / "t.toml").write_bytes(b"\xff\xfe[game]")),
        Case("template nested 5,000 deep", 5, RENDER_T,
             files=lambda f: (f / "t.toml").write_text("x = " + "[" * 5000 + "]" * 5000 + "\n")),
        Case("icon viewBox 0 0 0 0", 5, RENDER_T, files=with_icon(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 0 0"><rect width="1" height="1"/></svg>')),
        Case("icon path nan", 4, RENDER_T, files=with_icon(SVG_HEAD + '<path d="M nan 0 L 5 5"/></svg>')),
        Case("icon stroke-width 1e308", 5, RENDER_T, files=with_icon(
            SVG_HEAD + '<path d="M 0 0 L 5 5" stroke="black" stroke-width="1e308"/></svg>')),
    ]
    return cases


def _param_file(value: float) -> Callable[[Path], None]:
    base = template(front=element("rect", x=1, y=1, w=5, h=5, fill="black"), size=["side", "side"])

    def write(folder: Path) -> None:
        base(folder)
        path = folder / "t.toml"
        path.write_text(path.read_text().replace("side = 30", f"side = {_toml(value)}"))

    return write


def _long_rules_url() -> Callable[[Path], None]:
    base = template(front=element("text", **TEXT))

    def write(folder: Path) -> None:
        base(folder)
        path = folder / "t.toml"
        path.write_text(path.read_text().replace("https://example.org/hostile", "https://x.org/" + "a" * 2986))

    return write


def _absolute_icon() -> Callable[[Path], None]:
    def write(folder: Path) -> None:
        secret = folder / "elsewhere" / "secret.svg"
        secret.parent.mkdir()
        secret.write_text(SVG_HEAD + "<rect width='9' height='9'/></svg>")
        template(front=element("icon", name=str(secret.with_suffix("")), x=5, y=5, w=20, h=20))(folder)

    return write


# ---------------------------------------------------------------- inputs: sessions


def _session(name: str, players: list[str], game: str = "halali", days: str = "") -> Callable[[Path], None]:
    def write(folder: Path) -> None:
        text = f'game = "{game}"\nplayers = {json.dumps(players, ensure_ascii=False)}\n{days}'
        (folder / name).write_text(text, encoding="utf-8")

    return write


def _both(*writers) -> Callable[[Path], None]:
    def write(folder: Path) -> None:
        for writer in writers:
            writer(folder)

    return write


HALALI_ROUND = "Ann\n" + "\n" * 13  # Ann plays blue, every tile count 0


def _session_intact(name: str, text_has: str = 'players = ["Ann", "Bob"]'):
    def check(folder: Path, done) -> str | None:
        path = folder / name
        if not path.is_file() or text_has not in path.read_text(errors="replace"):
            return f"{name} was overwritten"
        return None

    return check


def _still_a_link(folder: Path, done) -> str | None:
    link = folder / "s.toml"
    if not link.is_symlink():
        return "the symlinked session became a plain file"
    if "[[rounds]]" not in (folder / "real" / "s.toml").read_text():
        return "the round did not reach the link's target"
    return None


def _blue(expected: str):
    def check(folder: Path, done) -> str | None:
        import tomllib

        rounds = tomllib.loads((folder / "s.toml").read_text()).get("rounds", [])
        if not rounds:
            return "nothing saved"
        return None if rounds[0].get("blue") == expected else f"saved blue = {rounds[0].get('blue')!r}"

    return check


def _no_raw_controls(folder: Path, done) -> str | None:
    shown = done.stdout + done.stderr
    bad = [c for c in shown if (ord(c) < 32 and c not in "\n\t") or 0x7F <= ord(c) < 0xA0
           or c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"]
    return f"raw control characters on the terminal: {bad[:3]!r}" if bad else None


def session_cases() -> list[Case]:
    s = _session("s.toml", ["Ann", "Bob"])
    cases = [
        Case("sheet --out the session", 2, ("score", "sheet", "s.toml", "--out", "s.toml"), files=s,
             check=_session_intact("s.toml")),
        Case("sheet --out a link to the session", 2, ("score", "sheet", "s.toml", "--out", "l.pdf"),
             files=_both(s, lambda f: (f / "l.pdf").symlink_to("s.toml"))),
        Case("sheet --out a hard link to the session", 2, ("score", "sheet", "s.toml", "--out", "h.pdf"),
             files=_both(s, lambda f: os.link(f / "s.toml", f / "h.pdf"))),
        Case("sheet --out notes.txt", 2, ("score", "sheet", "s.toml", "--out", "notes.txt"), files=s),
        Case("sheet --out x.pdf over session x.manifest.json", 2,
             ("score", "sheet", "x.manifest.json", "--out", "x.pdf"),
             files=lambda f: (f / "x.manifest.json").write_text('{"game": "halali", "players": ["Ann", "Bob"]}')),
        Case("sheet --out into a template", 2, ("score", "sheet", "s.toml", "--out", "t.toml"),
             files=_both(s, template())),
        Case("sheet --out new/dir/x.pdf", 10, ("score", "sheet", "s.toml", "--out", "new/dir/x.pdf"), files=s),
        Case("new --force over a file that is not a session", 2,
             ("score", "new", "halali", "--players", "A,B", "--out", "notes.toml", "--force"),
             files=lambda f: (f / "notes.toml").write_text('title = "my notes"\n')),
        Case("new --force over a template", 2,
             ("score", "new", "halali", "--players", "A,B", "--out", "t.toml", "--force"), files=template()),
        Case("add to a symlinked session", 10, ("score", "add", "s.toml"), expect="accepted", stdin=HALALI_ROUND,
             files=_linked_session, check=_still_a_link),
        Case("add: players 2,1, blue answered 2", 8, ("score", "add", "s.toml"), expect="accepted",
             stdin="2\n" + "\n" * 13, files=_session("s.toml", ["2", "1"]), check=_blue("2")),
        Case("add: players 2,1, blue answered 1", 8, ("score", "add", "s.toml"), expect="accepted",
             stdin="1\n" + "\n" * 13, files=_session("s.toml", ["2", "1"]), check=_blue("1")),
        Case("add: players Ann,Bob, blue answered 2 (seat)", 0, ("score", "add", "s.toml"), expect="accepted",
             stdin="2\n" + "\n" * 13, files=s, check=_blue("Bob")),
        Case("add: players Ann,ANN", 8, ("score", "add", "s.toml"), stdin=HALALI_ROUND, error_lines="first",
             files=_session("s.toml", ["Ann", "ANN"])),
        Case("new: players Ann,ANN", 8, ("score", "new", "halali", "--players", "Ann,ANN", "--out", "s.toml"),
             error_lines="first"),
        Case("new: players Chloé (NFC), Chloé (NFD)", 8, error_lines="first",
             argv=("score", "new", "halali", "--players", "Chlo\u00e9,Chloe\u0301", "--out", "s.toml")),
        Case("new: players Ａnn (fullwidth), Ann", 8, error_lines="first",
             argv=("score", "new", "halali", "--players", "\uff21nn,Ann", "--out", "s.toml")),
        Case("new: a name with an escape sequence", 10, error_lines="first",
             argv=("score", "new", "halali", "--players", "A\x1b[31mnn,Bob", "--out", "s.toml"),
             check=_no_raw_controls),
        Case("new: a name with a right-to-left override", 10, error_lines="first",
             argv=("score", "new", "halali", "--players", "Ann,B\u202eob", "--out", "s.toml"),
             check=_no_raw_controls),
        Case("new: a name with a line break", 10, error_lines="first",
             argv=("score", "new", "halali", "--players", "Ann,B\nob", "--out", "s.toml")),
        Case("check: a session naming a player with escapes", 10, ("score", "check", "s.toml"),
             error_lines="first",
             files=_session("s.toml", ["A\x1b]0;pwned\x07nn", "Bob\x9b2J"]), check=_no_raw_controls),
        Case("check: an unknown player with escapes in a round", 10, ("score", "check", "s.toml"),
             error_lines="first",
             files=_session("s.toml", ["Ann", "Bob"], days='\n[[rounds]]\nblue = "\\u001b[2J\\u202e"\n'),
             check=_no_raw_controls),
        # 5 ducks each: each part is possible alone, the round is not (the box has 7); then "n".
        Case("add refused with n", 10, ("score", "add", "s.toml"), error_lines="last",
             stdin="Ann\n" + "\n\n\n\n5\n\n" + "\n\n\n\n5\n\n\n" + "n\n", files=s),
        Case("add with stdin closed", 10, ("score", "add", "s.toml"), stdin="", files=s),
        Case("check: a JSON session holding NaN", 4, ("score", "check", "s.json"),
             files=lambda f: (f / "s.json").write_text(
                 '{"game": "halali", "players": ["A", "B"], "rounds": [{"blue": "A", "tiles": {"A": {"duck": NaN}}}]}')),
        Case("check: a TOML session counting inf ducks", 4, ("score", "check", "s.toml"), error_lines="first",
             files=_session("s.toml", ["Ann", "Bob"], days='\n[[rounds]]\nblue = "Ann"\n[rounds.tiles.Ann]\nduck = inf\n')),
        Case("check: a JSON session nested 100,000 deep", 5, ("score", "check", "s.json"),
             files=lambda f: (f / "s.json").write_text("[" * 100_000 + "]" * 100_000)),
        Case("check: a folder named like a session", 5, ("score", "check", "s.toml"),
             files=lambda f: (f / "s.toml").mkdir()),
        Case("check-manifest of JSON nested 100,000 deep", 5, ("check-manifest", "m.manifest.json"),
             files=lambda f: (f / "m.manifest.json").write_text("[" * 100_000 + "]" * 100_000)),
        Case("lost update: two score add at once", 1, (), files=s, run=_lost_update),
    ]
    return cases


def _linked_session(folder: Path) -> None:
    (folder / "real").mkdir()
    _session("s.toml", ["Ann", "Bob"])(folder / "real")
    (folder / "s.toml").symlink_to("real/s.toml")


# ---------------------------------------------------------------- cases that run themselves


def _read_until(process: subprocess.Popen, word: str, limit: float) -> str:
    seen = b""
    deadline = time.monotonic() + limit
    while word.encode() not in seen and time.monotonic() < deadline and process.poll() is None:
        if select.select([process.stdout], [], [], 0.1)[0]:
            seen += os.read(process.stdout.fileno(), 4096)
    return seen.decode(errors="replace")


def _lost_update(runner: Runner, folder: Path) -> tuple[str, str]:
    """Two ``score add`` read the session, then save one after the other."""
    first, second = (runner.start(("score", "add", "s.toml"), folder, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE) for _ in range(2))
    for process in (first, second):
        _read_until(process, "?", runner.timeout)
    out1, err1 = first.communicate("Ann\n" + "\n" * 13, timeout=runner.timeout)
    out2, err2 = second.communicate("Bob\n" + "\n" * 13, timeout=runner.timeout)
    saved = (folder / "s.toml").read_text()
    if "Traceback" in err1 + err2:
        return "traceback", (err1 + err2).strip().splitlines()[-1]
    if first.returncode != 0:
        return "wrong", f"first add failed: {err1.strip()[:100]}"
    if second.returncode == 0:
        # The second add may keep its round after the first one's (pnp/cli/score_commands.py,
        # _save_after_another) when the session still passes its checks: then both rounds are
        # in the file, and the second add says it was saved after another.
        if 'blue = "Ann"' not in saved or 'blue = "Bob"' not in saved:
            return "wrong", "both said Saved, but a round is lost"
        if "changed while you typed" not in out2:
            return "wrong", "the second add was saved after the first without saying so"
        return "as expected", "the second round saved after the first, and said so"
    lines = [line for line in err2.splitlines() if line.strip()]
    if len(lines) != 1 or not lines[0].startswith("Error: ") or 'blue = "Ann"' not in saved:
        return "wrong", f"second add: {' | '.join(lines)[:100]}"
    return "as expected", lines[0][:120]


def _ctrl_c(runner: Runner, folder: Path, when: str = "building") -> tuple[str, str]:
    """SIGINT while the command starts (Python still importing it) or once the build is under way."""
    process = runner.start(("build", "--out", "out"), folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if when == "starting":
        time.sleep(0.15)
    else:
        deadline = time.monotonic() + runner.timeout
        while time.monotonic() < deadline and process.poll() is None:
            if select.select([process.stdout, process.stderr], [], [], 0.05)[0]:
                break  # it has begun to write: the build is under way
    process.send_signal(signal.SIGINT)
    try:
        out, err = process.communicate(timeout=runner.timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        return "hang", "Ctrl-C did not stop the build"
    if "Traceback" in err:
        return "traceback", err.strip().splitlines()[-1][:120]
    lines = [line for line in err.splitlines() if line.strip() and "Rendering kits" not in line]
    leftovers = [p.name for p in (folder / "out").glob(".*.tmp")] if (folder / "out").is_dir() else []
    if process.returncode != 130 or len(lines) != 1 or not lines[0].startswith("Error: ") or leftovers:
        return "wrong", f"exit {process.returncode}, {len(lines)} lines, {len(leftovers)} temporary files"
    return "as expected", lines[0]


def _squatted_manifest(runner: Runner, folder: Path) -> tuple[str, str]:
    """A folder named like the manifest: refused, and the PDF is not written either."""
    out = folder / "out"
    (out / "halali_en_a4_tiles.manifest.json").mkdir(parents=True)
    done = subprocess.run(runner.command(RENDER_H), cwd=folder, env=runner.env(), capture_output=True,
                          text=True, timeout=runner.timeout)
    case = Case("", 9, RENDER_H)
    before = {"out": "dir", "out/halali_en_a4_tiles.manifest.json": "dir"}
    return classify(case, done, before, _snapshot(folder), folder, 0)


def _stale_manifest(runner: Runner, folder: Path) -> tuple[str, str]:
    """A PDF changed after its manifest was written: ``pnp check-manifest`` must say so."""
    done = subprocess.run(runner.command(RENDER_H), cwd=folder, env=runner.env(), capture_output=True,
                          text=True, timeout=runner.timeout)
    if done.returncode:
        return "wrong", "render failed"
    pdf = folder / "out" / "halali_en_a4_tiles.pdf"
    pdf.write_bytes(pdf.read_bytes() + b"\n% changed\n")
    done = subprocess.run(runner.command(("check-manifest", "out/halali_en_a4_tiles.manifest.json")),
                          cwd=folder, env=runner.env(), capture_output=True, text=True, timeout=runner.timeout)
    case = Case("", 9, (), check=lambda f, d: None if "halali_en_a4_tiles.pdf" in d.stderr
                else "the error does not name the PDF")
    snapshot = _snapshot(folder)
    return classify(case, done, snapshot, snapshot, folder, 0)


def _broken_pipe(runner: Runner, folder: Path) -> tuple[str, str]:
    process = runner.start(("games",), folder, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    process.stdout.readline()
    process.stdout.close()
    try:
        err = process.stderr.read()
        process.wait(timeout=runner.timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        return "hang", "pnp games | head -1 did not end"
    if "Traceback" in err:
        return "traceback", err.strip().splitlines()[-1][:120]
    return "as expected", f"exit {process.returncode}"


def other_cases() -> list[Case]:
    return [
        Case("Ctrl-C during build", 10, (), run=_ctrl_c),
        Case("Ctrl-C while pnp starts", 10, (), run=lambda runner, folder: _ctrl_c(runner, folder, "starting")),
        Case("a folder named like the manifest", 9, (), run=_squatted_manifest),
        Case("a PDF changed after its manifest", 9, (), run=_stale_manifest),
        Case("render: the manifest carries the PDF's hash", 9, RENDER_H, expect="accepted",
             check=_manifest_hash_matches),
        Case("render --bleed 0 (control)", 0, (*RENDER_H, "--bleed", "0"), expect="accepted",
             check=_nan_free_manifest),
        Case("pnp games | head -1", 10, (), run=_broken_pipe),
        Case("a symlink in the output folder", 6, RENDER_H, expect="accepted",
             files=_symlinks_in_out, check=_symlink_targets_intact),
    ]


def _symlinks_in_out(folder: Path) -> None:
    (folder / "out").mkdir()
    victim = folder / "victim.txt"
    victim.write_text("keep me")
    for name in ("probe", ".probe", ".write-test", "halali_en_a4_tiles.pdf.tmp"):
        (folder / "out" / name).symlink_to(victim)


def _symlink_targets_intact(folder: Path, done) -> str | None:
    return None if (folder / "victim.txt").read_text() == "keep me" else "a file outside --out was truncated"


def all_cases() -> list[Case]:
    return (option_cases() + template_cases() + session_cases() + other_cases() + export_cases()
            + signal_cases() + special_file_cases() + name_limit_cases() + icon_cases() + budget_cases()
            + more_cases() + data_file_cases() + issue_40_cases())


# ---------------------------------------------------------------- issue 26: exports


def _pieces(*entries: tuple[str, int], sets: list[str] | None = None, size: str = "poker",
            component: str = "cards", more: str = "") -> Callable[[Path], None]:
    """A kit whose one component has the pieces given as (id, count)."""
    pieces = "".join(f'\n[[components.pieces]]\nid = "{pid}"\ncount = {count}\n' for pid, count in entries)
    text = (f'[game]\nid = "hostile"\nplayers = [1, 4]\nrules_url = "https://example.org/hostile"\n'
            f'designers = ["bench"]\n\n[[components]]\nid = "{component}"\nsize = "{size}"\n'
            + (f"sets = {json.dumps(sets)}\n" if sets else "")
            + element("rect", x=2, y=2, w="w - 4", h="h - 4", fill="set" if sets else "black")
            + pieces + more)

    def write(folder: Path) -> None:
        (folder / "t.toml").write_text(text, encoding="utf-8")
        for lang, catalog in CATALOG.items():
            extra = "".join(f'\n[component.{c}]\nname = "{c}"\ncut = "Cut."\n'
                            for c in ("c", "c-1") if f'id = "{c}"' in text)
            (folder / f"t.{lang}.toml").write_text(catalog + extra, encoding="utf-8")

    return write


def _wrote_what_it_says(folder: Path, done) -> str | None:
    """The export's folder holds exactly the files its summary line counts, each listed once."""
    import re

    said = re.search(r"wrote (\d+) files? .* to (.+?)/ in", done.stdout)
    if not said:
        return f"no summary line: {done.stdout.strip()[-100:]}"
    exported = folder / said.group(2) if not os.path.isabs(said.group(2)) else Path(said.group(2))
    files = [p for p in exported.rglob("*") if p.is_file()]
    if len(files) != int(said.group(1)):
        return f"the summary says {said.group(1)} files, the folder holds {len(files)}"
    csv_file = exported / "files.csv"
    if csv_file.is_file():
        listed = [line.split(",")[0] for line in csv_file.read_text().splitlines()[1:]]
        if len(listed) != len(set(listed)):
            return "files.csv lists a file twice"
    leftovers = [p.name for p in exported.parent.iterdir() if p.name.startswith(".")]
    return f"left beside it: {leftovers[:3]}" if leftovers else None


def _earlier_export(folder: Path) -> None:
    stale = folder / "out" / "halali_en_png" / "tiles"
    stale.mkdir(parents=True)
    (stale / "zz-stale-01-front.png").write_bytes(b"an earlier export's picture")
    (stale.parent / "files.csv").write_text("file\ntiles/zz-stale-01-front.png\n")


def _tts_sheets_apart(folder: Path, done) -> str | None:
    problem = _wrote_what_it_says(folder, done)
    if problem:
        return problem
    saved = json.loads((folder / "out" / "hostile_en_tts" / "hostile_en.json").read_text())
    urls = [sheet["FaceURL"] for deck in saved["ObjectStates"] for sheet in deck.get("CustomDeck", {}).values()]
    if len(urls) != len(set(urls)):
        return "two deck sheets share one file"
    return None


def export_cases() -> list[Case]:
    out = ("--out", "out")
    return [
        Case("export over an earlier export with a stale file", 11,
             ("export", "halali", "--component", "tiles", *out), expect="accepted", files=_earlier_export,
             check=lambda f, d: _wrote_what_it_says(f, d) or (
                 "the stale file is still there" if (f / "out/halali_en_png/tiles/zz-stale-01-front.png").exists()
                 else None)),
        Case("export: pieces a_b and a-b", 11, ("export", "--template", "t.toml", *out),
             files=_pieces(("a_b", 1), ("a-b", 1))),
        Case("export: a colour listed twice in sets", 11, ("export", "--template", "t.toml", *out),
             files=_pieces(("p", 2), sets=["red", "red"])),
        Case("export tts: component c-1 beside c's second sheet", 11,
             ("export", "--template", "t.toml", "--format", "tts", "--dpi", "72", *out), expect="accepted",
             files=_two_decks, check=_tts_sheets_apart),
        Case("export over a folder holding a file of the user's", 11,
             ("export", "halali", "--component", "tiles", *out),
             files=lambda f: ((f / "out/halali_en_png").mkdir(parents=True),
                              (f / "out/halali_en_png/notes.txt").write_text("mine"))),
    ]


def _two_decks(folder: Path) -> None:
    _pieces(("p", 70))(folder)
    path = folder / "t.toml"
    path.write_text(path.read_text().replace('id = "cards"', 'id = "c"') + '\n[[components]]\nid = "c-1"\n'
                    'size = "poker"\n' + element("rect", x=2, y=2, w=5, h=5, fill="#ff0000")
                    + '\n[[components.pieces]]\nid = "q"\ncount = 3\n')
    for lang in ("en", "fr"):
        catalog = folder / f"t.{lang}.toml"
        catalog.write_text(catalog.read_text().replace("[component.cards]", "[component.c]")
                           + '\n[component.c-1]\nname = "C1"\ncut = "Cut."\n')


# ---------------------------------------------------------------- issue 26: signals


def _children(pid: int) -> list[int]:
    # Each thread's children: a pool may start its workers from a thread of its own.
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def _deck_of(cards: int) -> Callable[[Path], None]:
    def write(folder: Path) -> None:
        import sys

        sys.path.insert(0, str(ROOT))
        from bench.unique_deck import write_template

        write_template(folder / "deck", cards)

    return write


def _stopped(runner: Runner, folder: Path, argv: tuple[str, ...], sig: int, ready: Callable[[Path], bool],
             stdin: str | None = None, workers: bool = False) -> tuple[str, str]:
    """Send ``sig`` once ``ready(folder)``; the run must end with one line, 128 + sig, no temporary
    file and no worker left."""
    process = runner.start(argv, folder, stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    deadline = time.monotonic() + runner.timeout
    while time.monotonic() < deadline and process.poll() is None and not ready(folder):
        time.sleep(0.02)
    started = _children(process.pid)
    if workers and not started:
        process.kill()
        process.communicate()
        return "wrong", "no worker process to stop (the case does not test what it says)"
    workers = started
    process.send_signal(sig)
    try:
        out, err = process.communicate(stdin, timeout=runner.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        return "hang", f"{signal.Signals(sig).name} did not stop it"
    time.sleep(0.2)
    alive = [w for w in workers if Path(f"/proc/{w}").exists() and
             "zombie" not in Path(f"/proc/{w}/status").read_text().lower()]
    if "Traceback" in err or "unexpected error" in err:
        return "traceback", err.strip().splitlines()[-1][:120]
    lines = [line for line in err.splitlines() if line.strip() and "Rendering" not in line and "Drawing" not in line]
    leftovers = [p.name for p in folder.rglob(".*") if p.name.endswith((".tmp", ".old"))]
    expected = 128 + sig
    if process.returncode != expected or len(lines) != 1 or not lines[0].startswith("Error: ") or leftovers or alive:
        return "wrong", (f"exit {process.returncode} (not {expected}), {len(lines)} lines, "
                         f"{len(leftovers)} temporary files, {len(alive)} workers alive")
    return "as expected", lines[0][:120]


def _staged_png(folder: Path) -> bool:
    """The export has begun to write its pictures (under whatever name it stages them)."""
    return (folder / "out").is_dir() and any(p.is_file() for p in (folder / "out").rglob("*"))


def _first_pdf(folder: Path) -> bool:
    return any(p.suffix == ".pdf" for p in (folder / "out").glob("*")) if (folder / "out").is_dir() else False


def _listening(folder: Path) -> bool:
    return (folder / "data" / "pnp.sqlite3").exists()


def signal_cases() -> list[Case]:
    # 300 different cards: drawn by worker processes, a few seconds of work to stop mid-way.
    export = ("export", "--template", "deck/unique-300.toml", "--out", "out")
    build = ("build", "--out", "out")
    serve = ("serve", "--port", "0", "--data", "data")
    cases = []
    for sig in (signal.SIGTERM, signal.SIGHUP):
        name = signal.Signals(sig).name
        cases += [
            Case(f"{name} during export (workers)", 12, (), files=_deck_of(300),
                 run=lambda r, f, s=sig: _stopped(r, f, export, s, _staged_png, workers=True)),
            Case(f"{name} during build", 12, (), run=lambda r, f, s=sig: _stopped(r, f, build, s, _first_pdf)),
            Case(f"{name} while pnp serve runs", 12, (),
                 run=lambda r, f, s=sig: _stopped(r, f, serve, s, lambda g: _listening(g) and time.sleep(0.5) is None)),
        ]
    cases.append(Case("SIGTERM at the score add prompt", 12, (), files=_session("s.toml", ["Ann", "Bob"]),
                      run=lambda r, f: _stopped_at_prompt(r, f)))
    return cases


def _stopped_at_prompt(runner: Runner, folder: Path) -> tuple[str, str]:
    _session("s.toml", ["Ann", "Bob"])(folder)
    process = runner.start(("score", "add", "s.toml"), folder, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, start_new_session=True)
    _read_until(process, "?", runner.timeout)
    process.send_signal(signal.SIGTERM)
    try:
        _, err = process.communicate(timeout=runner.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        return "hang", "SIGTERM did not stop it"
    lines = [line for line in err.splitlines() if line.strip()]
    if process.returncode != 143 or len(lines) != 1 or not lines[0].startswith("Error: "):
        return "wrong", f"exit {process.returncode}, {len(lines)} lines"
    return "as expected", lines[0][:120]


# ---------------------------------------------------------------- issue 26: special files


def _fifo(name: str, then: Callable[[Path], None] | None = None) -> Callable[[Path], None]:
    def write(folder: Path) -> None:
        if then is not None:
            then(folder)
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if path.exists():
            path.unlink()
        os.mkfifo(path)

    return write


def _to_dev_zero(name: str, then: Callable[[Path], None] | None = None) -> Callable[[Path], None]:
    def write(folder: Path) -> None:
        if then is not None:
            then(folder)
        path = folder / name
        if path.exists():
            path.unlink()
        path.symlink_to("/dev/zero")

    return write


def _manifest_pair(folder: Path) -> None:
    """A small valid-looking manifest and PDF pair (the PDF's hash in the manifest)."""
    pdf = b"%PDF-1.4\n<< /Type /Page >>\n%%EOF\n"
    (folder / "k.pdf").write_bytes(pdf)
    (folder / "k.manifest.json").write_text(json.dumps(
        {"pdf": "k.pdf", "pdf_sha256": hashlib.sha256(pdf).hexdigest(), "duplex": False,
         "page_size_mm": [210, 297], "pages": [{"number": 1, "kind": "sheet", "sheet": 1, "items": []}]}))


def special_file_cases() -> list[Case]:
    s = _session("s.toml", ["Ann", "Bob"])
    icon = with_icon(SVG_HEAD + "<rect width='9' height='9'/></svg>")
    return [
        Case("a FIFO as the session", 13, ("score", "check", "s.toml"), files=_fifo("s.toml")),
        Case("a FIFO as a file to import", 13, ("score", "import", "s.toml", "--data", "data"), files=_fifo("s.toml"),
             error_lines="first"),
        Case("a FIFO as the manifest", 13, ("check-manifest", "k.manifest.json"),
             files=_fifo("k.manifest.json", _manifest_pair)),
        Case("a FIFO as the manifest's PDF", 13, ("check-manifest", "k.manifest.json"), files=_fifo("k.pdf", _manifest_pair)),
        Case("a FIFO as the template", 13, RENDER_T, files=_fifo("t.toml", template())),
        Case("a FIFO as a catalog", 13, RENDER_T, files=_fifo("t.fr.toml", template())),
        Case("a FIFO as an icon", 13, RENDER_T, files=_fifo("icons/x.svg", icon)),
        Case("a folder as a catalog", 13, RENDER_T,
             files=lambda f: (template()(f), (f / "t.fr.toml").unlink(), (f / "t.fr.toml").mkdir())),
        Case("the manifest a link to /dev/zero", 13, ("check-manifest", "k.manifest.json"),
             files=_to_dev_zero("k.manifest.json", _manifest_pair)),
        Case("the PDF a link to /dev/zero", 13, ("check-manifest", "k.manifest.json"),
             files=_to_dev_zero("k.pdf", _manifest_pair)),
        Case("the session a link to /dev/zero", 13, ("score", "check", "s.toml"), files=_to_dev_zero("s.toml", s)),
        Case("the template a link to /dev/zero", 13, RENDER_T, files=_to_dev_zero("t.toml", template())),
        Case("pnp.sqlite3 a FIFO", 13, ("score", "history", "--data", "data"), files=_fifo("data/pnp.sqlite3")),
    ]


# ---------------------------------------------------------------- issue 26: OS limits


LONG_NAME = "n" * 300
LONG_PATH = "/".join(["p" * 200] * 25)


def name_limit_cases() -> list[Case]:
    s = _session("s.toml", ["Ann", "Bob"])
    return [
        Case("render --out a 300-byte name", 14, (*RENDER_H[:-1], LONG_NAME)),
        Case("render --out a 5,000-character path", 14, (*RENDER_H[:-1], LONG_PATH)),
        Case("build --out a 300-byte name", 14, ("build", "--out", LONG_NAME)),
        Case("export --out a 300-byte name", 14, ("export", "halali", "--component", "tiles", "--out", LONG_NAME)),
        Case("export --out a 5,000-character path", 14, ("export", "halali", "--component", "tiles", "--out", LONG_PATH)),
        Case("calibrate --out a 300-byte name", 14, ("calibrate", "--out", LONG_NAME)),
        Case("score new --out a 300-byte name", 14,
             ("score", "new", "halali", "--players", "A,B", "--out", LONG_NAME + ".toml")),
        Case("score sheet --out a 300-byte name", 14, ("score", "sheet", "s.toml", "--out", LONG_NAME + ".pdf"), files=s),
        Case("score check a 300-byte name", 14, ("score", "check", LONG_NAME + ".toml")),
        Case("render --template a 5,000-character path", 14, ("render", "--template", LONG_PATH + ".toml")),
        Case("check-manifest a 300-byte name", 14, ("check-manifest", LONG_NAME + ".manifest.json")),
        Case("serve --data a 300-byte name", 14, ("serve", "--port", "0", "--data", LONG_NAME)),
        Case("render --out through a symbolic link loop", 14, (*RENDER_H[:-1], "loop/x"),
             files=lambda f: (f / "loop").symlink_to("loop")),
    ]


# ---------------------------------------------------------------- issue 26: icons


SVG_XLINK = ('<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" '
             'viewBox="0 0 10 10">')
RED = '<rect x="1" y="1" width="8" height="8" fill="#ff0000"/>'


def _drawn(runner: Runner, folder: Path, svg: str, blank: str = SVG_HEAD + "</svg>",
           differ: bool = True) -> tuple[str, str]:
    """Render the kit with ``svg`` as its icon, then with ``blank``: the PDFs must differ
    (``differ``: the icon was drawn) or be the same."""
    pdfs = []
    for number, text in enumerate((svg, blank)):
        where = folder / str(number)
        where.mkdir()
        with_icon(text)(where)
        done = subprocess.run(runner.command(RENDER_T), cwd=where, env=runner.env(), capture_output=True,
                              text=True, timeout=runner.timeout)
        if done.returncode:
            if "Traceback" in done.stderr or "unexpected error" in done.stderr:
                return "traceback", done.stderr.strip().splitlines()[-1][:120]
            return "wrong", f"refused: {done.stderr.strip()[:120]}"
        pdfs.append(next((where / "out").glob("*.pdf")).read_bytes())
    same = _page_content(pdfs[0]) == _page_content(pdfs[1])
    if same == differ:
        return "wrong", "drawn as the blank icon" if differ else "drawn unlike the blank icon"
    return "as expected", "drawn" if differ else "drawn as nothing"


def _page_content(pdf: bytes) -> list[bytes]:
    """The PDF's streams, uncompressed (the file's own ids and dates left out)."""
    import re

    streams = []
    for found in re.finditer(rb"stream\r?\n(.*?)endstream", pdf, re.S):
        try:
            streams.append(zlib.decompress(found.group(1)))
        except zlib.error:
            streams.append(found.group(1))
    return streams


def icon_cases() -> list[Case]:
    def drawn(svg: str, **keys) -> Callable[[Runner, Path], tuple[str, str]]:
        return lambda runner, folder: _drawn(runner, folder, svg, **keys)

    return [
        Case("icon <use href> into <defs>", 15, (), run=drawn(
            SVG_HEAD + f'<defs><g id="a">{RED}</g></defs><use href="#a"/></svg>')),
        Case("icon <use xlink:href> of a <symbol>", 15, (), run=drawn(
            SVG_XLINK + f'<symbol id="s" viewBox="0 0 10 10">{RED}</symbol><use xlink:href="#s" width="10" height="10"/></svg>')),
        Case("icon <switch> (drawing programs' fallback)", 15, (), run=drawn(
            SVG_HEAD + '<switch><foreignObject requiredFeatures="http://www.w3.org/TR/SVG11/feature#Extensibility" '
            f'width="9" height="9"/>{RED}</switch></svg>')),
        Case("icon <a> around a shape", 15, (), run=drawn(SVG_HEAD + f'<a href="https://example.org">{RED}</a></svg>')),
        Case("icon <text>", 15, (), run=drawn(SVG_HEAD + '<text x="1" y="8" font-size="6">Wolf</text></svg>')),
        Case("icon opacity=\"50%\"", 15, (), run=drawn(
            SVG_HEAD + RED.replace("/>", ' opacity="50%"/>') + "</svg>", blank=SVG_HEAD + RED + "</svg>")),
        Case("icon opacity=\"-3\" (drawn as nothing)", 15, (), run=drawn(
            SVG_HEAD + RED.replace("/>", ' opacity="-3"/>') + "</svg>", differ=False)),
        Case("icon path starting with a line-to", 15, RENDER_T, files=with_icon(SVG_HEAD + '<path d="L 5 5 L 1 9"/></svg>')),
        Case("icon <image>", 15, RENDER_T, files=with_icon(SVG_HEAD + '<image href="x.png" width="9" height="9"/></svg>')),
        Case("icon <style> sheet", 15, RENDER_T,
             files=with_icon(SVG_HEAD + '<style>rect{fill:red}</style><rect width="9" height="9"/></svg>')),
        Case("icon gradient fill", 15, RENDER_T, files=with_icon(
            SVG_HEAD + '<defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="9" height="9"/></svg>')),
        Case("icon <use> of itself", 15, RENDER_T, files=with_icon(SVG_HEAD + '<g id="g"><use href="#g"/></g></svg>')),
        Case("icon <use> bomb (10^6 copies)", 15, RENDER_T, files=with_icon(
            SVG_HEAD + f'<defs><g id="a">{RED}</g>' + "".join(
                f'<g id="{chr(98 + i)}">' + f'<use href="#{chr(97 + i)}"/>' * 10 + "</g>" for i in range(6))
            + '</defs><use href="#g"/></svg>')),
        Case("icon <text> with a letter the font lacks", 15, RENDER_T,
             files=with_icon(SVG_HEAD + '<text x="1" y="8" font-size="6">\u2603</text></svg>')),
        Case("icon clip-path", 15, RENDER_T, files=with_icon(
            SVG_HEAD + f'<clipPath id="c"><rect width="3" height="3"/></clipPath><g clip-path="url(#c)">{RED}</g></svg>')),
    ]


# ---------------------------------------------------------------- issue 26: work budgets


def _polygons(folder: Path) -> None:
    import math as m

    points = [[round(30 + 20 * m.cos(2 * m.pi * i / 10_000), 3), round(40 + 20 * m.sin(2 * m.pi * i / 10_000), 3)]
              for i in range(10_000)]
    front = "".join(element("polygon", points=points, fill="black", repeat=1000, step=[0, 0]) for _ in range(3))
    template(front=front, count=1)(folder)


def _cover_pages(folder: Path) -> None:
    item = {"component": "c", "piece": "p", "copy": 1, "face": "front", "x": 10, "y": 10, "w": 1, "h": 1}
    pages = [{"number": n, "kind": "cover", "sheet": 1, "items": [dict(item, copy=i + 1) for i in range(15_000)]}
             for n in (1, 2)]
    pdf = b"%PDF-1.4\n<< /Type /Page >>\n<< /Type /Page >>\n%%EOF\n"
    (folder / "k.pdf").write_bytes(pdf)
    (folder / "k.manifest.json").write_text(json.dumps(
        {"pdf": "k.pdf", "pdf_sha256": hashlib.sha256(pdf).hexdigest(), "duplex": True,
         "page_size_mm": [210, 297], "pages": pages}))


def budget_cases() -> list[Case]:
    return [
        Case("three 10,000-corner polygons repeated 1,000 times", 16, RENDER_T, files=_polygons),
        Case("400 cards each with its own 1,000-byte QR code", 16, RENDER_T, files=template(
            front=element("qr", x=5, y=5, size=50, data="{copy:>0}" + "q" * 990), count=400)),
        Case("20,000 cards each with 1,000 rectangles of its own", 16, RENDER_T, files=template(
            front=element("rect", x="1 + copy * 0.00001", y=1, w=1, h=1, fill="black", repeat=1000, step=[0, 0]),
            count=20_000)),
        Case("a Halali session of 340,000 empty rounds", 16, ("score", "check", "s.json"), error_lines="first",
             files=lambda f: (f / "s.json").write_text(json.dumps(
                 {"game": "halali", "players": ["Ann", "Bob"], "rounds": [{}] * 340_000}, separators=(",", ":")))),
        Case("a Hunting Fever session of 5 days", 16, ("score", "check", "s.toml"), error_lines="first",
             files=_session("s.toml", ["Ann", "Bob", "Cid"], game="hunting-fever", days="\n[[days]]\n" * 5)),
        Case("check-manifest: two 15,000-item cover pages", 16, ("check-manifest", "k.manifest.json"),
             files=_cover_pages),
    ]


# ---------------------------------------------------------------- issue 26: the rest


def _nan_back(runner: Runner, folder: Path) -> tuple[str, str]:
    done = subprocess.run(runner.command(RENDER_H), cwd=folder, env=runner.env(), capture_output=True,
                          text=True, timeout=runner.timeout)
    if done.returncode:
        return "wrong", "render failed"
    manifest = folder / "out" / "halali_en_a4_tiles.manifest.json"
    data = json.loads(manifest.read_text())
    for page in data["pages"]:
        if page["kind"] == "back":
            for item in page["items"]:
                item["x"] = item["y"] = float("nan")
    manifest.write_text(json.dumps(data))
    snapshot = _snapshot(folder)
    done = subprocess.run(runner.command(("check-manifest", str(manifest))), cwd=folder, env=runner.env(),
                          capture_output=True, text=True, timeout=runner.timeout)
    return classify(Case("", 17, ()), done, snapshot, _snapshot(folder), folder, 0)


def _foreign_database(folder: Path) -> None:
    import sqlite3

    (folder / "data").mkdir()
    connection = sqlite3.connect(folder / "data" / "pnp.sqlite3")
    connection.execute("CREATE TABLE photos (name TEXT)")
    connection.commit()
    connection.close()
    _session("s.toml", ["Ann", "Bob"])(folder)


def _composed_name(folder: Path, done) -> str | None:
    text = (folder / "s.toml").read_text(encoding="utf-8")
    return None if "H\u00e9l\u00e8ne" in text else "the name was saved decomposed"


def more_cases() -> list[Case]:
    url = ("export", "hunting-fever", "--format", "tts", "--component", "hunt-starts-here", "--out", "out",
           "--base-url")
    decomposed = "He\u0301le\u0300ne"
    return [
        Case("check-manifest: back boxes at NaN", 17, (), run=_nan_back),
        Case("another program's pnp.sqlite3 (score import)", 17, ("score", "import", "s.toml", "--data", "data"),
             files=_foreign_database),
        Case("another program's pnp.sqlite3 (serve)", 17, ("serve", "--port", "0", "--data", "data"),
             files=_foreign_database),
        Case("tts: 69 cards of 2000 x 4 mm", 17, ("export", "--template", "t.toml", "--format", "tts", "--out", "out"),
             files=_pieces(("p", 69), size="2000x4")),
        Case("--base-url https://", 17, (*url, "https://")),
        Case("--base-url with a space", 17, (*url, "https://example.org/my kit")),
        Case("--base-url with a line break", 17, (*url, "https://example.org/\nkit")),
        Case("--base-url ftp://", 17, (*url, "ftp://example.org/kit")),
        Case("score sheet: a name in decomposed form", 17, ("score", "sheet", "s.toml", "--out", "s.pdf"),
             expect="accepted", files=_session("s.toml", [decomposed, "Bob"])),
        Case("score new: a name in decomposed form", 17,
             ("score", "new", "halali", "--players", f"{decomposed},Bob", "--out", "s.toml"),
             expect="accepted", check=_composed_name),
        Case("render: a template text in decomposed form", 17, RENDER_T, expect="accepted",
             files=template(front=element("text", **(TEXT | {"text": decomposed})))),
    ]


# ---------------------------------------------------------------- the table


OUTCOMES = ("as expected", "traceback", "hang", "wrong")


def table(results: list[tuple[Case, str, str]]) -> str:
    rows = [("finding", "inputs", "as expected", "tracebacks", "hangs", "wrong outputs")]
    totals = [0] * 5
    for finding in sorted({case.finding for case, _, _ in results}):
        mine = [outcome for case, outcome, _ in results if case.finding == finding]
        counts = [len(mine)] + [mine.count(o) for o in OUTCOMES]
        totals = [a + b for a, b in zip(totals, counts)]
        name = FINDINGS.get(finding, "controls (valid input, must work)")
        rows.append((f"{finding}. {name}" if finding else name, *map(str, counts)))
    rows.append(("all", *map(str, totals)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["| " + " | ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i])
                               for i, cell in enumerate(row)) + " |" for row in rows]
    lines.insert(1, "|" + "|".join("-" * (w + 2) for w in widths) + "|")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=str(ROOT / ".venv" / "bin" / "python"))
    parser.add_argument("--pythonpath", default=None, help="run the code in this folder instead")
    parser.add_argument("--only", default=None, help="only the cases whose name contains this")
    parser.add_argument("--timeout", type=float, default=20.0)
    parser.add_argument("--list", action="store_true", help="print every case and its outcome")
    parser.add_argument("--json", type=Path, default=None, help="write the outcomes to this file")
    args = parser.parse_args()
    runner = Runner(args.python, args.pythonpath, args.timeout)
    cases = [c for c in all_cases() if args.only is None or args.only in c.name]
    results = []
    for case in cases:
        started = time.monotonic()
        outcome, detail = run_case(case, runner)
        seconds = time.monotonic() - started
        results.append((case, outcome, detail))
        if args.list:
            print(f"{outcome:<12} {case.finding:>2} {seconds:5.1f} s  {case.name}: {detail}", flush=True)
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps([{"name": c.name, "finding": c.finding, "outcome": o, "detail": d}
                                         for c, o, d in results], ensure_ascii=False, indent=1))



# ---------------------------------------------------------------- issue 40: data files, numbers, manifests


def _fields(pieces: str, files: dict, fields: str = "", computed: str = "", front: str = "") -> Callable[[Path], None]:
    """The small kit with its pieces from a data file, its fields (and computed fields) declared."""
    base = with_data(pieces, files)

    def write(folder: Path) -> None:
        base(folder)
        path = folder / "t.toml"
        text = path.read_text(encoding="utf-8")
        declared = (f"fields = {fields}\n" if fields else "") + (f"computed = {computed}\n" if computed else "")
        text = text.replace("pieces = ", declared + "pieces = ", 1)
        if front:
            text = text.replace("\n[[components.front]]", "\n" + front + "\n[[components.front]]", 1)
        path.write_text(text, encoding="utf-8")

    return write


def _csv(body: str | bytes, fields: str = "", computed: str = "", front: str = "") -> Callable[[Path], None]:
    data = body.encode("utf-8") if isinstance(body, str) else body
    return _fields('"c.csv"', {"c.csv": data}, fields, computed, front)


SHEET_HEAD = (b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
              b'<row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c><c r="B1" t="inlineStr"><is><t>v</t></is>'
              b'</c></row>')
SHEET_TAIL = b"</sheetData></worksheet>"


def _sheet(rows: bytes, strings: bytes = b"", fields: str = '{ v = "str?" }') -> Callable[[Path], None]:
    return _fields('"d.xlsx"', {"d.xlsx": _xlsx(SHEET_HEAD + rows + SHEET_TAIL, strings)}, fields)


def _card(row: int, value: bytes = b"") -> bytes:
    return (b'<row r="%d"><c r="A%d" t="inlineStr"><is><t>c%d</t></is></c>' % (row, row, row)) + value + b"</row>"


def _zip(parts: dict[str, bytes], method: int | None = None) -> bytes:
    """An archive of the parts given, as given (names twice, other packing methods)."""
    import io
    import warnings
    import zipfile

    data = io.BytesIO()
    with warnings.catch_warnings(), zipfile.ZipFile(data, "w", method or zipfile.ZIP_DEFLATED) as archive:
        warnings.simplefilter("ignore")   # a name given twice, on purpose
        for name, content in parts.items():
            archive.writestr(name.split("#")[0], content)
    return data.getvalue()


WORKBOOK = (b'<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.'
            b'openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/>'
            b'</sheets></workbook>')


def _rels(target: bytes) -> bytes:
    return (b'<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship '
            b'Id="rId1" Target="' + target + b'"/></Relationships>')


def _book(extra: dict[str, bytes] | None = None, method: int | None = None, target: bytes = b"worksheets/sheet1.xml",
          sheet: bytes = SHEET_HEAD + _card(2) + SHEET_TAIL, workbook: bytes = WORKBOOK) -> Callable[[Path], None]:
    parts = {"xl/workbook.xml": workbook, "xl/_rels/workbook.xml.rels": _rels(target), "xl/worksheets/sheet1.xml": sheet,
             **(extra or {})}
    return _fields('"d.xlsx"', {"d.xlsx": _zip(parts, method)}, '{ v = "str?" }')


def _lying_size() -> bytes:
    """A sheet whose header says it unpacks to 200 bytes; it unpacks to 40 MB."""
    import struct

    sheet = SHEET_HEAD + _card(2) + b"<x/>" * 10_000_000 + SHEET_TAIL
    data = bytearray(_zip({"xl/workbook.xml": WORKBOOK, "xl/_rels/workbook.xml.rels": _rels(b"worksheets/sheet1.xml"),
                           "xl/worksheets/sheet1.xml": sheet}))
    for signature, at in ((b"PK\x03\x04", 22), (b"PK\x01\x02", 24)):
        start = 0
        while True:
            start = data.index(signature, start)
            if b"sheet1.xml" in data[start:start + 80]:
                break
            start += 4
        data[start + at:start + at + 4] = struct.pack("<I", 200)
    return bytes(data)


def _many_parts() -> bytes:
    parts = {"xl/workbook.xml": WORKBOOK, "xl/_rels/workbook.xml.rels": _rels(b"worksheets/sheet1.xml"),
             "xl/worksheets/sheet1.xml": SHEET_HEAD + _card(2) + SHEET_TAIL}
    parts.update({f"xl/media/i{n}.bin": b"" for n in range(12_000)})
    return _zip(parts, method=0)


def _many_sheets() -> bytes:
    names = b"".join(b'<sheet name="Sheet %d" sheetId="%d" r:id="rId1"/>' % (n, n) for n in range(5000))
    workbook = WORKBOOK.replace(b'<sheet name="S" sheetId="1" r:id="rId1"/>', names)
    return _zip({"xl/workbook.xml": workbook, "xl/_rels/workbook.xml.rels": _rels(b"worksheets/sheet1.xml"),
                 "xl/worksheets/sheet1.xml": SHEET_HEAD + _card(2) + SHEET_TAIL})


def _styled_empty_cells() -> bytes:
    """What a spreadsheet saves for formatted, empty cells: 300 rows, each with 2,000 empty styled cells."""
    from pnp.template.data_files import column_letter

    empty = b"".join(b'<c r="%s%%d" s="1"/>' % column_letter(n).encode() for n in range(2, 2002))
    rows = b"".join(_card(r, empty % ((r,) * 2000)) for r in range(2, 302))
    return _xlsx(SHEET_HEAD + rows + SHEET_TAIL)


def _new_then_render(runner: Runner, folder: Path, name: str) -> tuple[str, str]:
    """pnp new NAME, then its template rendered in French on US Letter: both must work."""
    for argv in (("new", name), ("render", "--template", f"{name}/{name}.toml", "--lang", "fr", "--paper", "letter",
                                 "--out", "out")):
        done = subprocess.run(runner.command(argv), cwd=folder, env=runner.env(), capture_output=True, text=True,
                              timeout=runner.timeout)
        if "Traceback" in done.stderr or "unexpected error" in done.stderr:
            return "traceback", done.stderr.strip().splitlines()[-1][:120]
        if done.returncode:
            return "wrong", f"{argv[0]} refused a name pnp new takes: {done.stderr.strip()[:100]}"
    return "as expected", "rendered"


def _no_folder_on_the_alignment_sheet(runner: Runner, folder: Path) -> tuple[str, str]:
    """A template kit rendered from its absolute path: its alignment sheet names the template's file,
    never the folders above it (a page meant to be shared)."""
    import pypdf

    home = folder / "home" / "ada-lovelace" / "games"
    home.mkdir(parents=True)
    back = element("rect", x=0, y=0, w="w", h="h", fill="black").replace("components.front", "components.back")
    template(front=element("text", **TEXT) + back)(home)   # two-sided: the kit ends with its alignment sheet
    elsewhere = folder / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run(runner.command(("render", "--template", str(home / "t.toml"), "--out", "out")),
                          cwd=elsewhere, env=runner.env(), capture_output=True, text=True, timeout=runner.timeout)
    if done.returncode:
        return "wrong", f"render failed: {done.stderr.strip()[:100]}"
    pdf = pypdf.PdfReader(next((elsewhere / "out").glob("*.pdf")))
    text = " ".join(page.extract_text() for page in pdf.pages[-2:])
    if "ada-lovelace" in text or str(folder) in text:
        return "wrong", "the alignment sheet prints the template's folders"
    return ("as expected", "names t.toml") if "t.toml" in text else ("wrong", "the sheet names no template")


def _forged(change: Callable[[dict], None] | tuple[str, str], cutter: bool = False) -> Callable[[Runner, Path], tuple[str, str]]:
    """Render a kit, change its manifest (a function of the parsed manifest, or a text replacement),
    and check it: one Error: line, exit 1, nothing written."""
    def run(runner: Runner, folder: Path) -> tuple[str, str]:
        import re

        argv = (*RENDER_H, "--cutter", "silhouette") if cutter else RENDER_H
        done = subprocess.run(runner.command(argv), cwd=folder, env=runner.env(), capture_output=True, text=True,
                              timeout=runner.timeout)
        if done.returncode:
            return "wrong", "render failed"
        manifest = folder / "out" / "halali_en_a4_tiles.manifest.json"
        text = manifest.read_text()
        if isinstance(change, tuple):
            text = re.sub(change[0], change[1], text, count=1)
        else:
            data = json.loads(text)
            change(data)
            text = json.dumps(data)
        manifest.write_text(text)
        snapshot = _snapshot(folder)
        done = subprocess.run(runner.command(("check-manifest", str(manifest))), cwd=folder, env=runner.env(),
                              capture_output=True, text=True, timeout=runner.timeout)
        case = Case("", 21, (), check=lambda f, d: _no_raw_controls(f, d) or (
            "a line of more than 400 characters" if len(d.stderr) > 400 else None))
        return classify(case, done, snapshot, _snapshot(folder), folder, 0)

    return run


def _first_front(data: dict) -> dict:
    return next(p for p in data["pages"] if p["kind"] == "front")


def _item(data: dict) -> dict:
    return _first_front(data)["items"][0]


def _json_numbers(folder: Path, done) -> str | None:
    """The manifest holds the data file's numbers, as JSON (no NaN, no Infinity)."""
    problem = _nan_free_manifest(folder, done)
    if problem:
        return problem
    manifest = json.loads(next(folder.rglob("*.manifest.json")).read_text())
    found = sorted(i["v"] for p in manifest["pages"] for i in p["items"] if i["face"] == "front" and "v" in i)
    return None if found == [-1000000, 1e-300, 1000000] else f"the manifest holds {found}"


def issue_40_cases() -> list[Case]:
    """Data files read within bounds, numbers from every source checked alike, expression functions
    and formats on load, forged manifests, files a spreadsheet reads otherwise, pnp new's names,
    icon shapes and the alignment sheet (issue 40; none of these is one of the issue's own examples)."""
    return data_structure_cases() + number_cases() + expression_cases() + forged_manifest_cases() \
        + spreadsheet_reading_cases() + new_icon_alignment_cases()


def data_structure_cases() -> list[Case]:
    import zipfile

    row = _card(2)
    return [
        Case("xlsx 300 rows of 2,000 styled empty cells (control)", 18, RENDER_T, expect="accepted",
             files=_fields('"d.xlsx"', {"d.xlsx": _styled_empty_cells()}, '{ v = "str?" }')),
        Case("xlsx a cell's text nested 60 deep", 18, RENDER_T, files=_sheet(
            b'<row r="2"><c r="A2" t="inlineStr"><is>' + b"<r>" * 60 + b"<t>x</t>" + b"</r>" * 60 + b"</is></c></row>")),
        Case("xlsx 3,000,001 elements in a row's extLst", 18, RENDER_T, files=_sheet(
            _card(2) + b'<row r="3"><extLst>' + b"<x/>" * 3_000_001 + b"</extLst></row>")),
        Case("xlsx a sheet that unpacks past its declared size", 18, RENDER_T,
             files=_fields('"d.xlsx"', {"d.xlsx": _lying_size()}, '{ v = "str?" }')),
        Case("xlsx a sheet packed with bzip2", 18, RENDER_T, files=_book(method=zipfile.ZIP_BZIP2)),
        Case("xlsx 12,000 parts", 18, RENDER_T, files=_fields('"d.xlsx"', {"d.xlsx": _many_parts()}, '{ v = "str?" }')),
        Case("xlsx 25,000 rows of cards", 18, RENDER_T, files=_sheet(b"".join(_card(r) for r in range(2, 25_002)))),
        Case("xlsx an inline text of 30,000 characters", 18, RENDER_T, files=_sheet(
            _card(2, b'<c r="B2" t="inlineStr"><is><t>' + b"x" * 30_000 + b"</t></is></c>"))),
        Case("xlsx a shared text of 50,000 characters used by a cell", 18, RENDER_T, files=_sheet(
            _card(2, b'<c r="B2" t="s"><v>0</v></c>'),
            b'<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><si><t>' + b"y" * 50_000
            + b"</t></si></sst>")),
        Case("xlsx a cell named A99999999", 18, RENDER_T, files=_sheet(row + b'<row r="3"><c r="A99999999"><v>1</v></c></row>')),
        Case("xlsx row 1,048,577", 18, RENDER_T, files=_sheet(b'<row r="1048577"><c><v>1</v></c></row>')),
        Case("xlsx a sheet whose relationship leads out of the archive", 18, RENDER_T,
             files=_book(target=b"../../../../etc/passwd")),
        Case("xlsx a sheet whose relationship names no part", 18, RENDER_T, files=_book(target=b"worksheets/nope.xml")),
        Case("xlsx 5,000 sheets, the one asked for missing", 18, RENDER_T,
             files=_fields('{ file = "d.xlsx", sheet = "Deck" }', {"d.xlsx": _many_sheets()}, '{ v = "str?" }')),
        Case("xlsx a number cell holding a word, its sheet named with 10,000 characters", 18, RENDER_T, files=_book(
            workbook=WORKBOOK.replace(b'name="S"', b'name="' + b"N" * 10_000 + b'"'),
            sheet=SHEET_HEAD + _card(2, b'<c r="B2"><v>x</v></c>') + SHEET_TAIL)),
        Case("xlsx a DOCTYPE without entities", 18, RENDER_T, files=_book(
            sheet=b'<?xml version="1.0"?><!DOCTYPE worksheet>' + SHEET_HEAD + row + SHEET_TAIL)),
        Case("xlsx a sheet that says UTF-16 and is not", 18, RENDER_T, files=_book(
            sheet=b'<?xml version="1.0" encoding="UTF-16"?>' + SHEET_HEAD + row + SHEET_TAIL)),
        Case("csv a row of 2 million empty cells (control)", 18, RENDER_T, expect="accepted",
             files=_csv("id\ncard" + "," * 2_000_000 + "\n")),
        Case("csv a value in column ALM", 18, RENDER_T, files=_csv("id\ncard" + "," * 1000 + "x\n")),
        Case("csv 20,001 rows of cards", 18, RENDER_T, files=_csv("id\n" + "".join(f"c{n}\n" for n in range(20_001)))),
        Case("csv a quoted cell of 200,000 characters and line breaks", 18, RENDER_T,
             files=_csv('id,v\ncard,"' + "line\n" * 40_000 + '"\n', '{ v = "str" }')),
        Case("csv a NUL inside a cell", 18, RENDER_T, files=_csv("id,v\ncard,a\x00b\n", '{ v = "str" }')),
        Case("csv saved as UTF-16", 18, RENDER_T, files=_csv("id,v\ncard,1\n".encode("utf-16"), '{ v = "int" }')),
        Case("csv with old Mac line ends (control)", 18, RENDER_T, expect="accepted",
             files=_csv("id,v\rcard,1\rother,2\r", '{ v = "int" }')),
    ]


def number_cases() -> list[Case]:
    num, whole = '{ v = "num" }', '{ v = "int" }'
    return [
        Case("csv num cell -inf", 19, RENDER_T, files=_csv("id,v\ncard,-inf\n", num)),
        Case("csv num cell NaN", 19, RENDER_T, files=_csv("id,v\ncard,NaN\n", num)),
        Case("csv num cell 1_000", 19, RENDER_T, files=_csv("id,v\ncard,1_000\n", num)),
        Case("csv num cell 1000000.5", 19, RENDER_T, files=_csv("id,v\ncard,1000000.5\n", num)),
        Case("csv int cell 1e6", 19, RENDER_T, files=_csv("id,v\ncard,1e6\n", whole)),
        Case("csv int cell of 40 digits", 19, RENDER_T, files=_csv("id,v\ncard," + "9" * 40 + "\n", whole)),
        Case("xlsx number cell 1E+308 for a num field", 19, RENDER_T, files=_sheet(
            _card(2, b'<c r="B2"><v>1E+308</v></c>'), fields=num)),
        Case("csv count 20001", 19, RENDER_T, files=_csv("id,count\ncard,20001\n")),
        Case("csv count of 20 digits", 19, RENDER_T, files=_csv("id,count\ncard," + "9" * 20 + "\n")),
        Case("computed v * v * v past the limit", 19, RENDER_T,
             files=_csv("id,v\ncard,1000\n", whole, '{ big = "v * v * v" }')),
        Case("computed 1 / (copy - copy)", 19, RENDER_T,
             files=_csv("id,v,count\ncard,1,500\n", whole, '{ r = "1 / (copy - copy)" }')),
        Case("computed by copy, three rows of 20,000 copies", 19, RENDER_T,
             files=_csv("id,count\n" + "".join(f"c{n},20000\n" for n in range(3)), "", '{ serial = "copy * 2" }')),
        Case("TOML piece num field 1e300", 19, RENDER_T, files=template(
            front=element("text", **TEXT), component='fields = { v = "num" }', piece="v = 1e300")),
        Case("TOML piece int field -2^63", 19, RENDER_T, files=template(
            front=element("text", **TEXT), component='fields = { v = "int" }', piece="v = -9223372036854775808")),
        Case("--set side=1000000 squared in a computed field", 19, (*RENDER_T, "--set", "side=1000000"),
             files=_csv("id,v\ncard,1\n", whole, '{ area = "side * side" }')),
        Case("data file numbers at the limits reach the manifest as JSON (control)", 19, RENDER_T, expect="accepted",
             files=_csv("id,v\na,1000000\nb,-1000000\nc,1e-300\n", num), check=_json_numbers),
    ]


def expression_cases() -> list[Case]:
    t = template
    text = lambda **k: element("text", **(TEXT | k))  # noqa: E731
    rect = lambda **k: element("rect", **(dict(x=2, y=2, w=10, h=10, fill="black") | k))  # noqa: E731
    return [
        Case("computed max(1)", 20, RENDER_T, files=_csv("id,v\ncard,1\n", '{ v = "int" }', '{ m = "max(1)" }')),
        Case("x = min()", 20, RENDER_T, files=t(front=rect(x="min()"))),
        Case("placeholder {min(copy)}", 20, RENDER_T, files=t(front=text(text="{min(copy)}"))),
        Case("repeat max(copy)", 20, RENDER_T, files=t(front=rect(repeat="max(copy)", step=[1, 0]))),
        Case("size [min(side), 10]", 20, RENDER_T, files=t(front=rect(), size=["min(side)", "10"])),
        Case("seams x = [max(1)]", 20, RENDER_T, files=t(front=rect(), size="300x300", component='seams = { x = ["max(1)"] }')),
        Case("text {id:+d}", 20, RENDER_T, files=t(front=text(text="{id:+d}"))),
        Case("text {copy:c}", 20, RENDER_T, files=t(front=text(text="{copy:c}"))),
        Case("text {copy:.3}", 20, RENDER_T, files=t(front=text(text="{copy:.3}"))),
        Case("plural min(copy)", 20, RENDER_T, files=t(front=text(text="x", plural="min(copy)"))),
        Case("text {copy:,.2f} and {id:>6} (control)", 20, RENDER_T, expect="accepted",
             files=t(front=text(text="{copy:,.2f} {id:>6}"))),
    ]


def forged_manifest_cases() -> list[Case]:
    def case(name: str, change, cutter: bool = False) -> Case:
        return Case(f"check-manifest: {name}", 21, (), run=_forged(change, cutter))

    return [
        case("an item's x of 1e400", ('"x": [0-9.]+', '"x": 1e400')),
        case("a copy of 5,000 digits", ('"copy": [0-9]+', '"copy": 1' + "0" * 4999)),
        case("page_size_mm \"a4\"", lambda m: m.update(page_size_mm="a4")),
        case("page_size_mm of a 2 m sheet", lambda m: m.update(page_size_mm=[2000, 2000])),
        case("a cut file ../x.svg", lambda m: _first_front(m).update(cut_file="../x.svg"), cutter=True),
        case("a cut file named as a list", lambda m: _first_front(m).update(cut_file=["x.svg"]), cutter=True),
        case("mark_inset_mm 31", lambda m: m["cutter"].update(mark_inset_mm=31), cutter=True),
        case("mark_inset_mm null", lambda m: m["cutter"].update(mark_inset_mm=None), cutter=True),
        case("a cutter cricut", lambda m: m["cutter"].update(kind="cricut"), cutter=True),
        case("bleed_mm -1", lambda m: m.update(bleed_mm=-1)),
        case("back_offset_mm [1e308, 0]", lambda m: m.update(back_offset_mm=[1e308, 0])),
        case("pages as a table", lambda m: m.update(pages={"1": {}})),
        case("a page numbered \"1\"", lambda m: m["pages"][0].update(number="1")),
        case("6,000 blank pages", lambda m: m.update(pages=[{"number": n, "kind": "blank", "items": []}
                                                             for n in range(1, 6001)])),
        case("a component with an escape sequence", lambda m: _item(m).update(component="\x1b]0;pwned\x07tiles")),
        case("a fold line of words", lambda m: _first_front(m).update(fold_line=["a", "b", "c", "d"])),
        case("a rotation of 45", lambda m: _item(m).update(rotation=45)),
        case("a box 0 mm wide", lambda m: _item(m).update(w=0)),
        case("a face sideways", lambda m: _item(m).update(face="sideways")),
    ]


def spreadsheet_reading_cases() -> list[Case]:
    def book(parts: dict[str, bytes]) -> Callable[[Path], None]:
        return _fields('"d.xlsx"', {"d.xlsx": _zip(parts)}, '{ v = "str?" }')

    base = {"xl/workbook.xml": WORKBOOK, "xl/_rels/workbook.xml.rels": _rels(b"worksheets/sheet1.xml"),
            "xl/worksheets/sheet1.xml": SHEET_HEAD + _card(2) + SHEET_TAIL}
    return [
        Case("csv text after a closing quote", 22, RENDER_T, files=_csv('id,v\n"card"s,1\n', '{ v = "int" }')),
        Case("csv a first row with as many , as ;", 22, RENDER_T, files=_csv("id;v,w\ncard;1,2\n")),
        Case("csv an open quote in the header", 22, RENDER_T, files=_csv('"id,v\ncard,1\n', '{ v = "int" }')),
        Case("csv an open quote on the last row", 22, RENDER_T, files=_csv('id,v\ncard,1\nother,"2\n', '{ v = "str" }')),
        Case("xlsx row 2 given twice", 22, RENDER_T, files=_sheet(_card(2) + _card(2))),
        Case("xlsx cells B then A", 22, RENDER_T, files=_sheet(
            b'<row r="2"><c r="B2" t="inlineStr"><is><t>x</t></is></c><c r="A2" t="inlineStr"><is><t>c</t></is></c></row>')),
        Case("xlsx a cell with two values", 22, RENDER_T, files=_sheet(_card(2, b'<c r="B2"><v>1</v><v>2</v></c>'))),
        Case("xlsx a true-or-false cell holding 2", 22, RENDER_T, files=_sheet(_card(2, b'<c r="B2" t="b"><v>2</v></c>'))),
        Case("xlsx a number cell holding 12abc", 22, RENDER_T, files=_sheet(_card(2, b'<c r="B2"><v>12abc</v></c>'))),
        Case("xlsx an inline text and a value in one cell", 22, RENDER_T, files=_sheet(
            _card(2, b'<c r="B2" t="inlineStr"><v>1</v><is><t>x</t></is></c>'))),
        Case("xlsx a shared text numbered ' 3x'", 22, RENDER_T, files=_sheet(_card(2, b'<c r="B2" t="s"><v> 3x</v></c>'))),
        Case("xlsx xl/workbook.xml and XL/WORKBOOK.XML", 22, RENDER_T,
             files=book({**base, "XL/WORKBOOK.XML": WORKBOOK})),
        Case("xlsx the sheet part twice under one name", 22, RENDER_T,
             files=book({**base, "xl/worksheets/sheet1.xml#2": SHEET_HEAD + _card(3) + SHEET_TAIL})),
    ]


def new_icon_alignment_cases() -> list[Case]:
    return [
        Case("pnp new a 25-letter name", 23, ("new", "m" * 25)),
        Case("pnp new 24 wide letters, then render it", 23, (), run=lambda r, f: _new_then_render(r, f, "w" * 24)),
        Case("pnp new w-w-w... of 24, then render it", 23, (), run=lambda r, f: _new_then_render(r, f, "w-" * 11 + "ww")),
        Case("pnp new common, then render it", 23, (), run=lambda r, f: _new_then_render(r, f, "common")),
        Case("icon polygon of 3 numbers", 23, RENDER_T, files=with_icon(SVG_HEAD + '<polygon points="1 2 3"/></svg>')),
        Case("icon polyline of one point", 23, RENDER_T, files=with_icon(SVG_HEAD + '<polyline points="1,2"/></svg>')),
        Case("icon polygon points with a word", 23, RENDER_T,
             files=with_icon(SVG_HEAD + '<polygon points="1,2 3,four 5,6"/></svg>')),
        Case("icon transform rotate(1, 2)", 23, RENDER_T, files=with_icon(
            SVG_HEAD + f'<g transform="rotate(1, 2)">{RED}</g></svg>')),
        Case("icon transform translate()", 23, RENDER_T, files=with_icon(
            SVG_HEAD + f'<g transform="translate()">{RED}</g></svg>')),
        Case("the alignment sheet of a template given by its absolute path", 23, (),
             run=_no_folder_on_the_alignment_sheet),
    ]

if __name__ == "__main__":
    main()