"""What the pages show of one session: its players, rounds, totals, winners and how far it is."""

from __future__ import annotations

from scoring import SessionFileError, check_session, find_rules, score_session

from pnp.web import rounds, sessions
from pnp.web.words import game_words, long_date, round_name, web


def summary(stored: sessions.StoredSession, lang: str) -> dict:
    """What the table, result and history pages show of one session."""
    try:
        rules = find_rules(stored.game)
    except SessionFileError:
        return _stranger(stored, lang)
    words = game_words(lang, stored.game)
    result = stored.result
    expected = rounds.rounds_in_game(stored.game)
    entered = rounds.rounds_entered(stored.document, stored.complete)
    checked = check_session(stored.document)
    outcome = []
    if checked.session is not None:
        outcome = [words.label(line) for line in rules.report(score_session(checked.session)).lines]
    winners = result["winners"]
    headline = (words.plural("report.winners", len(winners), names=winners) if winners
                else web(lang).get("web.result.no_winner"))
    played = []
    for n, scores in enumerate(result["rounds"], start=1):
        long = round_name(stored.game, lang, n)
        # "D2", "J2", "R2": the round word's first letter, in whatever language and game.
        played.append({"short": f"{long[:1]}{n}", "long": long, "scores": scores})
    return {
        "id": stored.id,
        "game": stored.game,
        "game_name": words.text("game.name"),
        "players": stored.players,
        "date": long_date(stored.played_on, lang),
        "rounds": played,
        "totals": result["totals"],
        "has_points": bool(result["totals"]),
        "complete": stored.complete,
        "winners": winners,
        "outcome": outcome,
        "headline": headline,
        "details": [line for line in outcome if line != headline],
        "expected": expected,
        "entered": entered,
        "progress": web(lang).get("web.table.progress", current=round_name(stored.game, lang, entered + 1),
                                  total=expected),
        "single_outcome": rounds.rounds_key(stored.game) is None,
        "origin": stored.origin,
    }


def _stranger(stored: sessions.StoredSession, lang: str) -> dict:
    """A session of a game this server does not know (joined at run time, then gone): listed, not shown."""
    return {"id": stored.id, "game": stored.game, "game_name": stored.game, "players": stored.players,
            "date": long_date(stored.played_on, lang), "rounds": [], "totals": stored.result["totals"],
            "has_points": False, "complete": stored.complete, "winners": stored.result["winners"], "outcome": [],
            "headline": "", "details": [], "expected": 0, "entered": 0, "progress": "", "single_outcome": True,
            "origin": stored.origin}
