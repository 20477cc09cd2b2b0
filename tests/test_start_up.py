"""What ``pnp render`` loads: only what it uses.

Not a timing: a fresh process runs the command and lists the modules it has loaded when it
ends. Loading is most of a small kit's time (a deck of 144 different cards: about twice the
work of drawing it), so a module imported at the top of a module every render loads, but used
only by other commands or by kits that have what this deck has not (pictures, markup in a
text, a cutting machine), turns this red: import it inside the function that needs it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Modules a render of a plain deck (no pictures, no markup, no cutter, no manifest read back)
#: never uses, each with who does; a name stands for its package and everything in it.
NOT_FOR_A_PLAIN_DECK = {
    "concurrent.futures": "the threads that decode a kit's pictures",
    "logging": "concurrent.futures",
    "PIL.PngImagePlugin": "decoding a picture",
    # reportlab imports PIL.Image as it loads; pnp's entry point defers its code to its first use.
    "PIL._imaging": "a kit with pictures (PIL.Image)",
    "PIL.ExifTags": "a kit with pictures (PIL.Image)",
    "threading": "pnp serve, pnp watch, the threads that decode pictures",
    "pnp.layout.rich_text": "a text with markup or inline icons",
    "pnp.layout.print_order": "the checks of a manifest read back (pnp check-manifest, preflight)",
    "pnp.template.data_files": "a template whose pieces come from a data file",
    "pnp.layout.boards": "a board split over sheets",
    "pnp.layout.cutter": "a cutting machine (--cutter)",
    "pnp.render.pictures": "a kit with pictures",
    "pnp.template.pictures": "a kit with pictures",
    "pnp.template.starter": "pnp new",
    "pnp.cli.score_commands": "pnp score",
    "scoring": "pnp score",
    "pnp.export": "pnp export",
    "pnp.preflight": "pnp preflight",
    "pnp.preview": "pnp watch",
    "pnp.web": "pnp serve",
    "rich": "typer's help pages",
    "importlib.metadata": "(the version is pnp's own constant)",
    "sqlite3": "pnp serve",
    "asyncio": "pnp serve, pnp watch",
    "email": "importlib.metadata, http",
    "zipfile": "importlib.metadata",
    "csv": "data files",
    "multiprocessing": "pnp export",
    "typer": "a command line pnp.cli.quick leaves to typer (--help, a typo, ...)",
    "click": "typer",
}


def loaded_at_start(cwd: Path) -> set[str]:
    """The modules this interpreter loads before any code runs: its site's ``.pth`` files may import
    some (a machine's certificate hook loads zipfile), and those are not pnp's."""
    done = subprocess.run([sys.executable, "-c", "import sys; print(' '.join(sorted(sys.modules)))"],
                          capture_output=True, text=True, cwd=cwd, check=True)
    return set(done.stdout.split())


def modules_loaded_by(*args: str, cwd: Path) -> set[str]:
    """The modules a fresh ``pnp`` process has loaded by the time the command ends, less those the
    interpreter had loaded before it started."""
    script = (
        "import sys\nfrom pnp.__main__ import main\n"
        f"sys.argv = ['pnp', *{list(args)!r}]\n"
        "try:\n    main()\nexcept SystemExit as end:\n"
        "    assert not end.code, end.code\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=cwd, check=False)
    assert done.returncode == 0, done.stderr
    return set(done.stdout.split()) - loaded_at_start(cwd)


def unused(loaded: set[str], unwanted: dict[str, str]) -> list[str]:
    return sorted(f"{module} (for {unwanted[name]})" for module in loaded for name in unwanted
                  if module == name or module.startswith(name + "."))


def test_a_render_of_a_plain_deck_loads_nothing_it_does_not_use(tmp_path):
    sys.path.insert(0, str(ROOT / "bench"))
    from unique_deck import write_template

    template = write_template(tmp_path / "deck", 6)
    loaded = modules_loaded_by("render", "--template", str(template), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert (tmp_path / "out" / "unique-6_en_a4.pdf").is_file()
    assert {"pnp.kit.build", "reportlab.pdfgen.canvas", "pnp.cli.quick"} <= loaded   # the probe saw the render
    assert unused(loaded, NOT_FOR_A_PLAIN_DECK) == []


def test_a_render_in_english_reads_no_french_common_catalog(tmp_path):
    # The kit is checked in both languages from the game's own catalogs; the French common one
    # (some 50 KB of TOML) is read only for what is drawn in French.
    sys.path.insert(0, str(ROOT / "bench"))
    from unique_deck import write_template

    template = write_template(tmp_path / "deck", 6)
    script = ("import sys\nfrom pnp.core import i18n\nimport pnp.__main__ as entry\n"
              f"sys.argv = ['pnp', 'render', '--template', {str(template)!r}, '--out', 'out']\n"
              "try:\n    entry.main()\nexcept SystemExit as end:\n    assert not end.code, end.code\n"
              "read = i18n.common_catalog.cache_info().currsize\n"
              "i18n.common_catalog('en')  # already read: the one catalog read was the English one\n"
              "print(read, i18n.common_catalog.cache_info().currsize)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-2:] == ["1", "1"], done.stdout


def test_the_commands_load_no_library_before_one_runs(tmp_path):
    # `pnp --help`, `pnp score ...`: the library (and reportlab, Pillow) loads inside the command that uses it.
    script = "import sys, pnp.__main__, pnp.cli.commands; print(' '.join(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=tmp_path, check=False)
    loaded = set(done.stdout.split()) - loaded_at_start(tmp_path)
    assert {"pnp.cli.commands", "typer"} <= loaded, done.stderr
    library = {name: "a command that uses it" for name in ("pnp.template", "pnp.layout", "pnp.render", "pnp.kit",
                                                           "scoring", "reportlab", "PIL")}
    assert unused(loaded, library) == []


def test_a_module_loaded_for_nothing_is_named_with_who_uses_it():
    loaded = {"pnp.kit.build", "concurrent.futures.thread", "pnp.webbed", "pnp.web"}
    assert unused(loaded, {"concurrent.futures": "pictures", "pnp.web": "pnp serve"}) == [
        "concurrent.futures.thread (for pictures)", "pnp.web (for pnp serve)"]


def typing_records(root: Path) -> list[str]:
    """The modules under ``root`` that take NamedTuple from typing (each class it makes costs
    about 60 µs more at start-up than pnp.core.records' one, and pnp declares about 170)."""
    import ast

    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "typing" and \
                    any(alias.name == "NamedTuple" for alias in node.names):
                found.append(path.relative_to(root.parent).as_posix())
            elif isinstance(node, ast.Attribute) and node.attr == "NamedTuple" and \
                    isinstance(node.value, ast.Name) and node.value.id == "typing":
                found.append(path.relative_to(root.parent).as_posix())
    return found


def test_pnp_declares_its_records_with_its_own_named_tuple():
    assert typing_records(ROOT / "pnp") == []


def test_a_record_taken_from_typing_is_found(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("from typing import Any, NamedTuple\n")
    (package / "b.py").write_text("import typing\nclass B(typing.NamedTuple):\n    x: int\n")
    (package / "c.py").write_text("from pnp.core.records import NamedTuple\n")
    assert typing_records(package) == ["pkg/a.py", "pkg/b.py"]
