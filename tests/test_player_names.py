"""Player names: one person, one name; nothing a terminal would obey; seat numbers that never mislead."""

from __future__ import annotations

import tomllib
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from helpers import codes, score_host_app
from scoring.problems import Common

APP = score_host_app()
ROUND = "\n" * 13  # every Halali tile count left at 0
CONTROLS = ["\x1b[31m", "\x07", "\x00", "\x7f", "\x9b2J", "\n", "\r", "\t", "\u2028", "\u2029"]
BIDI = ["\u202e", "\u202d", "\u202a", "\u202b", "\u202c", "\u2066", "\u2067", "\u2068", "\u2069",
        "\u200e", "\u200f", "\u061c"]


def run(*args: str, input: str | None = None):
    result = CliRunner().invoke(APP, ["score", *map(str, args)], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def halali(players: list[str]) -> dict:
    return {"game": "halali", "players": players}


@pytest.mark.parametrize("mark", CONTROLS + BIDI, ids=lambda m: f"U+{ord(m[0]):04X}")
def test_a_name_with_a_control_character_or_a_direction_mark_is_refused(mark):
    assert codes(halali(["Ann", f"Bo{mark}b"])) == [Common.UNPRINTABLE_PLAYER_NAME]


@pytest.mark.parametrize("first, second", [
    ("Ann", "ANN"),
    ("Ann", "ann"),
    ("Chlo\u00e9", "Chloe\u0301"),      # the same letter, composed and decomposed (NFC / NFD)
    ("\uff21nn", "Ann"),                # fullwidth A (NFKC)
    ("Stra\u00dfe", "STRASSE"),         # ß casefolds to ss
    ("\ufb01n", "fin"),                 # the ligature fi (NFKC)
    ("Ann\u200b", "Ann"),               # an invisible zero-width space
    (" Ann", "Ann"),
])
def test_names_that_differ_only_by_case_or_encoding_are_one_player(first, second):
    assert codes(halali([first, second])) == [Common.SIMILAR_PLAYER_NAMES]


def test_the_same_name_twice_is_still_a_duplicate():
    assert codes(halali(["Ann", "Ann"])) == [Common.DUPLICATE_PLAYER]


def test_different_names_with_accents_are_two_players():
    assert codes(halali(["Chlo\u00e9", "Chloe"])) == []
    assert codes(halali(["\u00c9lodie", "Zo\u00eb"])) == []


_names = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(_names, _names)
def test_two_names_are_accepted_only_when_a_reader_can_tell_them_apart(first, second):
    found = codes(halali([first, second]))

    def unprintable(name: str) -> bool:
        return any(unicodedata.category(c) in ("Cc", "Zl", "Zp") or c in "".join(BIDI) for c in name)

    def key(name: str) -> str:
        # Unicode's NFKC_Casefold: compatibility forms, case and invisible format characters fold away.
        folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
        return "".join(c for c in folded if unicodedata.category(c) != "Cf").strip()

    if not first.strip() or not second.strip():
        assert Common.EMPTY_PLAYER_NAME in found
    elif unprintable(first) or unprintable(second):
        assert Common.UNPRINTABLE_PLAYER_NAME in found
    elif first == second:
        assert found == [Common.DUPLICATE_PLAYER]
    elif key(first) == key(second):
        assert found == [Common.SIMILAR_PLAYER_NAMES]
    else:
        assert found == []


@pytest.mark.parametrize("lang, words, names", [("en", "same player", ("“Ann”", "“ANN”")),
                                                ("fr", "même joueur", ("«\u00a0Ann\u00a0»", "«\u00a0ANN\u00a0»"))])
def test_similar_names_are_explained_in_the_sessions_language(tmp_path, lang, words, names):
    session = tmp_path / "s.toml"
    session.write_text(f'game = "halali"\nlang = "{lang}"\nplayers = ["Ann", "ANN"]\n')
    result = run("check", session)
    assert result.exit_code == 1
    assert words in result.stderr and all(name in result.stderr for name in names)


@pytest.mark.parametrize("lang, words", [("en", "control character"), ("fr", "caractère de contrôle")])
def test_an_unprintable_name_is_explained_in_the_sessions_language(tmp_path, lang, words):
    session = tmp_path / "s.toml"
    session.write_text(f'game = "halali"\nlang = "{lang}"\nplayers = ["Ann", "B\\u001b[2Job"]\n')
    result = run("check", session)
    assert result.exit_code == 1 and words in result.stderr
    assert "\x1b" not in result.stderr


def test_new_refuses_names_a_terminal_would_obey(tmp_path):
    result = run("new", "halali", "--players", "A\x1b[31mnn,B\u202eob", "--out", tmp_path / "s.toml")
    assert result.exit_code == 1 and result.stderr.startswith("Error: ")
    assert "\x1b" not in result.output and "\u202e" not in result.output
    assert not (tmp_path / "s.toml").exists()


@pytest.mark.parametrize("raw", [
    '[[rounds]]\nblue = "\\u001b]0;owned\\u0007"\n',
    '[[rounds]]\nblue = "Ann"\n[rounds.tiles."\\u202eboB"]\nduck = 1\n',
    '[[rounds]]\nblue = "Ann\\u009b2J"\n',
])
def test_what_a_session_holds_reaches_the_terminal_escaped(tmp_path, raw):
    session = tmp_path / "s.toml"
    session.write_text('game = "halali"\nplayers = ["Ann", "Bob"]\n' + raw)
    result = run("check", session)
    assert result.exit_code == 1
    shown = result.output
    assert not any(unicodedata.category(c) == "Cc" and c != "\n" for c in shown), repr(shown)
    assert not any(c in shown for c in BIDI)
    assert "\\u" in shown or "\\x" in shown  # the mark is shown, escaped, not dropped


# -- seat numbers -------------------------------------------------------------------


def add_blue(tmp_path, players: list[str], answer: str) -> tuple[object, str | None]:
    session = tmp_path / "s.toml"
    session.write_text(f'game = "halali"\nplayers = {players!r}\n'.replace("'", '"'))
    result = run("add", session, input=f"{answer}\n" + ROUND)
    rounds = tomllib.loads(session.read_text()).get("rounds", [])
    return result, rounds[0]["blue"] if rounds else None


@pytest.mark.parametrize("answer, blue", [("2", "2"), ("1", "1")])
def test_players_named_like_numbers_are_chosen_by_name_never_by_seat(tmp_path, answer, blue):
    result, saved = add_blue(tmp_path, ["2", "1"], answer)
    assert result.exit_code == 0, result.output
    assert saved == blue


def test_a_number_that_names_no_player_is_asked_again_when_a_player_is_named_like_a_number(tmp_path):
    # "Ann" is seat 1, but with a player called "7" seat numbers are not used at all.
    result, saved = add_blue(tmp_path, ["Ann", "7"], "1\nAnn")
    assert result.exit_code == 0, result.output
    assert saved == "Ann"
    assert "Please type one of" in result.stderr


@pytest.mark.parametrize("answer, blue", [("2", "Bob"), ("1", "Ann"), ("bob", "Bob"), ("BOB", "Bob")])
def test_seat_numbers_and_any_case_choose_a_player_when_no_name_is_a_number(tmp_path, answer, blue):
    result, saved = add_blue(tmp_path, ["Ann", "Bob"], answer)
    assert result.exit_code == 0, result.output
    assert saved == blue


def test_a_name_is_chosen_by_its_letters_however_they_are_encoded(tmp_path):
    result, saved = add_blue(tmp_path, ["Chlo\u00e9", "Bob"], "CHLOE\u0301")
    assert result.exit_code == 0, result.output
    assert saved == "Chlo\u00e9"
