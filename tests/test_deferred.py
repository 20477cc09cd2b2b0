"""A deferred module (pnp.core.deferred): imported at once, its code run on first use, once,
whichever threads use it first."""

from __future__ import annotations

import sys
import threading
from importlib import import_module
from pathlib import Path

import pytest

from pnp.core.deferred import defer


@pytest.fixture
def package(tmp_path, monkeypatch):
    """A package of its own (named after the test) holding ``slow``, a module whose code takes a
    while and notes each run in ``witness.runs``; every module and finder it adds is gone after."""
    name = f"deferred_{abs(hash(tmp_path)) % 10**8}"
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text("")
    (folder / "witness.py").write_text("runs = []\n")
    (folder / "slow.py").write_text(
        "import time\nfrom . import witness\nwitness.runs.append(1)\nFIRST = 1\ntime.sleep(0.2)\nLAST = 2\n")
    (folder / "broken.py").write_text("from . import witness\nwitness.runs.append(1)\nraise RuntimeError('bad')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))
    before = set(sys.modules)
    yield name
    for module in set(sys.modules) - before:
        del sys.modules[module]


def test_a_deferred_module_runs_its_code_on_first_use_only(package):
    defer(f"{package}.slow")
    witness = import_module(f"{package}.witness")
    slow = import_module(f"{package}.slow")
    assert witness.runs == []   # imported, not run
    assert slow.LAST == 2 and slow.FIRST == 1
    assert witness.runs == [1]
    assert type(slow).__name__ == "module" and slow.__name__ == f"{package}.slow"


def test_threads_that_use_it_first_together_all_find_it_whole_and_it_runs_once(package):
    defer(f"{package}.slow")
    slow = import_module(f"{package}.slow")
    witness = import_module(f"{package}.witness")
    start = threading.Barrier(6)
    seen = []

    def use():
        start.wait()
        seen.append((slow.FIRST, slow.LAST))  # in 3.11's LazyLoader, LAST could be missing here

    threads = [threading.Thread(target=use) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert seen == [(1, 2)] * 6 and witness.runs == [1]


def test_a_module_already_imported_is_left_as_it_is(package):
    slow = import_module(f"{package}.slow")
    finders = list(sys.meta_path)
    defer(f"{package}.slow")
    assert sys.meta_path == finders and slow.LAST == 2


def test_deferring_twice_adds_one_finder_which_leaves_once_used(package):
    finders = len(sys.meta_path)
    defer(f"{package}.slow")
    defer(f"{package}.slow")
    assert len(sys.meta_path) == finders + 1
    import_module(f"{package}.slow")
    assert len(sys.meta_path) == finders


def test_a_module_that_fails_fails_where_it_is_used_and_again_on_the_next_use(package):
    defer(f"{package}.broken")
    broken = import_module(f"{package}.broken")
    witness = import_module(f"{package}.witness")
    for runs in ([1], [1, 1]):
        with pytest.raises(RuntimeError, match="bad"):
            broken.anything
        assert witness.runs == runs


def test_a_module_that_does_not_exist_is_the_usual_import_error(package):
    defer(f"{package}.missing")
    with pytest.raises(ModuleNotFoundError):
        import_module(f"{package}.missing")


def test_pillow_deferred_still_opens_a_picture(tmp_path):
    # The real use: a fresh process defers PIL.Image as pnp's entry point does, loads reportlab
    # (which imports it), then opens a picture through it.
    import subprocess

    script = ("import sys\nfrom pnp.core.deferred import defer\ndefer('PIL.Image')\n"
              "import reportlab.lib.utils\nfrom PIL import Image\n"
              "assert 'PIL._imaging' not in sys.modules\n"
              f"Image.new('RGB', (3, 2), 'red').save({str(tmp_path / 'p.png')!r})\n"
              f"print(Image.open({str(tmp_path / 'p.png')!r}).size)\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "(3, 2)"
    assert Path(tmp_path / "p.png").is_file()
