"""Table-side scoring: ``pnp serve``, its SQLite history and its pages.

Layers, each importing only the ones before it::

    db (SQLite: schema, migrations, transactions, the server's secret)
      -> entry (a day entered part by part, driven by the game's entry form)
      -> rounds (pure: a day as stored, committed, being entered or corrected; its versions)
      -> bgstats, plays (pure: BG Stats' plays and files; what a finished session adds to a club's figures)
      -> club (the club's people and figures, kept in the transaction that writes a session)
      -> sessions (a stored session: started, read, saved, listed, imported; what waits beside it)
      -> permissions (pure: the one place that says who may do what)
      -> seats (which phone holds each player's seat: taken, given back, freed, moved)
      -> changes (the history of changes: recorded, read, undone and redone)
      -> round_store (a day read, sent in parts or put whole, in one checked transaction)
      -> records (the club's pages read from its figures a page at a time; every play; the history as JSON)
      -> words, charts, qr, auth (pure: sentences, SVG, signatures)
      -> summary (what the pages show of a session)
      -> base (what every view shares: who is asking, language, CSRF, pages, refusals)
      -> views/* (one module per kind of page or answer: start, table, seats, entering,
         changes, results, exports, history (the club's pages), people (rename, merge), api)
      -> app (addresses wired to views: a small app factory)  ->  serve (uvicorn)

The store (``db`` to ``records``) uses only the standard library, ``regex`` (a
name's length in graphemes) and the scoring package, so ``pnp score import`` and ``pnp score history`` run without the web
stack.  (``db``'s one upward call: a database made before the club's figures counts them once with
:func:`pnp.web.club.recount`, the code that counts each session as it is written.) Nothing here names a game: what a game asks, checks and scores comes
from its rules (:func:`scoring.find_rules`).
"""
