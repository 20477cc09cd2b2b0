"""A fifth game joins at run time: its template, catalogs and rules live in tests/fixtures/toy_game.

Nothing under pnp/ or scoring/ names it. Registering its rules is all it takes
for the score commands (new, add, check) to handle it, in English and French,
and its kit loads and renders like a shipped one.
"""

from __future__ import annotations

import json
import tomllib

import pytest
from typer.testing import CliRunner

from helpers import TOY, load_toy_rules, score_host_app
from pnp.core.i18n import LANGUAGES, compare_catalogs, placeholders
from scoring import GameRules, check_session, find_rules, game_ids, messages, register, score_session, unregister

APP = score_host_app()


@pytest.fixture
def toy():
    module = load_toy_rules()
    register(module.RULES)
    yield module
    unregister(module.RULES.id)


def run(*args: str, input: str | None = None):
    result = CliRunner().invoke(APP, ["score", *map(str, args)], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result


def test_unknown_until_registered_then_found_by_id(toy):
    assert "acorn-hoard" in game_ids() and find_rules("acorn-hoard") is toy.RULES
    unregister("acorn-hoard")
    assert "acorn-hoard" not in game_ids()
    with pytest.raises(ValueError):
        register(find_rules("halali"))  # a shipped id cannot be taken
    register(toy.RULES)
    with pytest.raises(ValueError):
        register(toy.RULES)

    class Unfinished(GameRules):
        id, player_range = "unfinished", (1, 2)
        read_session = score = entry_form = example = lambda self, *args: None

    with pytest.raises(ValueError, match="does not say its rounds"):
        register(Unfinished())


def test_a_game_whose_catalogs_lack_a_message_is_refused(tmp_path):
    module = load_toy_rules()
    for lang in LANGUAGES:
        text = (TOY / f"acorn-hoard.{lang}.toml").read_text(encoding="utf-8")
        if lang == "fr":
            text = "\n".join(line for line in text.splitlines() if not line.startswith("acorns_exceed_box"))
        (tmp_path / f"acorn-hoard.{lang}.toml").write_text(text, encoding="utf-8")
    elsewhere = type("Elsewhere", (module.AcornHoardRules,), {"catalog_folder": tmp_path})()
    with pytest.raises(ValueError, match=r"acorn-hoard \(fr\): no message problem.acorns_exceed_box"):
        register(elsewhere)
    assert "acorn-hoard" not in game_ids()


def test_the_unregistered_game_is_refused_naming_the_known_ones(tmp_path):
    result = run("new", "acorn-hoard", "--players", "A,B", "--out", tmp_path / "s.toml")
    assert result.exit_code == 1 and "unknown game" in result.stderr and "halali" in result.stderr


def test_its_catalogs_hold_a_message_for_every_code(toy):
    for lang in LANGUAGES:
        words = messages(lang, toy.RULES).catalog
        for code in toy.AcornProblem:
            assert placeholders(words.get(f"problem.{code}")) == {"where"} | code.params
    assert compare_catalogs(messages("en", toy.RULES).catalog, messages("fr", toy.RULES).catalog) == []


def test_new_add_and_check_at_the_prompt(toy, tmp_path):
    path = tmp_path / "hoard.toml"
    result = run("new", "acorn-hoard", "--players", "Ann,Ben", "--out", path)
    assert result.exit_code == 0, result.output
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Acorn Hoard: pnp score add")
    assert "# Ann = { acorns = 4, stash_flipped = true }" in text  # the rules' example
    # Ann flips a stash of 1 acorn: asked again. Then the squirrels hide 25 of the box's 20:
    # the round is asked again, and entered right.
    answers = ["1", "y", "5", "y", "20", "n", "y", "5", "y", "7", "n"]
    result = run("add", path, input="\n".join(answers) + "\n")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("Round 1 — Ann") == 3 and result.stdout.count("Round 1 — Ben") == 2
    assert "Round 1, Ann: a flipped stash holds at least 3 acorns, but 1 are entered." in result.stderr
    assert "Round 1: the squirrels hid 25 acorns together, but the box has only 20." in result.stderr
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    assert raw["rounds"] == [{"Ann": {"acorns": 5, "stash_flipped": True}, "Ben": {"acorns": 7, "stash_flipped": False}}]
    out = json.loads(run("check", path, "--json").stdout)
    assert out == {"game": "acorn-hoard", "players": ["Ann", "Ben"], "rounds": [{"Ann": 10, "Ben": 7}],
                   "totals": {"Ann": 10, "Ben": 7}, "complete": False, "winners": [], "tie_break": None}


def test_the_report_in_french(toy, tmp_path):
    raw = {"game": "acorn-hoard", "players": ["Ann", "Ben"], "lang": "fr", "rounds": [
        {"Ann": {"acorns": 4}, "Ben": {"acorns": 3, "stash_flipped": True}}] * 3}
    path = tmp_path / "hoard.json"
    path.write_text(json.dumps(raw), encoding="utf-8")
    text = run("check", path).stdout
    assert text.splitlines()[0] == "Le Magot des glands · Ann, Ben"
    assert "Manche 3" in text and "Vainqueur\u00a0: Ben" in text
    broken = {**raw, "rounds": [{"Ann": {"acorns": 2, "stash_flipped": True}, "Ben": {"acorns": 19}}]}
    path.write_text(json.dumps(broken), encoding="utf-8")
    errors = json.loads(run("check", path, "--json").stdout)["errors"]
    assert [e["code"] for e in errors] == ["flipped_stash_too_small", "acorns_exceed_box"]
    assert errors[0]["message"].startswith("Manche 1, Ann\u00a0: une cachette retournée")


def test_library_calls_score_it_like_any_game(toy):
    checked = check_session({"game": "acorn-hoard", "players": ["A", "B", "C"], "rounds": [
        {"A": {"acorns": 6, "stash_flipped": True}, "B": {"acorns": 6}, "C": {"acorns": 6}}] * 3})
    result = score_session(checked.session)
    assert result.totals == {"A": 33, "B": 18, "C": 18} and result.winners == ("A",)


def test_its_kit_loads_and_renders(toy):
    from pnp.kit.build import render_to_memory
    from pnp.template.model import PrintOptions
    from pnp.template.loader import load_game

    game = load_game(TOY / "acorn-hoard.toml")
    assert game.id == "acorn-hoard" and game.catalogs["fr"].get("game.name") == "Le Magot des glands"
    pdf, manifest = render_to_memory(game, PrintOptions(lang="fr"))
    assert pdf.startswith(b"%PDF") and manifest["game"] == "acorn-hoard"
    fronts = [item for page in manifest["pages"] for item in page["items"] if item["face"] == "front"]
    assert len(fronts) == 21 and fronts[-1]["component"] == "scoresheet"


def test_its_scoresheet_is_the_plain_one_its_rules_inherit(toy):
    """A column per player, a box per round, the total and the winner: blank and filled."""
    from helpers import pdf_reader
    from pnp.kit.build import render_to_memory
    from pnp.layout.faces import Filled
    from pnp.layout.plan import plan_kit
    from pnp.template.model import PrintOptions
    from pnp.render.document import render_kit
    from pnp.render.fonts import MEASURER
    from pnp.template.loader import load_game
    from pnp.core.units import paper_size

    game = load_game(TOY / "acorn-hoard.toml")
    blank = toy.RULES.scoresheet(None)
    assert len(blank.columns) == 4 and len(blank.rows) == 1 + 3  # names, then three rounds
    pdf, manifest = render_to_memory(game, PrintOptions(lang="fr"), ["scoresheet"])
    text = pdf_reader(pdf).pages[-1].extract_text()
    assert "Le Magot des glands — Feuille de score" in text and "Manche 3" in text
    checked = check_session({"game": "acorn-hoard", "players": ["Ann", "Ben"], "rounds": [
        {"Ann": {"acorns": 4}, "Ben": {"acorns": 3, "stash_flipped": True}}] * 3})
    result = score_session(checked.session)
    filled = Filled(toy.RULES.scoresheet(result), "qr", None)
    plan = plan_kit(game, PrintOptions(lang="en"), paper_size("a4"), ["scoresheet"], cover=False,
                    measure=MEASURER, filled=filled)
    pdf, _ = render_kit(plan)
    text = " ".join(pdf_reader(pdf).pages[0].extract_text().split())
    assert "Ann" in text and "Ben" in text and "Winner" in text
    for total in result.totals.values():
        assert f"+{total}" in text


def test_without_its_rules_its_scoresheet_has_nothing_to_show():
    from pnp.kit.build import render_to_memory
    from pnp.core.errors import TemplateError
    from pnp.template.model import PrintOptions
    from pnp.template.loader import load_game

    game = load_game(TOY / "acorn-hoard.toml")
    with pytest.raises(TemplateError, match="no game rules are registered for 'acorn-hoard'"):
        render_to_memory(game, PrintOptions(), ["scoresheet"])
