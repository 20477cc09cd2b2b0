"""``pnp watch``: render a kit on every save of its files and show its pages in a browser.

A thread polls what the last render read (:mod:`pnp.preview.watched`) twenty times a
second; on a change it waits a moment for the editor to finish writing, then renders
in a fresh child process (:mod:`pnp.preview.worker`) and publishes the outcome
(:mod:`pnp.preview.state`), which wakes the page's waiting request
(:mod:`pnp.preview.app`). uvicorn serves the page on the main thread until Ctrl+C.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Callable

from pnp.core.i18n import common_catalog
from pnp.preview.state import Preview
from pnp.preview.watched import Watched, signature
from pnp.preview.worker import Job, Renderer
from pnp.template.loader import names_a_file

#: How often the files are looked at, s.
POLL = 0.05
#: How long after a change is seen the render starts: an editor saving in two steps (a
#: temporary file, then a rename) is done by then.
SETTLE = 0.03


def _say(key: str, **values: object) -> str:
    """A sentence of ``pnp watch`` (``cli.watch.<key>``); the commands speak English."""
    return common_catalog("en").get(f"cli.watch.{key}", **values)


def watch(preview: Preview, renderer: Renderer, job: Job, stop: threading.Event, *, poll: float = POLL) -> None:
    """Render now and after every change of what the last render read, until ``stop`` is set."""
    template = os.path.abspath(job.kit) if names_a_file(job.kit) else None
    watched: Watched | None = None
    while not stop.is_set():
        if watched is None or watched.changed():
            if watched is not None:
                time.sleep(SETTLE)
            # What the files are before the render: what to watch if it reads nothing (stopped, crashed).
            before = {path: signature(path) for path in (watched.files if watched else ())}
            if template is not None:
                before.setdefault(template, signature(template))
            preview.started()
            outcome = renderer.render(job)
            watched = Watched.of(outcome.read or before.items(), outcome.folders)
            preview.publish(outcome, tuple(sorted(watched.files)))
            if outcome.pdf is not None:
                preview.prefetch()
        stop.wait(poll)


def run(job: Job, host: str, port: int, *, echo: Callable[[str], None], open_browser: bool = False) -> None:
    """Serve the preview of ``job`` on ``host:port`` until interrupted."""
    import uvicorn

    from pnp.preview.app import create_app
    from pnp.web.serve import listen, public_url   # the scorer's socket helpers; nothing of its store

    sock = listen(host, port)
    preview = Preview(job.kit, job.options.lang, job.options.paper)
    renderer = Renderer()
    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(preview, renderer, job, stop), daemon=True,
                               name="pnp-watch")
    try:
        address = public_url(host, sock.getsockname()[1])
        local = host in LOOPBACK
        app = create_app(preview, list(LOOPBACK) + ["[::1]"] if local else None)
        watcher.start()
        echo(_say("showing", kit=job.kit, address=address))
        if not local:
            echo(_say("network"))
        if open_browser:
            import webbrowser

            threading.Timer(0.5, webbrowser.open, args=(f"{address}/",)).start()
        config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off",
                                timeout_keep_alive=30, timeout_graceful_shutdown=1)
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        stop.set()
        watcher.join(timeout=2)
        renderer.close()
        sock.close()


#: The names of this computer that keep the preview to itself.
LOOPBACK = ("127.0.0.1", "localhost", "::1")
