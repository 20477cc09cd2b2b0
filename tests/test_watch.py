"""`pnp watch`: what a render read is what is watched; each render is fresh; the page's state,
pictures and PDF; a broken save keeps the last good pages. (In a real browser:
tests/test_watch_browser.py.)"""

from __future__ import annotations

import asyncio
import os
import threading
import time
from pathlib import Path

import pytest
from starlette.testclient import TestClient
from typer.testing import CliRunner

from pnp.cli import app as CLI
from pnp.core.files import ReadError, read_regular, recording
from pnp.preview.app import create_app
from pnp.preview.serve import watch
from pnp.preview.state import Preview
from pnp.preview.watched import Watched, listing, signature
from pnp.preview.worker import Job, Outcome, Renderer, render
from pnp.template.model import PrintOptions
from pnp.template.starter import write_starter

ICON = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="{fill}"/></svg>'


def starter(folder: Path, icon: str | None = None) -> Path:
    """`pnp new`'s game, with an icon of its own on its cards when ``icon`` is a colour."""
    template = write_starter(folder / "tide")
    if icon:
        (template.parent / "icons").mkdir(exist_ok=True)   # pnp new writes its star there
        (template.parent / "icons" / "shell.svg").write_text(ICON.format(fill=icon), encoding="utf-8")
        text = template.read_text(encoding="utf-8")
        at = text.index("\n[[components.front]]", text.index('text = "@colour.{colour}"'))
        template.write_text(text[:at] + '\n[[components.front]]\ntype = "icon"\nname = "shell"\nx = 40\n'
                            'y = 70\nw = 10\nh = 10\n' + text[at:], encoding="utf-8")
    return template


def test_reading_records_every_file_asked_for_found_or_not(tmp_path):
    there = tmp_path / "there.txt"
    there.write_text("x")
    with recording() as read:
        read_regular(there, 100)
        with pytest.raises(ReadError):
            read_regular(tmp_path / "missing.txt", 100)
    assert read == [(str(there), signature(there)), (str(tmp_path / "missing.txt"), None)]
    read_regular(there, 100)   # nothing records outside the block
    assert len(read) == 2


def test_what_counts_as_a_change(tmp_path):
    kept, gone, later = tmp_path / "kept.toml", tmp_path / "gone.csv", tmp_path / "later.svg"
    kept.write_text("a")
    gone.write_text("b")
    watched = Watched.of([(str(kept), signature(kept)), (str(gone), signature(gone)), (str(later), None)])
    assert watched.changed() == []
    (tmp_path / ".kept.toml.swp").write_text("vim")      # an editor's own file: not a change
    (tmp_path / "#kept.toml#").write_text("emacs")
    assert watched.changed() == []
    replacement = tmp_path / "kept.toml.new"
    replacement.write_text("a")
    os.replace(replacement, kept)                       # saved by rename: same text, a new file
    assert watched.changed() == [str(kept)]
    watched = Watched.of([(str(kept), signature(kept)), (str(gone), signature(gone)), (str(later), None)])
    gone.unlink()
    later.write_text("<svg/>")
    assert watched.changed() == [str(gone), str(later), str(tmp_path)]
    assert listing(tmp_path / "nowhere") is None


def test_a_render_reads_the_template_its_catalogs_data_and_icons(tmp_path):
    template = starter(tmp_path, icon="#8c3b2a")
    outcome = render(Job(str(template), PrintOptions()))
    assert outcome.errors == () and outcome.pdf.startswith(b"%PDF")
    read = {Path(path).name for path, _ in outcome.read}
    # (The shared catalogs too, in the fresh process each render of pnp watch has; this one may
    # have read them for an earlier test.)
    assert {"tide.toml", "tide.en.toml", "tide.fr.toml", "cards.csv", "shell.svg", "star.svg", "sun.png", "sea.png",
            "colors.toml"} <= read
    assert str(template.parent / "icons") in outcome.folders
    assert [p.kind for p in outcome.pages[:4]] == ["cover", "cover", "front", "back"]
    assert outcome.page_mm == (210.0, 297.0) and outcome.title == "Tide"


def test_a_render_says_what_pnp_preflight_says(tmp_path):
    template = starter(tmp_path)
    assert render(Job(str(template), PrintOptions())).findings == ()
    text = template.read_text(encoding="utf-8")
    template.write_text(text.replace("stroke_width = 1.2", "stroke_width = 0.05", 1), encoding="utf-8")
    outcome = render(Job(str(template), PrintOptions()))
    assert outcome.counts == (1, 0, 0)
    assert outcome.findings == ("error: cards (every piece) front, components.cards.front[2] (rect): a 0.05 mm "
                                "line: thinner than 0.1 mm: it breaks up or vanishes on paper",)


def test_a_broken_save_is_its_error_lines(tmp_path):
    template = starter(tmp_path)
    template.write_text(template.read_text(encoding="utf-8").replace('"@colour.{colour}"', '"@colour.{colur}"'),
                        encoding="utf-8")
    outcome = render(Job(str(template), PrintOptions(lang="fr")))
    assert outcome.pdf is None and outcome.pages == ()
    assert len(outcome.errors) == 1 and outcome.errors[0].startswith("Error: ")
    assert "tide.toml: components.cards.front[3].text: unknown name 'colur'" in outcome.errors[0]
    assert any(Path(path).name == "tide.toml" for path, _ in outcome.read)


def test_each_render_is_fresh_and_a_stuck_one_is_stopped(tmp_path):
    template = starter(tmp_path, icon="#8c3b2a")
    renderer = Renderer()
    try:
        first = renderer.render(Job(str(template), PrintOptions()))
        # The icon changed on disk: a render in a process that had read it would draw the old one.
        (template.parent / "icons" / "shell.svg").write_text(ICON.format(fill="#1b5e20"), encoding="utf-8")
        second = renderer.render(Job(str(template), PrintOptions()))
        assert first.errors == second.errors == ()
        assert first.pdf != second.pdf
        stuck = Renderer(timeout=0.001)
        try:
            outcome = stuck.render(Job(str(template), PrintOptions()))
            assert outcome.errors == ("Error: the render took more than 0.001 s and was stopped",)
        finally:
            stuck.close()
        assert renderer.render(Job(str(template), PrintOptions())).pdf == second.pdf
    finally:
        renderer.close()


def outcome_of(template: Path, **options) -> Outcome:
    return render(Job(str(template), PrintOptions(**options)))


def test_the_page_its_state_pictures_and_pdf(tmp_path):
    template = starter(tmp_path)
    preview = Preview(str(template), "fr", "a4")
    with TestClient(create_app(preview, ["testserver"])) as client:
        page = client.get("/")
        assert page.status_code == 200 and '<html lang="fr">' in page.text
        assert "Rendu en cours…" in page.text and "src=\"http" not in page.text   # nothing from elsewhere
        assert client.get("/state?after=-1").json()["version"] is None
        assert client.get("/kit.pdf").status_code == 404
        good = outcome_of(template, lang="fr")
        preview.publish(good, ("a", "b"))
        state = client.get("/state?after=0").json()
        assert (state["version"], state["errors"], state["watching"]) == (1, [], ["a", "b"])
        assert (state["findings"], state["preflight"]) == ([], "pnp preflight\u00a0: rien ne s’imprime mal.")
        assert state["pages"][4] == {"number": 5, "kind": "front", "components": ["cards"]}  # after the alignment sheet
        picture = client.get("/page/1/3.png?w=640")
        assert picture.status_code == 200 and picture.content.startswith(b"\x89PNG")
        from PIL import Image
        import io
        assert Image.open(io.BytesIO(picture.content)).size == (700, 990)  # widths go by hundreds
        assert client.get("/page/1/99.png").status_code == 404
        assert client.get("/page/7/1.png").status_code == 404
        assert client.get("/kit.pdf").content == good.pdf
        # A broken save: its errors, and the same pages.
        broken = good._replace(pdf=None, pages=(), errors=("Error: tide.toml: nope",))
        preview.publish(broken, ("a",))
        state = client.get(f"/state?after={state['seq']}").json()
        assert (state["version"], state["errors"], len(state["pages"])) == (1, ["Error: tide.toml: nope"], 10)
        assert client.get("/page/1/3.png?w=640").status_code == 200
        # The same PDF again: no new version, nothing for the browser to fetch again.
        preview.publish(good, ("a",))
        assert client.get(f"/state?after={state['seq']}").json()["version"] == 1
        assert client.get("/", headers={"host": "evil.example"}).status_code == 400


def test_a_request_for_the_state_waits_for_a_change():
    preview = Preview("kit.toml", "en", "a4")

    async def scenario() -> tuple[float, float]:
        preview.attach(asyncio.get_running_loop())
        started = time.monotonic()
        await preview.wait(preview.seq, 0.2)          # nothing changes: back after the timeout
        waited = time.monotonic() - started
        threading.Timer(0.05, preview.started).start()
        started = time.monotonic()
        await preview.wait(preview.seq, 5)            # woken by the change, long before 5 s
        return waited, time.monotonic() - started

    waited, woken = asyncio.run(scenario())
    assert 0.15 < waited < 1 and woken < 1


def test_the_watching_thread_renders_on_each_save(tmp_path):
    template = starter(tmp_path)
    preview = Preview(str(template), "en", "a4")
    renderer, stop = Renderer(), threading.Event()
    thread = threading.Thread(target=watch, args=(preview, renderer, Job(str(template), PrintOptions()), stop),
                              kwargs={"poll": 0.02})
    thread.start()

    def settled(after: int) -> dict:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            state = preview.state()
            if state["seq"] > after and not state["rendering"]:
                return state
            time.sleep(0.02)
        raise AssertionError("no render")

    try:
        first = settled(0)
        assert first["version"] == 1 and str(template) in first["watching"]
        csv = template.with_name("cards.csv")
        csv.write_text(csv.read_text(encoding="utf-8").replace("sun-1,sun,1,", "sun-1,sun,7,"), encoding="utf-8")
        second = settled(first["seq"])
        assert second["version"] == 2 and second["errors"] == []
        template.write_text("[game\n", encoding="utf-8")
        third = settled(second["seq"])
        assert third["version"] == 2 and third["errors"][0].startswith("Error: ")
    finally:
        stop.set()
        thread.join(timeout=10)
        renderer.close()


def test_watch_refuses_a_template_that_is_not_there(tmp_path):
    result = CliRunner().invoke(CLI, ["watch", str(tmp_path / "nothing.toml")])
    assert result.exit_code == 1
    assert "nothing.toml" in result.output and "no such file" in result.output


def test_watch_refuses_an_unknown_game_at_once():
    result = CliRunner().invoke(CLI, ["watch", "halalli"])
    assert result.exit_code == 1
    assert "unknown game 'halalli'; expected one of: " in result.output
