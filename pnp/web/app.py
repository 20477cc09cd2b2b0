"""The web app of ``pnp serve``: each address wired to its view (:mod:`pnp.web.views`).

What the views share, and who may do what, is in :mod:`pnp.web.base`.
"""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pnp.web.base import HERE, SecurityHeaders, Site, endpoint
from pnp.web.db import Database
from pnp.web.views import api, changes, entering, exports, history, people, results, seats, start, table

#: Address, view, methods (None: GET and HEAD).
ROUTES = [
    ("/healthz", api.healthz, None),
    ("/api/sessions", api.api_create, ["POST"]),
    ("/api/sessions/{id}", api.api_show, None),
    # A round's number is read by the view: a number of any length is a 404 naming it, never a 500.
    ("/api/sessions/{id}/rounds/{number}", api.api_put_round, ["PUT"]),
    ("/api/sessions/{id}/rounds/{number}", api.api_patch_round, ["PATCH"]),
    ("/api/sessions/{id}/rounds/{number}", api.api_round, ["GET"]),
    ("/api/sessions/{id}/seats", seats.api_seats, ["GET"]),
    ("/api/sessions/{id}/seats", seats.api_take_seat, ["POST"]),
    ("/api/sessions/{id}/seats/{player:path}/handover", seats.api_handover, ["POST"]),
    ("/api/sessions/{id}/seats/{player:path}", seats.api_give_back, ["DELETE"]),
    ("/api/sessions/{id}/export", exports.api_export, None),
    ("/api/sessions/{id}/bgstats", exports.api_bgstats, None),
    ("/api/sessions/{id}/history", changes.api_changes, None),
    ("/api/sessions/{id}/undo", changes.api_undo, ["POST"]),
    ("/api/sessions/{id}/redo", changes.api_undo, ["POST"]),
    ("/api/sessions/{id}/players/{person}", history.api_table_person, None),
    ("/api/sessions/{id}/game", history.api_table_game, None),
    ("/api/history", history.api_history, None),
    ("/api/history/club", history.api_club, None),
    ("/api/history/players", history.api_people, None),
    ("/api/history/players/{person}", history.api_person, None),
    ("/api/history/players/{person}/rename", people.api_rename, ["POST"]),
    ("/api/history/players/{person}/merge", people.api_merge, ["POST"]),
    ("/api/history/players/{person}/separate", people.api_separate, ["POST"]),
    ("/api/history/games/{game}", history.api_game, None),
    ("/api/history/plays", history.api_plays, None),
    ("/", start.home, None),
    ("/sessions", start.start, ["POST"]),
    ("/history", history.history, None),
    ("/history/players", history.people_page, None),
    ("/history/players/{person}", history.person_page, None),
    ("/history/players/{person}/rename", people.rename_page, ["GET"]),
    ("/history/players/{person}/rename", people.rename_post, ["POST"]),
    ("/history/players/{person}/merge", people.merge_page, ["GET"]),
    ("/history/players/{person}/merge", people.merge_post, ["POST"]),
    ("/history/players/{person}/separate", people.separate_post, ["POST"]),
    ("/history/games/{game}", history.game_page, None),
    ("/history/export", history.export_page, None),
    ("/history/export/plays.csv", history.export_csv, None),
    ("/history/export/plays.bgsplay", history.export_bgstats, None),
    ("/s/{id}", table.table, None),
    ("/s/{id}/join", start.join, None),
    ("/s/{id}/live", table.live, None),
    ("/s/{id}/seats", seats.seats_page, None),
    ("/s/{id}/seat", seats.take_page, ["GET"]),
    ("/s/{id}/seat", seats.take_post, ["POST"]),
    ("/s/{id}/seat/give-back", seats.give_back_post, ["POST"]),
    ("/s/{id}/seat/move", seats.move_page, None),
    ("/s/{id}/handover", seats.handover_page, ["GET"]),
    ("/s/{id}/handover", seats.handover_post, ["POST"]),
    ("/s/{id}/enter", entering.enter_page, ["GET"]),
    ("/s/{id}/enter", entering.enter_post, ["POST"]),
    ("/s/{id}/history", changes.changes_page, None),
    ("/s/{id}/undo", changes.confirm_page, ["GET"]),
    ("/s/{id}/undo", changes.undo_post, ["POST"]),
    ("/s/{id}/redo", changes.confirm_page, ["GET"]),
    ("/s/{id}/redo", changes.undo_post, ["POST"]),
    ("/s/{id}/result", results.result_page, None),
    ("/s/{id}/players/{person}", history.table_person_page, None),
    ("/s/{id}/game", history.table_game_page, None),
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
