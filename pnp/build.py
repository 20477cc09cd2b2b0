"""Render kits to files: one PDF and its manifest per game, language and paper."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import NamedTuple

from pnp.errors import OutputError, PnpError
from pnp.i18n import LANGUAGES
from pnp.layout.plan import plan_kit
from pnp.model import Game, PrintOptions
from pnp.render.document import render_kit
from pnp.units import PAPERS, paper_size


class Written(NamedTuple):
    pdf: Path
    manifest: Path
    pages: int
    bytes: int


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomically(path: Path, data: bytes) -> None:
    """Write to a temporary file beside ``path``, then rename it into place."""
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    except OSError as exc:
        raise OutputError(f"cannot write to {path.parent}: {exc.strerror}") from None
    try:
        # mkstemp makes the file private; give it the usual permissions.
        os.chmod(tmp, 0o666 & ~_umask())
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.replace(tmp, path)
    except OSError as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise OutputError(f"cannot write {path}: {exc.strerror}") from None


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
    if options.bleed < 0:
        raise PnpError(f"bleed must be 0 mm or more, got {options.bleed:g}")
    if options.lang not in LANGUAGES:
        raise PnpError(f"unknown language {options.lang!r}; expected one of: {', '.join(LANGUAGES)}")
    size = paper_size(options.paper)
    plan = plan_kit(game, options, size, components)
    return render_kit(plan)


def render_game(game: Game, options: PrintOptions, out_dir: Path,
                components: list[str] | None = None) -> Written:
    """Render one kit and write its PDF and manifest; nothing is written on failure."""
    pdf, manifest = render_to_memory(game, options, components)
    name = kit_name(game, options, components)
    pdf_path = Path(out_dir) / f"{name}.pdf"
    manifest_path = Path(out_dir) / f"{name}.manifest.json"
    manifest = {**manifest, "pdf": pdf_path.name}
    write_atomically(pdf_path, pdf)
    write_atomically(manifest_path, manifest_text(manifest).encode())
    return Written(pdf_path, manifest_path, len(manifest["pages"]), len(pdf))


def build_matrix(games: list[Game], base: PrintOptions) -> list[tuple[Game, PrintOptions]]:
    """Every game in every language on every paper."""
    return [(game, base._replace(lang=lang, paper=paper))
            for game in games for lang in LANGUAGES for paper in PAPERS]
