"""The code reads one way: each part imports only the parts below it, with no import circles.

Imports are read from the source. Those at a module's top level run when it
loads; those inside a function are late loads (the score commands load their
work only when run), which count as imports all the same.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: The parts of pnp and scoring, by package, and the parts each imports (late imports
#: included): the whole graph, lowest first. pnp.core is what pnp and scoring both stand
#: on (catalogs, errors, files, limits, the sheet model, the registry of games); scoring
#: is the score companion; the template language reads a kit (and asks a game's rules
#: for the facts it prints); layout turns it into shapes in mm; render draws them with
#: reportlab; kit writes a kit's files, export a print service's; preflight and the web
#: scorer stand on those; the preview serves what a render makes; cli is the commands,
#: and ``pnp`` (its ``__init__``: the version) and ``pnp.__main__`` the ends.
PARTS: dict[str, set[str]] = {
    "pnp": set(),
    "pnp.core": set(),
    "scoring": {"pnp.core"},
    "pnp.template": {"pnp.core", "scoring"},
    "pnp.layout": {"pnp.core", "pnp.template"},
    "pnp.render": {"pnp.core", "pnp.template", "pnp.layout"},
    "pnp.kit": {"pnp", "pnp.core", "scoring", "pnp.template", "pnp.layout", "pnp.render"},
    "pnp.export": {"pnp.core", "pnp.template", "pnp.layout", "pnp.render"},
    "pnp.preflight": {"pnp.core", "pnp.template", "pnp.layout", "pnp.render", "pnp.kit"},
    "pnp.web": {"pnp.core", "scoring", "pnp.template", "pnp.kit"},
    "pnp.preview": {"pnp.core", "pnp.template", "pnp.render", "pnp.export", "pnp.preflight", "pnp.web"},
    "pnp.cli": {"pnp.core", "scoring", "pnp.template", "pnp.layout", "pnp.render", "pnp.kit", "pnp.export",
                "pnp.preflight", "pnp.web", "pnp.preview"},
    "pnp.__main__": {"pnp.core", "pnp.cli"},
}

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
    {"hunting_fever", "halali", "beavers", "card_hunter", "declared"},
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


def part_of(module: str) -> str:
    """The part a module belongs to: its package under pnp (``pnp.layout``), or scoring."""
    names = module.split(".")
    return "scoring" if names[0] == "scoring" else ".".join(names[:2])


def parts_graph() -> dict[str, set[str]]:
    """Which parts each part imports, late imports included."""
    found: dict[str, set[str]] = {}
    for name, others in graph(late=True).items():
        found.setdefault(part_of(name), set()).update(part_of(o) for o in others)
    return {part: others - {part} for part, others in found.items()}


def test_each_part_imports_exactly_the_parts_its_row_names():
    found = parts_graph()
    assert set(found) == set(PARTS), "a part missing from PARTS, or one that no longer exists"
    extra = sorted((part, other) for part in found for other in found[part] - PARTS[part])
    unused = sorted((part, other) for part in found for other in PARTS[part] - found[part])
    assert extra == [], "imports the table does not allow"
    assert unused == [], "the table allows imports no module makes: take them off, so it stays the graph"
    assert cycles(PARTS) == []


def test_the_architecture_page_draws_the_same_parts():
    """docs/ARCHITECTURE.md's table of parts says what PARTS says (and ``pnp``'s own row, its version,
    is in its text)."""
    import re

    page = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    drawn = {}
    for part, imports in re.findall(r"^\| `([\w.]+)` \| [^|]+ \| ([^|]+) \|$", page, re.MULTILINE):
        if imports.startswith("every part but"):
            drawn[part] = set(PARTS) - {part, *re.findall(r"`([\w.]+)`", imports)}
        else:
            drawn[part] = set(re.findall(r"`([\w.]+)`", re.sub(r"\(.*?\)", "", imports)))
    assert drawn == {part: others for part, others in PARTS.items() if part != "pnp"}


def test_core_sits_below_everything_and_scoring_stands_on_core_alone():
    """pnp.core imports nothing of pnp's other parts or of scoring, not even a module named by a string
    (the registry of games names the rules modules; the score companion loads them); scoring
    imports only pnp.core of pnp."""
    edges = graph(late=True)
    core = [name for name in edges if part_of(name) == "pnp.core"]
    assert sorted((name, other) for name in core for other in edges[name] if part_of(other) != "pnp.core") == []
    for name in core:
        text = modules()[name].read_text(encoding="utf-8")
        assert "import_module" not in text and "__import__" not in text, name
    scoring = [name for name in edges if part_of(name) == "scoring"]
    assert "pnp.core.i18n" in edges["scoring.messages"]  # the scan reads scoring's imports of pnp
    assert sorted((name, other) for name in scoring for other in edges[name]
                  if other.startswith("pnp") and part_of(other) != "pnp.core") == []


def data_packages() -> set[str]:
    """The wheel's packages that hold data, not code (pyproject.toml's package-dir)."""
    import tomllib

    setup = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    return set(setup["package-dir"])


def test_no_module_has_the_name_of_a_data_package():
    data = data_packages()
    assert data == {"pnp.templates", "pnp.templates.icons", "pnp.fonts"}
    names = set(modules())
    prefixes = {".".join(name.split(".")[:depth]) for name in names for depth in range(1, name.count(".") + 2)}
    assert sorted(data & prefixes) == []


def test_every_package_of_code_ships():
    """Each folder of modules is a package of the wheel (pyproject.toml), so an installed pnp has it."""
    import tomllib

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
                 ["tool"]["setuptools"]["packages"])
    folders = {name for name, path in modules().items() if path.name == "__init__.py"}
    assert folders <= listed, sorted(folders - listed)


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
