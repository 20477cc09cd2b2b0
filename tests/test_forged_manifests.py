"""``pnp check-manifest`` on a forged manifest: one line, whatever the value's type or size,
with the limits ``pnp render`` has (the PDF left as it was, so only the manifest is wrong)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pnp.cli import app

KIT = "halali_en_a4_tiles"


@pytest.fixture(scope="module")
def rendered(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("kit")
    result = CliRunner().invoke(app, ["render", "halali", "--component", "tiles", "--cutter", "silhouette",
                                      "--out", str(folder)])
    assert result.exit_code == 0, result.output
    return folder


def checked(folder: Path):
    result = CliRunner().invoke(app, ["check-manifest", str(folder / f"{KIT}.manifest.json")])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def forged(rendered: Path, tmp_path: Path, change) -> Path:
    """The kit's folder copied, its manifest changed by ``change`` (of the parsed manifest, or
    of its text for what JSON cannot carry as a Python value)."""
    folder = tmp_path / "kit"
    shutil.copytree(rendered, folder)
    path = folder / f"{KIT}.manifest.json"
    text = path.read_text(encoding="utf-8")
    if isinstance(change, tuple):
        pattern, replacement = change
        changed = re.sub(pattern, replacement, text, count=1)
        assert changed != text, pattern
        path.write_text(changed, encoding="utf-8")
    else:
        manifest = json.loads(text)
        change(manifest)
        path.write_text(json.dumps(manifest), encoding="utf-8")
    return folder


def front_item(manifest: dict) -> dict:
    return next(page["items"][0] for page in manifest["pages"] if page["kind"] == "front" and page["items"])


def cut_page(manifest: dict) -> dict:
    return next(page for page in manifest["pages"] if "cut_file" in page)


FORGERIES = [
    (("\"mark_inset_mm\": 10.0", '"mark_inset_mm": 1' + "0" * 400), "the number 100000... (401 digits) is past the limit"),
    (('"x": [0-9.]+', '"x": 1' + "0" * 400), "(401 digits) is past the limit of 1000000 a manifest holds"),
    (('"x": [0-9.]+', '"x": 1' + "0" * 5000), "(5001 digits) is past the limit"),
    (('"x": [0-9.]+', '"x": 1e400'), "the number 1e400 is not finite"),
    (('"y": [0-9.]+', '"y": -1e300'), "the number -1e300 is past the limit"),
    (lambda m: m.update(page_size_mm=[210, 297, 5]), "page_size_mm is not the size of a paper pnp prints on"),
    (lambda m: m.update(page_size_mm=[1000, 1000]), "page_size_mm is not the size of a paper"),
    (lambda m: m.update(page_size_mm="a4"), "page_size_mm is not the size of a paper"),
    (lambda m: cut_page(m).update(cut_file="x\0.svg"), "its cut_file is not the name of an .svg file"),
    (lambda m: cut_page(m).update(cut_file="../../etc/passwd"), "its cut_file is not the name of an .svg file"),
    (lambda m: cut_page(m).update(cut_file=["a.svg"]), "its cut_file is not the name of an .svg file"),
    (lambda m: m["cutter"].update(mark_inset_mm=2), "cutter.mark_inset_mm is not from 5.5 to 30 mm"),
    (lambda m: m["cutter"].update(mark_inset_mm=-50), "cutter.mark_inset_mm is not from 5.5 to 30 mm"),
    (lambda m: m["cutter"].update(mark_inset_mm="10"), "cutter.mark_inset_mm is not from 5.5 to 30 mm"),
    (lambda m: m["cutter"].update(kind="cricut"), "cutter does not name a cutting machine pnp prints for"),
    (lambda m: m.update(cutter=[1, 2]), "cutter does not name a cutting machine"),
    (lambda m: m.update(bleed_mm=1e6), "bleed_mm is not from 0 to 10 mm"),
    (lambda m: m.update(back_offset_mm=[0]), "back_offset_mm is not two numbers of mm from -20 to 20"),
    (lambda m: m.update(duplex="yes"), "duplex is not true or false"),
    (lambda m: m.update(pages={}), "pages is not a list of 1 to 5,000 pages"),
    (lambda m: m.update(pages=[]), "pages is not a list of 1 to 5,000 pages"),
    (lambda m: m["pages"].__setitem__(0, "cover"), "page 1: not a JSON object"),
    (lambda m: m["pages"][0].update(number=1.5), "page 1: its number is not a whole number"),
    (lambda m: m["pages"][0].update(kind="sideways"), "page 1: its kind is not one of cover, front, back"),
    (lambda m: m["pages"][2].update(items={"a": 1}), "page 3: its items are not a list"),
    (lambda m: m["pages"][2].update(fold_line=["a", 1, 2, 3]), "page 3: its fold_line is not four numbers"),
    (lambda m: front_item(m).update(copy=[1]), "page 5: item 1: its copy is not a whole number from 1 to 20,000"),
    (lambda m: front_item(m).update(copy=True), "item 1: its copy is not a whole number"),
    (lambda m: front_item(m).update(component="\x1b[2Jtiles"), "item 1: its component is not an id"),
    (lambda m: front_item(m).update(piece=None), "item 1: its piece is not an id"),
    (lambda m: front_item(m).update(face="side"), "item 1: its face is not front or back"),
    (lambda m: front_item(m).update(w=0), "item 1: its w is not a size of mm above 0, at most 2,000"),
    (lambda m: front_item(m).update(h="23"), "item 1: its h is not a size of mm"),
    (lambda m: front_item(m).update(rotation=45), "item 1: its rotation is not 0, 90, 180 or 270"),
    (lambda m: front_item(m).update(hidden="no"), "item 1: its hidden is not true or false"),
]


@pytest.mark.parametrize("change, message", FORGERIES, ids=[m for _, m in FORGERIES])
def test_a_forged_manifest_is_refused_in_one_line(rendered, tmp_path, change, message):
    result = checked(forged(rendered, tmp_path, change))
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert result.exit_code == 1 and len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    assert message in lines[0], lines[0]
    assert len(lines[0]) < 400 and "\x1b" not in lines[0]


def test_every_manifest_pnp_writes_passes_its_form_check(rendered, tmp_path):
    from typer.testing import CliRunner as Runner

    from helpers import score_host_app

    assert checked(rendered).exit_code == 0
    for args in (["calibrate", "--paper", "letter"], ["render", "card-hunter", "--fold", "--paper", "letter"],
                 ["render", "halali", "--no-duplex", "--bleed", "10", "--back-offset", "-20,20"]):
        out = tmp_path / args[1]
        assert CliRunner().invoke(app, [*args, "--out", str(out)]).exit_code == 0
        for manifest in out.glob("*.manifest.json"):
            result = CliRunner().invoke(app, ["check-manifest", str(manifest)])
            assert result.exit_code == 0, result.output
    session = tmp_path / "s.toml"
    session.write_text('game = "halali"\nplayers = ["Ann", "Bob"]\n')
    assert Runner().invoke(score_host_app(), ["score", "sheet", str(session)]).exit_code == 0
    assert CliRunner().invoke(app, ["check-manifest", str(tmp_path / "s.manifest.json")]).exit_code == 0
