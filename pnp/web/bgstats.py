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
import uuid
from typing import Iterable, Mapping
from urllib.parse import quote

SOURCE_NAME = "pnp"
APP_LINK = "bgstats://app.bgstatsapp.com/createPlay.html?data="
WEB_LINK = "https://app.bgstatsapp.com/createPlay.html?data="


def played_at(origin: str, completed_at: str | None, played_on: str | None) -> datetime.datetime:
    """When a session was played, as BG Stats dates a play: when it ended at a table, in this computer's
    time; an imported session's date alone (its time is not known)."""
    if origin == "table" and completed_at:
        return datetime.datetime.fromisoformat(completed_at).astimezone()
    day = datetime.date.fromisoformat(played_on) if played_on else datetime.date.today()
    return datetime.datetime.combine(day, datetime.time(0, 0))


def minutes_played(origin: str, created_at: str, completed_at: str | None) -> int | None:
    """How long a session played at a table took, from its start to its last entry; None if not known."""
    if origin != "table" or not completed_at:
        return None
    started = datetime.datetime.fromisoformat(created_at)
    ended = datetime.datetime.fromisoformat(completed_at)
    return max(1, round((ended - started).total_seconds() / 60))


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


# -- every play of a club at once: a BG Stats play file ------------------------------------------------

#: What BG Stats' own files say at their top, so that a person who opens one knows what it is for.
ABOUT = ("This is a play file for Board Game Stats (BG Stats), written by pnp. Open it with BG Stats "
         "(share, export or open-in) to import every play it holds.")


def _uuid(club: str, kind: str, key: object) -> str:
    """A stable id for one thing of one club: the same at every export, so BG Stats matches it again."""
    return str(uuid.uuid5(uuid.UUID(hex=club), f"{kind}:{key}")).upper()


def club_file(plays: Iterable, *, club: str, game_names: Mapping[str, str], me: int | None = None) -> dict:
    """Every play at once, as BG Stats' own export and play files hold plays: ``players``, ``games``,
    ``locations`` and ``plays``, each play's ``playerScores`` pointing at its players and its game by id.

    ``plays`` are the seats of every finished session (records.PlayRow: session, played_at, minutes, game,
    seat, person, person_name, total, won, rank, side), grouped by session in seating order; ``club``
    the club's id, from which every id is made; ``me``, the person the file is for (BG Stats' "me").
    Scores are written as BG Stats writes them, as text; a game without points has none.  A person's first
    play of a game in the file is their ``newPlayer`` one; a game without points whose players always win
    or lose together is ``cooperative``.
    """
    people: dict[int, dict] = {}
    seen: set[tuple[int, str]] = set()
    games: dict[str, dict] = {}
    sessions: dict[str, dict] = {}
    for seat in plays:
        person = people.setdefault(seat.person, {
            "id": len(people) + 1, "uuid": _uuid(club, "player", seat.person), "name": seat.person_name,
            "isAnonymous": False, "bggUsername": ""})
        game = games.setdefault(seat.game, {
            "id": len(games) + 1, "uuid": _uuid(club, "game", seat.game), "name": game_names.get(seat.game, seat.game),
            "sourceGameId": seat.game, "highestWins": True, "noPoints": seat.total is None, "cooperative": False,
            "usesTeams": False, "bggId": 0})
        play = sessions.get(seat.session)
        if play is None:
            when = seat.played_at.strftime("%Y-%m-%d %H:%M:%S")
            play = sessions[seat.session] = {
                "uuid": _uuid(club, "play", seat.session), "gameRefId": game["id"], "locationRefId": 1,
                "playDate": when, "entryDate": when, "durationMin": seat.minutes or 0, "ignored": False,
                "manualWinner": False, "rounds": 0, "usesTeams": False, "rating": 0, "scoringSetting": 0,
                "playImages": "[]", "expansionPlays": [], "bggId": 0, "sourceName": SOURCE_NAME,
                "sourcePlayId": seat.session, "playerScores": []}
        play["playerScores"].append({
            "playerRefId": person["id"], "score": "" if seat.total is None else str(seat.total),
            "winner": seat.won, "rank": seat.rank, "seatOrder": seat.seat, "startPlayer": False,
            "role": seat.side or "", "team": "", "newPlayer": (seat.person, seat.game) not in seen})
        seen.add((seat.person, seat.game))
    for game_id, game in games.items():
        outcomes = [{score["winner"] for score in play["playerScores"]} for play in sessions.values()
                    if play["gameRefId"] == game["id"]]
        game["cooperative"] = game["noPoints"] and all(len(outcome) == 1 for outcome in outcomes)
    found = {"about": ABOUT, "players": list(people.values()), "games": list(games.values()),
             "locations": [{"id": 1, "uuid": _uuid(club, "location", "pnp"), "name": SOURCE_NAME}],
             "plays": list(sessions.values())}
    if me is not None and me in people:
        found["userInfo"] = {"meRefId": people[me]["id"]}
    return found
