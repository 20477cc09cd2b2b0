"""The words of the web pages and API in English and French, and the language a visitor gets.

Page strings live with every other shared sentence, in the ``[web]`` tables of
``templates/common.<lang>.toml``; the rules' words and every problem's sentence
come from the game's catalog, so a page says exactly what ``pnp score check``
says.
"""

from __future__ import annotations

import dataclasses
import re
import datetime
import unicodedata
from typing import Mapping

from pnp.core.i18n import LANGUAGES, Catalog, common_catalog
from scoring import Common, EntryForm, Label, Messages, Problem, SessionFileError, find_rules, messages
from scoring.report import part_json

__all__ = ["LANGUAGES", "accepted", "choose", "clock", "field_labels", "file_error_json", "game_words", "long_date",
           "notice_json", "number", "part_json", "percent", "game_name", "decision_name", "side_name", "known_game", "problem_json", "problem_text", "round_name", "web"]


def web(lang: str) -> Catalog:
    """The shared catalog of ``lang``; page strings are its ``web.`` keys.

    >>> web("fr").get("web.changes.by_phone_of", names="Émilie, Bob")
    'le téléphone d’Émilie, Bob'
    """
    catalog = common_catalog(lang)
    return _FrenchCatalog(*catalog) if lang == "fr" else catalog


def game_words(lang: str, game: str | None = None) -> Messages:
    """The rules' sentences of ``lang``, with the game's own words when ``game`` is given."""
    return messages(lang, find_rules(game) if game is not None else None)


def round_name(game: str, lang: str, number: int | str) -> str:
    """"Day 2", "Manche 2": a day or round as the game's catalog names it.

    A number from an address may hold thousands of digits: past nine it is
    shown by its first ones; a text that is no number (an address's) is shown
    as given, shortened the same way.
    """
    shown = str(number)
    if len(shown) > 9:
        shown = shown[:6] + "…"
    return game_words(lang, game).text(f"{find_rules(game).round_word}.where", number=shown)


def elided(name: str) -> bool:
    """Whether French elides "de" before ``name``: before a vowel sound ("d’Émilie", "d’Yves"), not before
    "Yann" (a y before a vowel is a consonant) nor an h (mute or not, "de Hugo" is never wrong).

    >>> [elided(name) for name in ("Émilie", "Yves", "Yann", "Hugo", "Bob", "")]
    [True, True, False, False, False, False]
    """
    first = unicodedata.normalize("NFD", name)[:3].replace("\u0301", "").replace("\u0300", "").lower()
    if not first:
        return False
    return first[0] in "aeiou" or (first[0] == "y" and first[1:2] not in tuple("aeiou"))


_OF = re.compile(r"\b([Dd])e \{(\w+)\}")


class _FrenchCatalog(Catalog):
    """The French web catalog: "de {name}" becomes "d’{name}" where the name filled in asks for it."""

    def get(self, key: str, /, **values: object) -> str:
        text = self.texts.get(key)
        if text is not None and values and "e {" in text:
            def elide(found: re.Match) -> str:
                value = values.get(found.group(2))
                return f"{found.group(1)}’{{{found.group(2)}}}" if isinstance(value, str) and elided(value) else found.group(0)

            changed = _OF.sub(elide, text)
            if changed != text:
                return Catalog(self.lang, {key: changed}, self.sources).get(key, **values)
        return super().get(key, **values)


def accepted(header: str | None) -> str | None:
    """The first of our languages an ``Accept-Language`` header asks for, by preference.

    >>> accepted("de-DE,fr;q=0.8,en;q=0.5"), accepted("en-GB"), accepted("de"), accepted(None)
    ('fr', 'en', None, None)
    """
    if not header:
        return None
    choices = []
    for position, item in enumerate(header.split(",")):
        tag, _, rest = item.strip().partition(";")
        weight = 1.0
        rest = rest.strip()
        if rest.startswith("q="):
            try:
                weight = float(rest[2:])
            except ValueError:
                weight = 0.0
        choices.append((-weight, position, tag.split("-")[0].strip().lower()))
    for weight, _, tag in sorted(choices):
        if tag in LANGUAGES and weight < 0:
            return tag
    return None


def choose(*candidates: object) -> str:
    """The first candidate that is one of our languages, else English."""
    for candidate in candidates:
        if candidate in LANGUAGES:
            return candidate
    return "en"


def number(value: float | None, lang: str, decimals: int = 1) -> str:
    """A decimal number as ``lang`` writes it (a comma in French); a dash when there is none.

    >>> number(23.456, "en"), number(23.456, "fr"), number(None, "fr"), number(4.0, "en", 0)
    ('23.5', '23,5', '–', '4')
    """
    if value is None:
        return "–"
    text = f"{value:.{decimals}f}"
    return text.replace(".", ",") if lang == "fr" else text


def percent(share: float | None, lang: str) -> str:
    """A share (0 to 1) as a whole percentage, as ``lang`` writes it (French: a narrow no-break space before %).

    >>> percent(0.4, "en"), percent(0.125, "fr"), percent(None, "en")
    ('40%', '13\\u202f%', '–')
    """
    if share is None:
        return "–"
    shown = str(int(share * 100 + 0.5)) if share * 100 >= 0.5 or share == 0 else "<1"
    return f"{shown}\u202f%" if lang == "fr" else f"{shown}%"


def long_date(iso: str | None, lang: str) -> str:
    """A date as people write it (23 November 2026, 23 novembre 2026); empty when there is none.

    >>> long_date("2026-11-23", "fr"), long_date("2026-03-01", "en"), long_date(None, "en")
    ('23 novembre 2026', '1 March 2026', '')
    """
    if not iso:
        return ""
    year, month, day = (int(part) for part in iso.split("-"))
    words = web(lang)
    months = words.get("web.date.months").split(",")
    return words.get("web.date.long", day=day, month=months[month - 1].strip(), year=year)


def clock(at: str) -> str:
    """The time of a stored moment (UTC, ISO 8601) on this server's clock: "21:05"."""
    return datetime.datetime.fromisoformat(at).astimezone().strftime("%H:%M")


def field_labels(form: EntryForm | None, start: Mapping | None = None,
                 players: tuple[str, ...] = ()) -> dict[str, Label]:
    """The words for each key a day's entry form asks about: its question's label.

    A value that cannot even be read (a count that is no number) is said with
    them on the pages and in the API, where nobody reads the session file; the
    rules' own messages say what they are about and drop the key.
    """
    if form is None:
        return {}
    questions = list(form.round.questions)
    if start is not None:
        for player in players or form.players:
            questions += form.player_form(player, start).questions
    return {".".join(question.path): question.label for question in questions if question.path}


def problem_text(problem: Problem, lang: str, game: str | None = None,
                 labels: Mapping[str, Label] | None = None) -> str:
    """The sentence for a problem: the rules' own, or the web's for the few only a change sent here has.

    Said in words: a value is named by its question (``labels``, from
    :func:`field_labels`), never by a file key, which a phone's user never sees.
    """
    if (labels and isinstance(problem.code, Common) and problem.field is None and problem.key in labels
            and problem.place is None and problem.item is None and "question" not in problem.params):
        problem = dataclasses.replace(problem, field=labels[problem.key])
    words = game_words(lang, game)
    if words.catalog.has(f"problem.{problem.code}"):
        return words.problem(problem, keys=False)
    params = {name: words.show(value) for name, value in problem.params.items()}
    return web(lang).get(f"web.problem.{problem.code}", where=words.where(problem, keys=False), **params)


def problem_json(problem: Problem, lang: str, game: str | None = None,
                 labels: Mapping[str, Label] | None = None) -> dict:
    """A problem as the API reports it: ``pnp score check --json``'s fields, plus where it points.

    The message is in words; ``place``, ``item`` and ``key`` (with ``round`` and
    ``player``) name the field a page shows the message next to, for a program.
    """
    return {
        "code": str(problem.code),
        "message": problem_text(problem, lang, game, labels),
        "round": problem.round,
        "player": problem.player,
        "place": problem.place.key if problem.place else None,
        "item": problem.item.key if problem.item else None,
        "key": problem.key,
    }


def file_error_json(error: SessionFileError, lang: str) -> dict:
    """A session that is not a session at all (unknown game...), as an API error."""
    return {"code": str(error.code), "message": game_words(lang).file_error(error), "round": None,
            "player": None, "place": None, "item": None, "key": None}


def notice_json(code: str, lang: str, **params: object) -> dict:
    """An error only the web reports (a missing token, a day out of turn), as an API error."""
    return {"code": code, "message": web(lang).get(f"web.error.{code}", **params), "round": None,
            "player": None, "place": None, "item": None, "key": None}


# -- the club's history -------------------------------------------------------------------------


def game_name(game: str, lang: str) -> str:
    """The game's name in ``lang``; its id for a game whose rules are not loaded (a plugin's, gone)."""
    try:
        return game_words(lang, game).text("game.name")
    except SessionFileError:
        return game


def known_game(game: str) -> bool:
    """Whether this game's rules are loaded here."""
    try:
        find_rules(game)
    except SessionFileError:
        return False
    return True


def decision_name(game: str, tie_break: str | None, lang: str) -> str:
    """How a session was decided: on points, or the tie-break the game's scoresheet names."""
    if tie_break is None:
        return web(lang).get("web.history.on_points")
    if known_game(game):
        words = game_words(lang, game)
        if words.catalog.has(f"sheet.tie_break.{tie_break}"):
            return words.text(f"sheet.tie_break.{tie_break}")
    return tie_break


def side_name(game: str, kind: str, side: str, lang: str) -> str:
    """A seat ("Seat 2"), a colour ("Red") or a role, in ``lang``."""
    if kind == "seat":
        return web(lang).get("web.game.seat", number=side)
    if kind == "color" and web(lang).has(f"color.{side}"):
        return web(lang).get(f"color.{side}")
    if known_game(game) and game_words(lang, game).catalog.has(f"{kind}.{side}"):
        text = game_words(lang, game).text(f"{kind}.{side}")
        return text[:1].upper() + text[1:]
    return side
