"""The views of ``pnp serve``, one module per kind of page or answer.

Each view is ``async def view(site, request) -> Response`` over
:class:`pnp.web.base.Site`, which holds what they share (who is asking, the
language, CSRF, pages and refusals); :mod:`pnp.web.app` wires them to their
addresses.

* :mod:`~pnp.web.views.start`: the organiser's link and home page, starting a session, a phone joining it;
* :mod:`~pnp.web.views.table`: the table's page and the live scores phones poll;
* :mod:`~pnp.web.views.seats`: a phone takes its seat, gives it back; the organiser frees or moves one (pages and JSON);
* :mod:`~pnp.web.views.entering`: the entry form of a day or round, a player's part, a correction;
* :mod:`~pnp.web.views.changes`: a session's history of changes, undo and redo, each asked first (pages and JSON);
* :mod:`~pnp.web.views.results`: the result page and the filled scoresheet;
* :mod:`~pnp.web.views.exports`: the session file (TOML, JSON, CSV) and the BG Stats play;
* :mod:`~pnp.web.views.history`: the organiser's history of every session and each player's record;
* :mod:`~pnp.web.views.api`: the JSON API of sessions and their days or rounds (ETag, If-Match).
"""
