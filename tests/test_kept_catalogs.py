"""A shipped catalog's texts are kept read beside it (``__pycache__/<name>.texts.json``), as Python
keeps bytecode: the next command reads them from there while the catalog is unchanged, and a
kept file that is stale, damaged or hostile is never believed."""

from __future__ import annotations

import json
import os
import shutil
import sys

import pytest

from pnp.core.errors import CatalogError
from pnp.core.i18n import catalog_folder, load_catalog


@pytest.fixture
def catalog(tmp_path, monkeypatch):
    """A copy of the English common catalog in a folder of its own, with caches written."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    path = tmp_path / "common.en.toml"
    shutil.copyfile(catalog_folder() / "common.en.toml", path)
    return path


def kept_file(path):
    return path.parent / "__pycache__" / f"{path.stem}.texts.json"


def test_a_catalog_read_once_is_read_from_its_kept_texts_next_time(catalog):
    first = load_catalog(catalog, "en", kept=True)
    kept = json.loads(kept_file(catalog).read_text(encoding="utf-8"))
    assert kept["texts"] == dict(first.texts) and len(kept["texts"]) > 300
    # What the next read gives comes from the kept file: a text changed there shows.
    kept["texts"]["cover.credits"] = "from the kept file"
    kept_file(catalog).write_text(json.dumps(kept), encoding="utf-8")
    again = load_catalog(catalog, "en", kept=True)
    assert again.texts["cover.credits"] == "from the kept file"
    assert {key: text for key, text in again.texts.items() if key != "cover.credits"} == {
        key: text for key, text in first.texts.items() if key != "cover.credits"}
    assert again.sources == first.sources == (str(catalog),)


def test_an_edited_catalog_is_read_afresh_and_kept_again(catalog):
    load_catalog(catalog, "en", kept=True)
    catalog.write_text(catalog.read_text(encoding="utf-8") + '\n[extra]\nline = "Added since"\n', encoding="utf-8")
    assert load_catalog(catalog, "en", kept=True).texts["extra.line"] == "Added since"
    assert json.loads(kept_file(catalog).read_text(encoding="utf-8"))["texts"]["extra.line"] == "Added since"


@pytest.mark.parametrize("kept", [
    b"not json at all", b"[1, 2]", b"{}", b'{"source": null, "texts": {}}', b"\xff\xfe broken",
    b"[" * 100_000 + b"]" * 100_000,
])
def test_a_damaged_kept_file_is_ignored_and_written_again(catalog, kept):
    expected = dict(load_catalog(catalog, "en").texts)
    kept_file(catalog).parent.mkdir(exist_ok=True)
    kept_file(catalog).write_bytes(kept)
    assert dict(load_catalog(catalog, "en", kept=True).texts) == expected
    assert json.loads(kept_file(catalog).read_text(encoding="utf-8"))["texts"] == expected


def test_kept_texts_of_another_catalog_or_of_the_wrong_kinds_are_not_believed(catalog, tmp_path):
    expected = dict(load_catalog(catalog, "en", kept=True).texts)
    good = json.loads(kept_file(catalog).read_text(encoding="utf-8"))
    other = tmp_path / "other" / "common.en.toml"
    other.parent.mkdir()
    other.write_text('[cover]\ncredits = "Another catalog"\n', encoding="utf-8")
    load_catalog(other, "en", kept=True)
    # Another catalog's kept file, put in this one's place: its digest is not this catalog's.
    shutil.copyfile(kept_file(other), kept_file(catalog))
    assert dict(load_catalog(catalog, "en", kept=True).texts) == expected
    for texts in ({"cover.credits": 3}, ["cover.credits"], {"cover": {"credits": "nested"}}):
        kept_file(catalog).write_text(json.dumps({**good, "texts": texts}), encoding="utf-8")
        assert dict(load_catalog(catalog, "en", kept=True).texts) == expected


def test_a_kept_file_that_is_a_pipe_or_a_folder_does_not_stop_the_catalog(catalog):
    expected = dict(load_catalog(catalog, "en").texts)
    kept_file(catalog).parent.mkdir(exist_ok=True)
    os.mkfifo(kept_file(catalog))   # opening it for reading would wait for a writer
    assert dict(load_catalog(catalog, "en", kept=True).texts) == expected
    kept_file(catalog).unlink()
    kept_file(catalog).mkdir()
    assert dict(load_catalog(catalog, "en", kept=True).texts) == expected


def test_a_folder_where_nothing_can_be_kept_still_reads_its_catalog(catalog):
    (catalog.parent / "__pycache__").write_text("a file where the folder would be")
    assert load_catalog(catalog, "en", kept=True).texts["cover.credits"]
    assert (catalog.parent / "__pycache__").read_text() == "a file where the folder would be"


def test_nothing_is_kept_when_python_is_asked_to_keep_no_bytecode(catalog, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    load_catalog(catalog, "en", kept=True)
    assert not (catalog.parent / "__pycache__").exists()


def test_a_designers_catalog_is_never_kept(catalog):
    load_catalog(catalog, "en")
    assert not (catalog.parent / "__pycache__").exists()


def test_a_broken_catalog_is_its_one_error_whatever_was_kept(catalog):
    load_catalog(catalog, "en", kept=True)
    catalog.write_text(catalog.read_text(encoding="utf-8") + "\nbroken = [\n", encoding="utf-8")
    with pytest.raises(CatalogError, match="not valid TOML"):
        load_catalog(catalog, "en", kept=True)


def test_pnp_watch_watches_the_catalog_not_what_is_kept_of_it(catalog):
    from pnp.core.files import recording

    for _ in range(2):  # kept the first time, read from what was kept the second
        with recording() as read:
            load_catalog(catalog, "en", kept=True)
        assert [path for path, _ in read] == [str(catalog)]


def test_the_shipped_catalogs_common_and_each_games_own_are_kept(monkeypatch):
    from pnp.core.i18n import common_catalog, own_catalog

    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    folder = catalog_folder()
    own = own_catalog("halali", "fr", folder)
    common_catalog.cache_clear()
    common = common_catalog("fr")
    for name, texts in (("halali.fr.toml", own.texts), ("common.fr.toml", common.texts)):
        kept = json.loads(kept_file(folder / name).read_text(encoding="utf-8"))
        assert kept["texts"] == dict(texts)
