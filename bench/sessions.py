"""Generate a folder of valid score sessions for the benchmark (all four games).

Hunting Fever days come from the rules simulator used by the tests, so every
state is one that real play can reach; the other games are drawn at random
inside their rules' limits.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from hunting_fever_sim import play_game, session as hunting_fever_session  # noqa: E402

sys.path.insert(0, str(ROOT))
from scoring import beavers, card_hunter, halali  # noqa: E402  (the games' facts, kept once)

NAMES = ["Alice", "Bob", "Chloé", "Dévi", "Émile"]


def halali_session(rng: random.Random) -> dict:
    players = ["Ann", "Ben"]
    rounds = []
    for number in range(halali.ROUNDS):
        blue = players[number]
        left = dict(halali.BOX)
        tiles = {}
        for player in players:
            role = "blue" if player == blue else "brown"
            own = halali.OWN[role]
            held, own_out = {}, 0
            for kind in halali.HOLDABLE[role]:
                most = left[kind] if kind not in own else min(left[kind], halali.EXIT_TURNS - own_out)
                n = rng.randint(0, max(0, most // 2))
                if n:
                    held[kind] = n
                    left[kind] -= n
                    if kind in own:
                        own_out += n
            tiles[player] = held
        rounds.append({"blue": blue, "tiles": tiles})
    return {"game": "halali", "players": players, "rounds": rounds}


def beavers_session(rng: random.Random) -> dict:
    players = NAMES[:beavers.PLAYERS]
    money = {p: 0 for p in players}
    rounds = []
    for _ in range(beavers.ROUNDS):
        change = {}
        for p in players:
            room = beavers.BEAVERS_IN_DECK - sum(money.values())
            delta = rng.randint(-money[p], min(3, room))
            money[p] += delta
            change[p] = delta
        rounds.append(change)
    return {"game": "hunting-hunting-beavers", "players": players, "rounds": rounds}


def card_hunter_session(rng: random.Random) -> dict:
    result = rng.choice(card_hunter.RESULTS)
    return {"game": "card-hunter", "players": NAMES[:rng.randint(1, 3)],
            "difficulty": rng.choice(card_hunter.DIFFICULTIES), "result": result,
            "knockouts_left": rng.randint(1, card_hunter.KNOCKOUT_TOKENS) if result == "won" else 0}


def write_sessions(folder: Path, count: int, seed: int = 7) -> list[Path]:
    """Write ``count`` JSON sessions, a quarter of each game; return their paths."""
    rng = random.Random(seed)
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for index in range(count):
        kind = index % 4
        if kind == 0:
            names = NAMES[:rng.randint(3, 5)]
            raw = hunting_fever_session(names, list(play_game(names, rng)))
        elif kind == 1:
            raw = halali_session(rng)
        elif kind == 2:
            raw = beavers_session(rng)
        else:
            raw = card_hunter_session(rng)
        path = folder / f"session-{index:04d}.json"
        path.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
        paths.append(path)
    return paths
