"""The code reads one way: no import circles, and the scoring layers only import the layers below.

Imports are read from the source. Those at a module's top level run when it
loads; those inside a function are late loads (the score commands load their
work only when run), which may not close a circle either.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The scoring package, lowest layer first: words and codes, messages and errors,
#: reading and results, what sheets share, the rules protocol, each game, whole
#: sessions, reports.
SCORING_LAYERS = [
    {"terms", "toml_writer", "names"},
    {"problems"},
    {"messages"},
    {"errors"},
    {"session_csv"},
    {"fields", "result", "forms", "session_file"},
    {"sheet"},
    {"rules", "hunting_fever_counting"},
    {"hunting_fever", "halali", "beavers", "card_hunter"},
    {"session", "hunting_fever_play"},
    {"report", "hunting_fever_proof"},
]


def modules() -> dict[str, Path]:
    found = {}
    for package in ("pnp", "scoring"):
        for path in (ROOT / package).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            found[name.removesuffix(".__init__")] = path
    return found


def imports(path: Path, known: dict[str, Path], late: bool = False) -> set[str]:
    """The project modules ``path`` imports when it is loaded (with ``late``, also inside functions)."""
    imported = set()
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in (ast.walk(tree) if late else tree.body):
        if isinstance(node, ast.Import):
            imported |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            submodules = {f"{node.module}.{alias.name}" for alias in node.names} & set(known)
            # `from scoring import toml_writer` loads the submodule, not the package's names.
            imported |= submodules or {node.module}
    return {name for name in imported if name in known}


def graph(late: bool = False) -> dict[str, set[str]]:
    known = modules()
    return {name: imports(path, known, late) - {name} for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Every group of modules that import one another in a circle (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for other in edges[node]:
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in edges:
        if node not in index:
            visit(node)
    return found


def test_no_import_circles():
    edges = graph()
    assert edges["pnp.cli.score_commands"] and edges["scoring.errors"]  # the scan reads imports
    assert cycles(edges) == []
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_circle_through_the_score_companion_even_with_late_imports():
    edges = graph(late=True)
    assert "pnp.cli.score_commands" in edges["pnp.cli.score"]  # loaded late, when a score command runs
    assert "pnp.cli.score" not in edges["pnp.cli.score_commands"]
    shared = {"pnp.cli.score", "pnp.cli.score_commands", "pnp.core.i18n", "pnp.core.files", "pnp.core.errors"}
    circles = [group for group in cycles(edges)
               if any(name.startswith("scoring") or name in shared for name in group)]
    assert circles == []


def test_scoring_layers_import_only_layers_below():
    edges = graph()
    layer = {f"scoring.{name}": number for number, names in enumerate(SCORING_LAYERS) for name in names}
    assert set(layer) == {name for name in edges if name.startswith("scoring.")}
    upward = [(name, other) for name in layer for other in edges[name] if other in layer and layer[other] >= layer[name]]
    assert upward == []


def test_drawing_layers_read_one_way_and_layout_needs_no_pdf_library():
    """templates (data) -> model -> layout (pure, mm) -> render (reportlab), late imports included."""
    edges = graph(late=True)
    drawing = [name for name in edges if name.startswith(("pnp.layout", "pnp.render"))]
    assert cycles({name: edges[name] & set(drawing) for name in drawing}) == []
    data = ["pnp.template.language", "pnp.template.model", "pnp.template.elements", "pnp.template.loader", "pnp.template.icons"]
    upward = [(name, other) for name in data for other in edges[name]
              if other.startswith(("pnp.layout", "pnp.render"))]
    upward += [(name, other) for name in drawing if name.startswith("pnp.layout")
               for other in edges[name] if other.startswith("pnp.render")]
    assert upward == []
    for name in (*data, *(n for n in drawing if n.startswith("pnp.layout"))):
        tree = ast.parse(modules()[name].read_text(encoding="utf-8"))
        loaded = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        loaded |= {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
        assert not {m for m in loaded if m.split(".")[0] == "reportlab"}, name


def reachable(edges: dict[str, set[str]], start: list[str]) -> set[str]:
    """Every module the ``start`` modules load, directly or through others."""
    seen, stack = set(start), list(start)
    while stack:
        for other in edges[stack.pop()]:
            if other not in seen:
                seen.add(other)
                stack.append(other)
    return seen


def test_layout_reaches_no_rules_and_drawing_no_template_loader():
    """Layout is handed what the rules say (a scoresheet's content); drawing finds its fonts
    below the template loader (pnp.core.resources). Late imports and imports of imports count."""
    edges = graph(late=True)
    layout = [name for name in edges if name.startswith("pnp.layout")]
    render = [name for name in edges if name.startswith("pnp.render")]
    from_layout = reachable(edges, layout)
    assert "pnp.layout.scoresheets" in from_layout and "pnp.template.elements" in from_layout  # the scan follows
    assert sorted(m for m in from_layout if m.startswith("scoring") or m == "pnp.core.games") == []
    assert sorted(m for m in reachable(edges, render) if m in ("pnp.template.loader", "pnp.core.games")
                  or m.startswith("scoring")) == []
    assert "pnp.core.resources" in edges["pnp.render.fonts"]


def _constants_and_names(path: Path) -> tuple[set[str], set[str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    constants = {node.value for node in ast.walk(tree)
                 if isinstance(node, ast.Constant) and isinstance(node.value, str)}
    names = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    names |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    names |= {part for node in ast.walk(tree) if isinstance(node, (ast.Import, ast.ImportFrom))
              for alias in node.names for part in (alias.name, getattr(node, "module", None) or "")}
    return constants, names


def test_one_registry_of_games_and_nothing_else_names_them():
    """pnp.core.games lists the games once; the kits, the score companion and the web ask it. No other
    module of pnp/ or scoring/ names a game (but a game's own rules module its own id), and what
    every game shares (a result, the rules protocol, a sheet's rows) names none of their modules
    either: nothing branches on a game."""
    from pnp.core import games
    from pnp.core.resources import templates_dir
    from scoring import game_ids

    kits = {p.stem for p in templates_dir().glob("*.toml") if "." not in p.stem} - {"colors", "common"}
    assert kits == set(games.SHIPPED) == set(games.kit_files())
    assert game_ids() == games.game_ids()
    modules_of = {module.rsplit(".", 1)[1]: game for game, module in games.SHIPPED.items()}
    named = []
    for name, path in modules().items():
        if name == "pnp.core.games":
            continue
        constants, names = _constants_and_names(path)
        own = {modules_of.get(name.rsplit(".", 1)[-1])} if name.startswith("scoring.") else set()
        named += [(name, game) for game in set(games.SHIPPED) - own if game in constants]
        if name.startswith("pnp.") or name in ("scoring.result", "scoring.rules", "scoring.sheet"):
            named += [(name, module) for module in modules_of
                      if module in names | constants or any(n.endswith(f".{module}") for n in names)]
    assert named == []
