"""``pnp new NAME``: a small template folder that renders at once, to grow into a game.

It holds what most card games start with: a deck of cards read from a CSV data
file (with a shared back, a field worked out from the others, and a picture each
named by a column: pnp.template.starter_art draws them), a text with an inline
icon, a player aid, a scoresheet declared in its [score] (six rounds, two to four
players), and the texts in English and French. The folder is written whole or not
at all (:class:`pnp.core.files.FolderReplacement`), and never over anything: a name
already taken is refused. docs/TEMPLATES.md opens with a
tutorial that grows this folder into a complete little game.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from pnp.core.errors import PnpError
from pnp.core.files import FolderReplacement, WriteError, shown_path

NAME = re.compile(r"^[a-z][a-z0-9_-]*$")
#: The longest name ``pnp new`` takes: its title (``tide-pools``: "Tide Pools") is printed on every
#: card's back, and 24 of the widest letters still fit there at 6 pt ("Hunting Hunting Beavers"
#: has 23). tests/test_designer_templates.py renders the widest names at this length.
MAX_NAME = 24

TEMPLATE = '''\
# {title}: made by `pnp new {id}`. Render it with
#   pnp render --template {id}/{id}.toml
# and grow it with the tutorial at the top of docs/TEMPLATES.md.

[game]
id = "{id}"
players = [2, 4]
rules_url = "https://example.org/{id}"
designers = ["Your name"]
fan_copy = false                                # your own game, not a copy of someone else's

[palette]
ink = "#263238"
paper = "#fbf8f1"
light = "#e9e2d2"
accent = "#8c3b2a"
sun = "#d08a1e"
sea = "#2f6e9c"

# ---------------------------------------------------------------- the cards, one row each in cards.csv
[[components]]
id = "cards"
size = "poker"
shape = "rounded"                               # cut with 3 mm round corners
corner_radius = 3
hidden = true                                   # held in hand: every back alike
fields = {{ colour = "str", number = "int", art = "str", _tone = "color" }}
computed = {{ points = "number * 2 if number > 4 else number" }}
pieces = "cards.csv"

[[components.front]]
type = "background"
fill = "paper"

[[components.front]]
type = "image"                                  # a picture of yours: PNG, JPEG or WebP
file = "{{art}}"                                # each row of cards.csv names its card's picture
x = 5.5
y = 5.5
w = "w - 11"
h = 38
anchor = "bottom"                               # cropped from the top, the horizon kept

[[components.front]]
type = "rect"
x = 3.5
y = 3.5
w = "w - 7"
h = "h - 7"
radius = 3
stroke = "{{_tone}}"
stroke_width = 1.2

[[components.front]]
type = "text"
x = 6
y = 46
w = "w - 12"
h = 9
text = "@colour.{{colour}}"
font = "bold"
size = 12
color = "{{_tone}}"

[[components.front]]
type = "text"
x = 6
y = 55
w = "w - 12"
h = 17
text = "{{number}}"
font = "black"
size = 40
color = "{{_tone}}"

[[components.front]]
type = "text"
x = 6
y = "h - 15"
w = "w - 12"
h = 8
text = "@card.points"                           # ":star: 2 points": the star is icons/star.svg
plural = "points"                               # card.points.one or .other, by the points
size = 12

[[components.back]]
type = "background"
fill = "accent"

[[components.back]]
type = "rect"
x = 6
y = 6
w = "w - 12"
h = "h - 12"
radius = 3
stroke = "paper"
stroke_width = 0.8

[[components.back]]
type = "text"
x = 8
y = "h/2 - 8"
w = "w - 16"
h = 16
text = "@game.name"
font = "black"
size = 16
color = "paper"

# ---------------------------------------------------------------- one aid for each player
[[components]]
id = "aid"
size = "poker"
pieces = [{{ id = "aid", count = 4 }}]

[[components.front]]
type = "background"
fill = "paper"

[[components.front]]
type = "text"
x = 5
y = 5
w = "w - 10"
h = 12
text = "@aid.title"
font = "black"
size = 14
color = "accent"

[[components.front]]
type = "text"
x = 5
y = 20
w = "w - 10"
h = "h - 25"
text = "@aid.body"
size = 10
wrap = true
align = "left"
valign = "top"

# ---------------------------------------------------------------- how the game is scored
# A row per round, a column per player, the total and the winner: the scoresheet below draws it,
# and `pnp score new {id}/{id}.toml --players "Ann,Bob"` keeps a session of it.
[score]
rounds = 6
tie_break = "best_round"                        # a tie on the total: the best single round wins

# ---------------------------------------------------------------- the scoresheet, printed on paper
[[components]]
id = "scoresheet"
size = "180x120"
kind = "sheet"
cut = false
pieces = [{{ id = "scoresheet", count = 1 }}]
front = [{{ type = "scoresheet", x = 0, y = 0, w = "w", h = "h" }}]
'''

CATALOGS = {
    "en": '''\
[game]
name = "{title}"
credits = "A game by your name."

[component.cards]
name = "Cards"
cut = "Cut out the 12 cards along the marks."

[component.aid]
name = "Player aids"
cut = "Cut out the 4 player aids."

[component.scoresheet]
name = "Scoresheet"
cut = "Print one scoresheet for each game."

[colour]
sun = "Sun"
sea = "Sea"

[card.points]
one = ":star: {{points}} point"
other = ":star: {{points}} points"

[aid]
title = "On your turn"
body = "Play a card, then draw one. A **5** or a **6** scores double. The most :star: after six rounds wins."
''',
    "fr": '''\
[game]
name = "{title}"
credits = "Un jeu de votre nom."

[component.cards]
name = "Cartes"
cut = "Découpez les 12 cartes le long des repères."

[component.aid]
name = "Aides de jeu"
cut = "Découpez les 4 aides de jeu."

[component.scoresheet]
name = "Feuille de score"
cut = "Imprimez une feuille de score par partie."

[colour]
sun = "Soleil"
sea = "Mer"

[card.points]
one = ":star: {{points}} point"
other = ":star: {{points}} points"

[aid]
title = "À votre tour"
body = "Jouez une carte, puis piochez-en une. Un **5** ou un **6** compte double. Le plus de :star: après six manches l’emporte."
''',
}

CARDS = "id,colour,number,art,_tone\n" + "".join(
    f"{colour}-{number},{colour},{number},art/{colour}.png,{colour}\n" for colour in ("sun", "sea")
    for number in range(1, 7))


def starter_files(game_id: str) -> dict[str, bytes]:
    """The files of a new template folder for ``game_id``, by name: the template, its catalogs,
    its data file, a picture for each colour of its cards and the star its texts show.

    >>> sorted(starter_files("tide"))
    ['art/sea.png', 'art/sun.png', 'cards.csv', 'icons/star.svg', 'tide.en.toml', 'tide.fr.toml', 'tide.toml']
    """
    from pnp.template.starter_art import starter_art

    title = game_id.replace("-", " ").replace("_", " ").title()
    files = {f"{game_id}.toml": TEMPLATE.format(id=game_id, title=title), "cards.csv": CARDS}
    for lang, text in CATALOGS.items():
        files[f"{game_id}.{lang}.toml"] = text.format(title=title)
    return {**{name: text.encode("utf-8") for name, text in files.items()}, **starter_art()}


def _taken(folder: Path) -> str:
    return "it exists already; pnp new never writes over a folder (choose another name, or remove it)"


def write_starter(folder: Path) -> Path:
    """Write a new template folder at ``folder`` (its last part is the game's id); its template file."""
    game_id = folder.name
    if not NAME.match(game_id) or len(game_id) > MAX_NAME:
        shown = game_id if len(game_id) <= 60 else game_id[:57] + "..."
        raise PnpError(f"{shown_path(folder)}: a game's id is lower-case letters, digits, - and _, "
                       f"starting with a letter, at most {MAX_NAME} characters (like 'tide-pools'), got "
                       f"{shown!r} ({len(game_id)} characters)")
    if os.path.lexists(folder):
        raise PnpError(f"{shown_path(folder)}: {_taken(folder)}")
    try:
        with FolderReplacement(folder, _taken) as replacement:
            replacement.check()
            for name, data in starter_files(game_id).items():
                replacement.add(name, data)
            replacement.commit()
    except WriteError as exc:
        raise PnpError(f"cannot write {shown_path(folder)}: {exc}") from None
    return folder / f"{game_id}.toml"
