"""Table-side scoring: ``pnp serve``, its SQLite history and its pages.

Layers, each importing only the ones before it::

    db (SQLite: schema, migrations, transactions)
      -> entry (a day entered part by part, driven by the game's entry form)
      -> tables (sessions over the scoring package: start, enter a day, import, history)
      -> words, bgstats, charts, qr, auth (pure: sentences, links, SVG, signatures)
      -> summary (what the pages show of a session)
      -> base (what every view shares: who is asking, language, CSRF, pages, refusals)
      -> views/* (one module per kind of page or answer: start, table, entering,
         changes, results, exports, history, api)
      -> app (addresses wired to views: a small app factory)  ->  serve (uvicorn)

``db``, ``entry`` and ``tables`` use only the standard library and the scoring
package, so ``pnp score import`` and ``pnp score history`` run without the web
stack. Nothing here names a game: what a game asks, checks and scores comes
from its rules (:func:`scoring.find_rules`).
"""
