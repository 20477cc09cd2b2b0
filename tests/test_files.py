"""The one file writer: whole files or nothing, groups renamed only when all are on disk."""

from __future__ import annotations

import os

import pytest

from pnp.core.files import WriteError, check_writable, write_file, write_files


def test_a_group_is_written_whole(tmp_path):
    pdf, manifest = tmp_path / "kit.pdf", tmp_path / "kit.manifest.json"
    write_files({pdf: b"%PDF new", manifest: b"{}"})
    assert pdf.read_bytes() == b"%PDF new" and manifest.read_bytes() == b"{}"
    assert sorted(os.listdir(tmp_path)) == ["kit.manifest.json", "kit.pdf"]


def test_a_file_given_in_parts_is_written_whole_in_their_order(tmp_path):
    manifest, pdf = tmp_path / "kit.manifest.json", tmp_path / "kit.pdf"
    write_files({pdf: b"%PDF", manifest: [b'{"pages": [', b"1, ", b"2", b"]}"]})
    assert manifest.read_bytes() == b'{"pages": [1, 2]}' and pdf.read_bytes() == b"%PDF"


def test_a_failing_member_leaves_every_file_as_it_was(tmp_path):
    pdf = tmp_path / "kit.pdf"
    pdf.write_bytes(b"old")
    (tmp_path / "kit.manifest.json").mkdir()  # a folder squats on the manifest's name
    with pytest.raises(WriteError, match="kit.manifest.json"):
        write_files({pdf: b"new", tmp_path / "kit.manifest.json": b"{}"})
    assert pdf.read_bytes() == b"old"
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]


def test_backup_keeps_the_previous_version(tmp_path):
    session = tmp_path / "evening.toml"
    session.write_text("old = 1\n")
    backup = write_file(session, "new = 2\n", backup=True)
    assert backup == tmp_path / "evening.toml.bak"
    assert backup.read_text() == "old = 1\n" and session.read_text() == "new = 2\n"


def test_permissions_of_a_replaced_file_are_kept(tmp_path):
    target = tmp_path / "shared.pdf"
    target.write_bytes(b"old")
    target.chmod(0o640)
    write_file(target, b"new")
    assert target.stat().st_mode & 0o777 == 0o640


def test_a_symlink_in_the_folder_is_never_followed(tmp_path):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me")
    out = tmp_path / "out"
    out.mkdir()
    for name in (".pnp-write-test", "probe", ".probe.tmp"):
        (out / name).symlink_to(victim)
    check_writable(out)
    write_file(out / "kit.pdf", b"%PDF")
    assert victim.read_text() == "keep me"


def test_check_writable_refuses_a_missing_folder(tmp_path):
    with pytest.raises(WriteError):
        check_writable(tmp_path / "nowhere")


def test_a_file_group_renames_nothing_until_commit_and_cleans_up_on_error(tmp_path):
    from pnp.core.files import FileGroup

    first, second = tmp_path / "a.png", tmp_path / "b.png"
    first.write_bytes(b"old")
    (tmp_path / "c.png").mkdir()                  # a folder squats on the third name
    with pytest.raises(WriteError, match="c.png"):
        with FileGroup() as group:
            group.add(first, b"new")
            group.add(second, b"new")
            assert first.read_bytes() == b"old" and not second.exists()
            group.add(tmp_path / "c.png", b"new")
            group.commit()
    assert first.read_bytes() == b"old" and not second.exists()
    assert not [name for name in os.listdir(tmp_path) if name.endswith(".tmp")]
    with FileGroup() as group:
        group.add(first, b"new")
        group.add(second, b"two")
        group.commit()
    assert first.read_bytes() == b"new" and second.read_bytes() == b"two"


def test_a_backup_keeps_the_permissions_of_the_file_it_copies(tmp_path):
    session = tmp_path / "evening.toml"
    session.write_text("old = 1\n")
    session.chmod(0o600)
    backup = write_file(session, "new = 2\n", backup=True)
    assert backup.stat().st_mode & 0o777 == 0o600
    assert session.stat().st_mode & 0o777 == 0o600
