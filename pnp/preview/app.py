"""The preview's web app: one page that follows the kit by itself, its state, its pictures, its PDF.

- ``/`` the page (everything it needs is in it: no script or font from elsewhere;
  without JavaScript it reloads itself every few seconds);
- ``/state?after=N`` what the page shows, as JSON, answered once it differs from
  the state numbered ``N`` (or after 25 s): the page asks again at once, so a save
  reaches it as soon as it has rendered;
- ``/page/VERSION/NUMBER.png?w=PIXELS`` a page of a version, rasterised at that width;
- ``/kit.pdf`` the PDF of the pages shown.
"""

from __future__ import annotations

import html
import json
from pathlib import Path
from string import Template

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Route

from pnp.core.i18n import common_catalog
from pnp.preview.state import Preview

PAGE = Path(__file__).with_name("page.html")
#: How long a request for the state waits for a change before answering it unchanged.
LONG_POLL = 25.0
#: The page's words (``preview.*`` in the common catalogs), handed to its script.
WORDS = ("title", "rendering", "rendered", "failed", "errors", "last_good", "no_pages", "offline",
         "pdf", "watching", "page", "kinds.cover", "kinds.front", "kinds.back", "kinds.sheet",
         "kinds.blank", "kinds.fold")


def create_app(preview: Preview, hosts: list[str] | None = None) -> Starlette:
    """The app over ``preview``; ``hosts`` are the names it answers to (None: any), which keeps
    other web sites' pages from reading it through a name of their own (DNS rebinding)."""
    catalog = common_catalog(preview.lang)
    words = {key: catalog.get(f"preview.{key}") for key in WORDS}
    page = Template(PAGE.read_text(encoding="utf-8")).substitute(
        lang=preview.lang, title=html.escape(catalog.get("preview.title")), kit=html.escape(preview.kit),
        words=json.dumps(words, ensure_ascii=False).replace("<", "\\u003c"))

    async def show(request: Request) -> Response:
        return HTMLResponse(page, headers=_NO_STORE)

    async def state(request: Request) -> Response:
        try:
            after = int(request.query_params.get("after", "-1"))
        except ValueError:
            after = -1
        await preview.wait(after, LONG_POLL)
        shown = preview.state()
        # What pnp preflight says of the pages, in the page's language.
        counts = [catalog.plural(f"cli.preflight.{name}", count)
                  for name, count in zip(("errors", "warnings", "notes"), shown["counts"]) if count]
        shown["preflight"] = catalog.get("preview.preflight", counts=", ".join(counts)) if counts else \
            catalog.get("preview.preflight_clean")
        return JSONResponse(shown, headers=_NO_STORE)

    def picture(request: Request) -> Response:
        try:
            width = int(request.query_params.get("w", "1200"))
        except ValueError:
            width = 1200
        png = preview.image(request.path_params["version"], request.path_params["number"], width)
        if png is None:
            return Response(status_code=404)
        # A version's page never changes: the browser may keep it.
        return Response(png, media_type="image/png", headers={"Cache-Control": "private, max-age=3600"})

    def pdf(request: Request) -> Response:
        data = preview.pdf()
        if data is None:
            return Response(status_code=404)
        return Response(data, media_type="application/pdf", headers=_NO_STORE)

    routes = [Route("/", show), Route("/state", state), Route("/kit.pdf", pdf),
              Route("/page/{version:int}/{number:int}.png", picture)]
    middleware = [Middleware(TrustedHostMiddleware, allowed_hosts=hosts)] if hosts else []
    return Starlette(routes=routes, middleware=middleware)


_NO_STORE = {"Cache-Control": "no-store"}
