"""The web app of ``pnp serve``: each address wired to its view (:mod:`pnp.web.views`).

What the views share, and who may do what, is in :mod:`pnp.web.base`.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pnp.web.base import HERE, SecurityHeaders, Site, endpoint
from pnp.web.db import Database
from pnp.web.views import api, changes, entering, exports, history, results, start, table

#: Address, view, methods (None: GET and HEAD).
ROUTES = [
    ("/healthz", api.healthz, None),
    ("/api/sessions", api.api_create, ["POST"]),
    ("/api/sessions/{id}", api.api_show, None),
    ("/api/sessions/{id}/rounds/{number:int}", api.api_put_round, ["PUT"]),
    ("/api/sessions/{id}/rounds/{number:int}", api.api_patch_round, ["PATCH"]),
    ("/api/sessions/{id}/rounds/{number:int}", api.api_round, ["GET"]),
    ("/api/sessions/{id}/export", exports.api_export, None),
    ("/api/sessions/{id}/bgstats", exports.api_bgstats, None),
    ("/api/sessions/{id}/history", changes.api_changes, None),
    ("/api/sessions/{id}/undo", changes.api_undo, ["POST"]),
    ("/api/history", history.api_history, None),
    ("/", start.home, None),
    ("/sessions", start.start, ["POST"]),
    ("/history", history.history, None),
    ("/s/{id}", table.table, None),
    ("/s/{id}/join", start.join, None),
    ("/s/{id}/live", table.live, None),
    ("/s/{id}/enter", entering.enter_page, ["GET"]),
    ("/s/{id}/enter", entering.enter_post, ["POST"]),
    ("/s/{id}/history", changes.changes_page, None),
    ("/s/{id}/undo", changes.undo_post, ["POST"]),
    ("/s/{id}/result", results.result_page, None),
    ("/s/{id}/export/{fmt}", exports.page_export, None),
    ("/s/{id}/sheet/{paper}.pdf", results.sheet, None),
]


def create_app(db: Database, organiser_token: str, public_url: str | None = None) -> Starlette:
    """The ASGI app over ``db``; ``public_url`` is the address phones use (for join links and QR codes)."""
    site = Site(db, organiser_token, public_url)

    routes = [Route(path, endpoint(site, view), methods=methods) for path, view, methods in ROUTES]
    routes.append(Mount("/static", StaticFiles(directory=HERE / "static"), name="static"))
    app = Starlette(routes=routes, exception_handlers={404: site.not_found, 405: site.method_not_allowed})
    app.state.site = site
    app.add_middleware(SecurityHeaders)
    return app
