"""What the preview shows: the last pages that rendered, the errors of the last save, pictures.

One :class:`Preview` is shared by the thread that watches and renders and by the
web pages that show it. A render that works becomes the pages shown (a new
*version*); one that fails leaves them and shows its errors above them. Pages
are rasterised with PDFium only when a browser asks for one, at the width it
shows it, and kept for the next ask.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import OrderedDict
from typing import Any

from pnp.preview.worker import Outcome

#: Rasterised pages kept (each a PNG of a few hundred KB at most).
KEPT_IMAGES = 96
#: The widest page picture made, in pixels.
MAX_WIDTH = 3000


class Preview:
    """The state of one watched kit, safe to read and change from several threads."""

    def __init__(self, kit: str, lang: str, paper: str) -> None:
        self.kit, self.lang, self.paper = kit, lang, paper
        self.seq = 0                      # every change of what is shown
        self.version = 0                  # every new set of pages
        self.good: Outcome | None = None  # the last render with pages
        self.good_at: float | None = None
        self.errors: tuple[str, ...] = ()
        self.rendered_at: float | None = None
        self.seconds = 0.0
        self.rendering = False
        self.watching: tuple[str, ...] = ()
        self._kept: OrderedDict[int, Outcome] = OrderedDict()   # the last two versions, for pictures asked late
        self._images: OrderedDict[tuple[int, int, int], bytes] = OrderedDict()
        #: (page, width) -> when a browser last asked for it: the pages on its screen.
        self._asked: dict[tuple[int, int], float] = {}
        self._lock = threading.Lock()
        self._raster = threading.Lock()   # PDFium is not thread-safe
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Event | None = None

    # -- the watching thread --------------------------------------------
    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Wake the web pages' waiting requests on ``loop`` when something changes (done by the
        first request that waits, on the loop that serves them)."""
        self._loop, self._changed = loop, asyncio.Event()

    def started(self) -> None:
        with self._lock:
            self.rendering = True
            self.seq += 1
        self._wake()

    def publish(self, outcome: Outcome, watching: tuple[str, ...]) -> None:
        """A render's outcome: new pages if it made a PDF (unless the same as shown), else its errors."""
        with self._lock:
            self.rendering = False
            self.rendered_at, self.seconds, self.watching = time.time(), outcome.seconds, watching
            self.errors = outcome.errors
            if outcome.pdf is not None:
                if self.good is None or outcome.pdf != self.good.pdf:
                    self.version += 1
                    self._kept[self.version] = outcome
                    while len(self._kept) > 2:
                        self._kept.popitem(last=False)
                self.good, self.good_at = outcome, self.rendered_at
            self.seq += 1
        self._wake()

    def _wake(self) -> None:
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._notify)

    def _notify(self) -> None:
        """On the web pages' loop: wake every request waiting, and wait anew from now on."""
        changed, self._changed = self._changed, asyncio.Event()
        if changed is not None:
            changed.set()

    # -- the web pages ----------------------------------------------------
    async def wait(self, after: int, timeout: float) -> None:
        """Return once :attr:`seq` is past ``after``, or after ``timeout`` seconds."""
        if self._loop is None:
            self.attach(asyncio.get_running_loop())
        deadline = time.monotonic() + timeout
        # Nothing between reading seq and waiting lets the loop run _notify: no wake-up is missed.
        while self.seq <= after and self._changed is not None:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                await asyncio.wait_for(self._changed.wait(), left)
            except asyncio.TimeoutError:
                return

    def state(self) -> dict[str, Any]:
        """What the page shows, as JSON."""
        with self._lock:
            good = self.good
            return {
                "seq": self.seq, "version": self.version if good else None,
                "title": good.title if good else self.kit, "kit": self.kit, "lang": self.lang, "paper": self.paper,
                "rendering": self.rendering, "errors": list(self.errors),
                "rendered_at": self.rendered_at, "good_at": self.good_at, "seconds": round(self.seconds, 3),
                "page_mm": list(good.page_mm) if good else None,
                "pages": [{"number": p.number, "kind": p.kind, "components": list(p.components)}
                          for p in (good.pages if good else ())],
                "watching": list(self.watching),
                "findings": list(good.findings) if good else [], "counts": list(good.counts) if good else [0, 0, 0],
            }

    def pdf(self) -> bytes | None:
        """The PDF of the pages shown."""
        with self._lock:
            return self.good.pdf if self.good else None

    def image(self, version: int, number: int, width: int, asked: bool = True) -> bytes | None:
        """Page ``number`` (from 1) of ``version``, ``width`` pixels wide, as PNG; None if there is none.
        ``asked``: a browser asks for it (not :meth:`prefetch`)."""
        from pnp.export.raster import Job, rasterise

        # Widths go by hundreds: a window resized by a pixel does not make a new picture.
        width = max(100, min(MAX_WIDTH, -(-width // 100) * 100))
        key = (version, number, width)
        with self._lock:
            if asked:
                self._asked[(number, width)] = time.monotonic()
            if key in self._images:
                self._images.move_to_end(key)
                return self._images[key]
            kept = self._kept.get(version)
        if kept is None or kept.pdf is None or not 1 <= number <= len(kept.pages):
            return None
        pdf, (page_w, page_h) = kept.pdf, kept.page_mm
        pixels = (width, max(1, round(width * page_h / page_w)))
        with self._raster:
            [(_, png)] = list(rasterise(pdf, [Job(number - 1, pixels, True, round(width / page_w * 25.4))]))
        with self._lock:
            self._images[key] = png
            while len(self._images) > KEPT_IMAGES:
                self._images.popitem(last=False)
        return png

    def prefetch(self, within: float = 30.0, most: int = 4) -> None:
        """Rasterise the pages of the newest version that browsers asked for in the last
        ``within`` seconds (the pages on their screens), before they ask again."""
        now = time.monotonic()
        with self._lock:
            version = self.version
            asked = sorted((when, page) for page, when in self._asked.items() if now - when < within)
        for _, (number, width) in reversed(asked[-most:]):
            self.image(version, number, width, asked=False)
