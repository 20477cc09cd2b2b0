"""Render kits to files: one PDF and its manifest per game, language and paper."""

from __future__ import annotations

import json
from pathlib import Path
from typing import NamedTuple

from pnp.errors import OutputError, PnpError
from pnp.files import WriteError, write_files
from pnp.i18n import LANGUAGES
from pnp.layout.plan import plan_kit
from pnp.model import Game, PrintOptions
from pnp.options import checked
from pnp.render.document import render_kit
from pnp.render.fonts import MEASURER
from pnp.units import PAPERS, paper_size


class Written(NamedTuple):
    pdf: Path
    manifest: Path
    pages: int
    bytes: int


def write_atomically(path: Path, data: bytes) -> None:
    """Write one file through :mod:`pnp.files` (temporary file, fsync, rename)."""
    write_outputs({Path(path): data})


def write_outputs(files: dict[Path, bytes]) -> None:
    """Write files that belong together (a PDF and its manifest) as one step."""
    for path in files:
        try:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise OutputError(f"cannot write to {Path(path).parent}: {exc.strerror}") from None
    try:
        write_files(files)
    except WriteError as exc:
        raise OutputError(str(exc)) from None


def manifest_text(manifest: dict) -> str:
    """The manifest as JSON with one piece per line, easy to read and to diff.

    Each line is written by json's C encoder, which an indented dump would not use.
    """
    def dump(value) -> str:
        return json.dumps(value, ensure_ascii=False)

    pages = []
    for page in manifest["pages"]:
        info = ", ".join(f"{dump(k)}: {dump(v)}" for k, v in page.items() if k != "items")
        items = ",\n".join(f"   {dump(item)}" for item in page["items"])
        pages.append(f'  {{{info}, "items": [\n{items}\n  ]}}' if items else f'  {{{info}, "items": []}}')
    fields = [f" {dump(k)}: {dump(v)}" for k, v in manifest.items() if k != "pages"]
    return "{\n" + ",\n".join([*fields, ' "pages": [\n' + ",\n".join(pages) + "\n ]"]) + "\n}\n"


def kit_name(game: Game, options: PrintOptions, components: list[str] | None = None) -> str:
    suffix = "_" + "+".join(components) if components else ""
    return f"{game.id}_{options.lang}_{options.paper}{suffix}"


def render_to_memory(game: Game, options: PrintOptions,
                     components: list[str] | None = None) -> tuple[bytes, dict]:
    options = checked(options)
    size = paper_size(options.paper)
    plan = plan_kit(game, options, size, components, measure=MEASURER)
    return render_kit(plan)


def render_game(game: Game, options: PrintOptions, out_dir: Path,
                components: list[str] | None = None) -> Written:
    """Render one kit and write its PDF and manifest; nothing is written on failure."""
    pdf, manifest = render_to_memory(game, options, components)
    name = kit_name(game, options, components)
    pdf_path = Path(out_dir) / f"{name}.pdf"
    manifest_path = Path(out_dir) / f"{name}.manifest.json"
    manifest = {**manifest, "pdf": pdf_path.name}
    write_outputs({pdf_path: pdf, manifest_path: manifest_text(manifest).encode()})
    return Written(pdf_path, manifest_path, len(manifest["pages"]), len(pdf))


def build_matrix(games: list[Game], base: PrintOptions) -> list[tuple[Game, PrintOptions]]:
    """Every game in every language on every paper."""
    return [(game, base._replace(lang=lang, paper=paper))
            for game in games for lang in LANGUAGES for paper in PAPERS]
