"""A finished session as a BG Stats "push play" link.

BG Stats (Board Game Stats) imports a play from a link of the form
``bgstats://app.bgstatsapp.com/createPlay.html?data=<url-encoded JSON>``, or the
same address under ``https://``, as published in its support page "Push plays
to BG Stats from other apps or websites"
(https://www.bgstatsapp.com/support/push-plays-to-bg-stats-from-other-apps-or-websites/).
The JSON names the game (with ``highestWins`` / ``noPoints``), the play date
(``YYYY-MM-DD HH:MM:SS``), optionally the duration and comments, and each
player with score, winner, rank, start player and role; ``sourceName`` and
``sourcePlayId`` say which app sent the play, so BG Stats can match it again.
"""

from __future__ import annotations

import datetime
import json
from urllib.parse import quote

SOURCE_NAME = "pnp"
APP_LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
WEB_LINK = "https://app.bgstatsapp.com/createPlay.html?data="


def ranks(players: list[str], totals: dict[str, int], winners: list[str]) -> dict[str, int]:
    """1 for the winners, then by total; equal players share a rank (1, 2, 2, 4).

    A player tied on points with the winner but beaten by the tie-break ranks
    below the winner.

    >>> ranks(["A", "B", "C", "D"], {"A": 9, "B": 9, "C": 5, "D": 9}, ["A"])
    {'A': 1, 'B': 2, 'C': 4, 'D': 2}
    """
    key = {p: (p in winners, totals.get(p, 0)) for p in players}
    return {p: 1 + sum(1 for q in players if key[q] > key[p]) for p in players}


def play(result: dict, *, session_id: str, game_id: str, game_name: str, played_at: datetime.datetime,
         minutes: int | None = None, comments: str = "") -> dict:
    """The play BG Stats imports, from a finished session's ``check --json`` result."""
    players = result["players"]
    has_points = bool(result["totals"])
    placed = ranks(players, result["totals"], result["winners"])
    entries = []
    for name in players:
        entry = {"name": name, "sourcePlayerId": name, "winner": name in result["winners"],
                 "startPlayer": False, "role": ""}
        if has_points:
            entry["score"] = result["totals"][name]
            entry["rank"] = placed[name]
        entries.append(entry)
    data = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": session_id,
        "playDate": played_at.strftime("%Y-%m-%d %H:%M:%S"),
        "game": {"name": game_name, "sourceGameId": game_id, "highestWins": True, "noPoints": not has_points},
        "players": entries,
    }
    if minutes is not None:
        data["durationMin"] = minutes
    if comments:
        data["comments"] = comments
    return data


def link(data: dict, base: str = APP_LINK) -> str:
    """The push-play link of ``data``: its JSON, URL-encoded whole, after ``base``."""
    return base + quote(json.dumps(data, ensure_ascii=False, separators=(",", ":")), safe="")
