"""A PDF and its manifest are a pair: written together, the manifest naming the PDF's SHA-256."""

from __future__ import annotations

import hashlib
import json
import os

import pytest
from typer.testing import CliRunner

from pnp.cli import app

KIT = "halali_en_a4_tiles"


def run(*args):
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


@pytest.fixture
def kit(tmp_path):
    result = run("render", "halali", "--component", "tiles", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    return tmp_path / f"{KIT}.pdf", tmp_path / f"{KIT}.manifest.json"


def test_the_manifest_carries_the_hash_of_its_pdf(kit):
    pdf, manifest = kit
    data = json.loads(manifest.read_text())
    assert data["pdf"] == pdf.name
    assert data["pdf_sha256"] == hashlib.sha256(pdf.read_bytes()).hexdigest()


def test_a_filled_sheets_manifest_carries_the_hash_too(tmp_path):
    from helpers import score_host_app

    session = tmp_path / "s.toml"
    session.write_text('game = "halali"\nplayers = ["Ann", "Bob"]\n')
    result = CliRunner().invoke(score_host_app(), ["score", "sheet", str(session)])
    assert result.exit_code == 0, result.output
    data = json.loads((tmp_path / "s.manifest.json").read_text())
    assert data["pdf_sha256"] == hashlib.sha256((tmp_path / "s.pdf").read_bytes()).hexdigest()


def test_check_manifest_accepts_a_matching_pair(kit):
    pdf, manifest = kit
    for named in (manifest, pdf):
        result = run("check-manifest", named)
        assert result.exit_code == 0, result.output
        assert pdf.name in result.stdout and result.stderr == ""


@pytest.mark.parametrize("spoil", [
    pytest.param(lambda pdf, manifest: pdf.write_bytes(pdf.read_bytes() + b"%"), id="a changed PDF"),
    pytest.param(lambda pdf, manifest: pdf.unlink(), id="a missing PDF"),
    pytest.param(lambda pdf, manifest: manifest.write_text(
        manifest.read_text().replace('"pdf_sha256": "', '"pdf_sha256": "0')), id="a changed hash"),
    pytest.param(lambda pdf, manifest: manifest.write_text(json.dumps(
        {k: v for k, v in json.loads(manifest.read_text()).items() if k != "pdf_sha256"})), id="no hash"),
    pytest.param(lambda pdf, manifest: manifest.write_text("{not json"), id="not JSON"),
    pytest.param(lambda pdf, manifest: manifest.write_text(json.dumps(
        {**json.loads(manifest.read_text()), "pdf": "../../etc/passwd"})), id="a PDF elsewhere"),
])
def test_check_manifest_refuses_a_pair_that_does_not_match(kit, spoil):
    pdf, manifest = kit
    spoil(pdf, manifest)
    result = run("check-manifest", manifest)
    assert result.exit_code == 1
    err = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(err) == 1 and err[0].startswith("Error: ") and manifest.name in err[0], result.stderr


def test_a_folder_squatting_on_the_manifests_name_leaves_the_pdf_alone(tmp_path):
    (tmp_path / f"{KIT}.manifest.json").mkdir()
    result = run("render", "halali", "--component", "tiles", "--out", tmp_path)
    assert result.exit_code == 1 and result.stderr.startswith("Error: ")
    assert sorted(os.listdir(tmp_path)) == [f"{KIT}.manifest.json"]


def test_the_pdf_is_flushed_to_disk_before_either_file_is_renamed(tmp_path, monkeypatch):
    from pnp.core import files
    events = []
    real_fsync, real_replace = os.fsync, os.replace
    monkeypatch.setattr(files.os, "fsync", lambda fd: (events.append("fsync"), real_fsync(fd))[1])
    monkeypatch.setattr(files.os, "replace", lambda a, b: (events.append(f"rename {os.path.basename(b)}"),
                                                          real_replace(a, b))[1])
    result = run("render", "halali", "--component", "tiles", "--out", tmp_path)
    assert result.exit_code == 0, result.output
    renames = [i for i, e in enumerate(events) if e.startswith("rename")]
    assert events[renames[0]:renames[0] + 2] == [f"rename {KIT}.pdf", f"rename {KIT}.manifest.json"]
    assert events[:renames[0]].count("fsync") >= 2  # both temporary files are on disk first
