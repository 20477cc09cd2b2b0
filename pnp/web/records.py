"""Each player's record per game over the stored sessions, and the history as ``pnp score history --json`` prints it."""

from __future__ import annotations

from typing import Iterable, NamedTuple

from pnp.web.sessions import StoredSession


class PlayerRecord(NamedTuple):
    """One player's sessions of one game: how many finished, won, and their totals."""

    name: str
    played: int
    won: int
    totals: tuple[int, ...]  # oldest first; empty for a game without points

    @property
    def average(self) -> float | None:
        return sum(self.totals) / len(self.totals) if self.totals else None

    @property
    def best(self) -> int | None:
        return max(self.totals) if self.totals else None


def player_records(sessions: Iterable[StoredSession]) -> dict[str, list[PlayerRecord]]:
    """Per game, every player's finished sessions, wins and totals; most wins first."""
    tally: dict[str, dict[str, dict]] = {}
    for stored in sorted(sessions, key=lambda s: (s.played_on or s.created_at[:10], s.created_at)):
        if not stored.complete:
            continue
        game = tally.setdefault(stored.game, {})
        for player in stored.result["players"]:
            record = game.setdefault(player, {"played": 0, "won": 0, "totals": []})
            record["played"] += 1
            record["won"] += player in stored.result["winners"]
            if player in stored.result["totals"]:
                record["totals"].append(stored.result["totals"][player])
    records = {}
    for game, players in tally.items():
        rows = [PlayerRecord(name, r["played"], r["won"], tuple(r["totals"])) for name, r in players.items()]
        rows.sort(key=lambda r: (-r.won, -(r.average or 0), r.name))
        records[game] = rows
    return records


def history_json(sessions: list[StoredSession]) -> dict:
    """The history as ``pnp score history --json`` prints it: every session, then per game every player."""
    records = player_records(sessions)
    return {
        "sessions": [
            {"id": s.id, "game": s.game, "date": s.played_on, "origin": s.origin, "source": s.source,
             "complete": s.complete, "players": s.players, "totals": s.result["totals"],
             "winners": s.result["winners"], "tie_break": s.result["tie_break"]}
            for s in sessions
        ],
        "players": {
            game: [{"name": r.name, "played": r.played, "won": r.won,
                    "average": None if r.average is None else round(r.average, 2), "best": r.best}
                   for r in rows]
            for game, rows in records.items()
        },
    }
