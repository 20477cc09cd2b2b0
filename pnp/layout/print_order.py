"""Does a kit print right first time? One check of a manifest (and its PDF's page count).

A double-sided print puts pages 1+2, 3+4... on one sheet. So in a file meant
to be printed double-sided (``"duplex": true``) every back page is the even
page right after its front, each back item lands behind its front item after
a long-edge flip, and nothing is printed behind a one-sided page: a blank page
(``"kind": "blank"``, no items) goes there. The kit opens with its cover
section (``"kind": "cover"``): the cover, its continuation and the page read
first (the rules summary), which may print on each other's backs as long as
nothing is printed behind a piece to cut; a blank page may sit inside it, on a
back. A file printed on one side has no back or blank pages; its fold pages
carry each back mirrored across the fold line.

It also checks what makes a kit fair to play (:func:`fairness_problems`):
every page that carries pieces names its paper, a hidden deck (the items
marked ``hidden`` of one component and set) is on one paper and in one
orientation, and where backs are printed its pieces share a cut with pieces
of their own deck only, keeping twice the bleed from any other.
"""

from __future__ import annotations

import re
from typing import Any

from pnp.core.limits import (MAX_COVER_PAIRS, MAX_LENGTH_MM, MAX_MANIFEST_ITEMS, MAX_PAGES, MAX_PIECE_MM, MAX_PIECES,
                             MIN_PIECE_MM, BudgetError)
from pnp.core.records import NamedTuple
from pnp.core.units import PAPERS

TOLERANCE = 0.002   # mm: manifests round boxes to 0.001


def pdf_page_count(pdf: bytes) -> int:
    """The pages of a PDF the kit renderer wrote (its page objects are plain, never in object streams).

    >>> pdf_page_count(b"<< /Type /Pages /Count 2 >> << /Type /Page >> << /Type /Page >>")
    2
    """
    return len(re.findall(rb"/Type\s*/Page(?![A-Za-z])", pdf))


#: The kinds of page a manifest lists (docs: shared/MANIFEST.md).
PAGE_KINDS = ("cover", "front", "back", "sheet", "blank", "fold")
_ID = re.compile(r"[a-z][a-z0-9_-]{0,254}")
_CUT_FILE = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]{0,250}\.svg")


def _number(value: Any, low: float, high: float) -> bool:
    return type(value) in (int, float) and low <= value <= high   # NaN fails both comparisons


def _numbers(value: Any, count: int, low: float, high: float) -> bool:
    return type(value) is list and len(value) == count and all(_number(v, low, high) for v in value)


def manifest_problem(manifest: Any) -> str | None:
    """What makes ``manifest`` one pnp would not write, in words, or None: checked before
    anything else reads it, whatever a forged value's type or size, with the limits of
    ``pnp render`` (its papers, bleed, back offset and cutter inset; pages, pieces and
    their boxes within the kit's limits). One pass over the pages, then the items are
    counted against the work budget (:func:`check_manifest_work`, a BudgetError past it)
    and one pass checks each."""
    from pnp.layout.options import MAX_BACK_OFFSET, MAX_BLEED

    if not isinstance(manifest, dict):
        return "not a JSON object"
    size = manifest.get("page_size_mm")
    if not (_numbers(size, 2, MIN_PIECE_MM, MAX_PIECE_MM)
            and any(abs(size[0] - w) < 0.01 and abs(size[1] - h) < 0.01 for w, h in PAPERS.values())):
        return f"page_size_mm is not the size of a paper pnp prints on ({', '.join(PAPERS)})"
    for key, value, right, expected in (
            ("duplex", manifest.get("duplex", False), lambda v: type(v) is bool, "true or false"),
            ("bleed_mm", manifest.get("bleed_mm", 0), lambda v: _number(v, 0, MAX_BLEED),
             f"from 0 to {MAX_BLEED:g} mm"),
            ("back_offset_mm", manifest.get("back_offset_mm", [0, 0]),
             lambda v: _numbers(v, 2, -MAX_BACK_OFFSET, MAX_BACK_OFFSET),
             f"two numbers of mm from -{MAX_BACK_OFFSET:g} to {MAX_BACK_OFFSET:g}")):
        if not right(value):
            return f"{key} is not {expected}"
    if "cutter" in manifest:
        problem = _cutter_form(manifest["cutter"])
        if problem:
            return problem
    pages = manifest.get("pages")
    if type(pages) is not list or not 0 < len(pages) <= MAX_PAGES:
        return f"pages is not a list of 1 to {MAX_PAGES:,} pages"
    for number, page in enumerate(pages, start=1):
        problem = _page_form(page)
        if problem:
            return f"page {number}: {problem}"
    check_manifest_work(manifest)   # the items counted (BudgetError past the limit) before each is checked
    for number, page in enumerate(pages, start=1):
        for index, item in enumerate(page["items"]):
            problem = _item_form(item)
            if problem:
                return f"page {number}: item {index + 1}: {problem}"
    return None


def _page_form(page: Any) -> str | None:
    if type(page) is not dict:
        return "not a JSON object"
    if not _number(page.get("number"), 1, MAX_PAGES) or type(page["number"]) is not int:
        return f"its number is not a whole number from 1 to {MAX_PAGES:,}"
    if page.get("kind") not in PAGE_KINDS:
        return f"its kind is not one of {', '.join(PAGE_KINDS)}"
    for key, kind in (("stock", str), ("registration_marks", bool), ("alignment", bool), ("cut_file_sha256", str)):
        if key in page and type(page[key]) is not kind:
            return f"its {key} is not {'text' if kind is str else 'true or false'}"
    if "cut_file" in page and not (type(page["cut_file"]) is str and _CUT_FILE.fullmatch(page["cut_file"])):
        return "its cut_file is not the name of an .svg file beside the manifest"
    if "fold_line" in page and not _numbers(page["fold_line"], 4, -MAX_LENGTH_MM, MAX_LENGTH_MM):
        return f"its fold_line is not four numbers of mm within {MAX_LENGTH_MM:,.0f} either way"
    if type(page.get("items")) is not list:
        return "its items are not a list"
    return None


def _item_sound(item: Any) -> bool:
    """True for an item pnp would write, found in a few steps (a kit lists thousands)."""
    try:
        component, piece, copy = item["component"], item["piece"], item["copy"]
        x, y, w, h = item["x"], item["y"], item["w"], item["h"]
        return (type(component) is str and type(piece) is str and type(copy) is int
                and type(x) in _NUMBERS and type(y) in _NUMBERS and type(w) in _NUMBERS and type(h) in _NUMBERS
                and 1 <= copy <= MAX_PIECES and item["face"] in _FACES
                and -MAX_LENGTH_MM <= x <= MAX_LENGTH_MM and -MAX_LENGTH_MM <= y <= MAX_LENGTH_MM
                and 0 < w <= MAX_PIECE_MM and 0 < h <= MAX_PIECE_MM
                and _ID.fullmatch(component) is not None and _ID.fullmatch(piece) is not None
                and not (item.keys() & _ITEM_OPTIONS))
    except (TypeError, KeyError):
        return False


_NUMBERS = (int, float)
_FACES = ("front", "back")
#: Keys an item may have that the quick check leaves to the full one.
_ITEM_OPTIONS = frozenset({"set", "rotation", "hidden", "sheet_part"})


def _item_form(item: Any) -> str | None:
    if _item_sound(item):
        return None
    if type(item) is not dict:
        return "not a JSON object"
    for key in ("component", "piece"):
        if not (type(item.get(key)) is str and _ID.fullmatch(item[key])):
            return f"its {key} is not an id like 'player-cards'"
    if "set" in item and not (type(item["set"]) is str and _ID.fullmatch(item["set"])):
        return "its set is not a colour's name like 'red'"
    if item.get("face") not in ("front", "back"):
        return "its face is not front or back"
    if type(item.get("copy")) is not int or not 1 <= item["copy"] <= MAX_PIECES:
        return f"its copy is not a whole number from 1 to {MAX_PIECES:,}"
    for key in ("x", "y"):
        if not _number(item.get(key), -MAX_LENGTH_MM, MAX_LENGTH_MM):
            return f"its {key} is not a number of mm within {MAX_LENGTH_MM:,.0f} either way"
    for key in ("w", "h"):
        if not _number(item.get(key), 0, MAX_PIECE_MM) or not item[key] > 0:
            return f"its {key} is not a size of mm above 0, at most {MAX_PIECE_MM:,.0f}"
    if item.get("rotation", 0) not in (0, 90, 180, 270) or type(item.get("rotation", 0)) is not int:
        return "its rotation is not 0, 90, 180 or 270"
    if "hidden" in item and type(item["hidden"]) is not bool:
        return "its hidden is not true or false"
    if "sheet_part" in item and type(item["sheet_part"]) is not str:
        return "its sheet_part is not text"
    return None


def _cutter_form(entry: Any) -> str | None:
    """The cutter's entry, with the limits ``pnp render --cutter`` has."""
    from pnp.layout.cutter import CUTTERS, LEG, MAX_INSET, MAX_LENGTH, MIN_INSET, MIN_LENGTH

    if type(entry) is not dict or entry.get("kind") not in CUTTERS:
        return f"cutter does not name a cutting machine pnp prints for ({', '.join(CUTTERS)})"
    if not _number(entry.get("mark_inset_mm"), MIN_INSET, MAX_INSET):
        return (f"cutter.mark_inset_mm is not from {MIN_INSET:g} to {MAX_INSET:g} mm, the insets "
                "--mark-inset takes")
    if not _number(entry.get("mark_length_mm", LEG), MIN_LENGTH, MAX_LENGTH):
        return (f"cutter.mark_length_mm is not from {MIN_LENGTH:g} to {MAX_LENGTH:g} mm, the lengths "
                "--mark-length takes")
    if type(entry.get("marks")) is not list:
        return "cutter.marks is not a list"
    if type(entry.get("keep_clear", [])) is not list:
        return "cutter.keep_clear is not a list"
    return None


def check_manifest_work(manifest: dict) -> None:
    """BudgetError if checking the manifest would take more work than any kit's needs
    (:data:`~pnp.core.limits.MAX_MANIFEST_ITEMS` items, :data:`~pnp.core.limits.MAX_COVER_PAIRS`
    pairs of pieces compared on the cover's sheet), before any of it is done."""
    pages = manifest["pages"]
    items = sum(len(page["items"]) for page in pages)
    if items > MAX_MANIFEST_ITEMS:
        raise BudgetError(f"the manifest lists {items:,} pieces on its pages; the limit is {MAX_MANIFEST_ITEMS:,}, "
                          f"because a kit at the limit of {MAX_PIECES:,} pieces, printed with their backs, lists "
                          f"{2 * MAX_PIECES:,}, and checking more would take minutes")
    covers = 0
    while covers < len(pages) and pages[covers]["kind"] in ("cover", "blank"):
        covers += 1
    pairs = sum(len(pages[index - 1]["items"]) * len(pages[index]["items"]) for index in range(1, covers, 2))
    if pairs > MAX_COVER_PAIRS:
        raise BudgetError(f"the cover's sheet would need {pairs:,} pairs of pieces compared (those on one side "
                          f"times those on the other); the limit is {MAX_COVER_PAIRS:,}, because a cover sheet "
                          "holds a few pieces below the cover's text, and more would take minutes to check")


def sheets_used(manifest: dict) -> int:
    """How many sheets of paper printing the file takes: a front and its back, a
    one-sided page and the blank behind it, the cover and its continuation are
    one sheet each in a double-sided file; every page is a sheet otherwise."""
    pages = len(manifest["pages"])
    return (pages + 1) // 2 if manifest.get("duplex") else pages


def print_order_problems(manifest: dict, pdf_pages: int | None = None) -> list[str]:
    """Every way the file would print wrong, one sentence each; none when it prints right."""
    pages = manifest["pages"]
    problems: list[str] = []
    if pdf_pages is not None and pdf_pages != len(pages):
        problems.append(f"the PDF has {pdf_pages} pages but the manifest lists {len(pages)}")
    for index, page in enumerate(pages, start=1):
        if page.get("number") != index:
            problems.append(f"page {index} is numbered {page.get('number')!r}")
        if page["kind"] == "blank" and page["items"]:
            problems.append(f"page {index} is blank but lists {len(page['items'])} pieces")
    kinds = [p["kind"] for p in pages]
    duplex = bool(manifest.get("duplex"))
    covers = 0
    while covers < len(kinds) and (kinds[covers] == "cover" or (
            # A blank back inside the cover section: behind pieces below the cover.
            duplex and kinds[covers] == "blank" and covers % 2 == 1
            and covers + 1 < len(kinds) and kinds[covers + 1] == "cover")):
        covers += 1
    if "cover" in kinds[covers:]:
        problems.append(f"a cover page comes after page {covers}, among the pieces")
    problems += fairness_problems(manifest)
    if "cutter" in manifest:
        problems += cutter_problems(manifest)
    if duplex:
        problems += _duplex_problems(manifest, covers)
    else:
        for index, page in enumerate(pages, start=1):
            if page["kind"] in ("back", "blank"):
                problems.append(f"page {index} is a {page['kind']} page in a file printed on one side")
            if page["kind"] == "fold":
                problems += _fold_problems(index, page)
    return problems


def _duplex_problems(manifest: dict, covers: int) -> list[str]:
    pages = manifest["pages"]
    problems = []
    if len(pages) % 2:
        problems.append(f"{len(pages)} pages: a double-sided file needs an even number")
    if covers % 2 and (covers >= len(pages) or pages[covers]["kind"] != "blank"):
        problems.append(f"the cover ends on page {covers}, so the next page would print on its back; "
                        "a blank page belongs there")
    page_w = manifest["page_size_mm"][0]
    offset = manifest.get("back_offset_mm", [0.0, 0.0])
    for index in range(1, covers, 2):
        # Two sides of a cover sheet: nothing on one behind a piece on the other.
        front, back = pages[index - 1], pages[index]
        for item in back["items"]:
            x = page_w - item["x"] - item["w"]    # where it lands on the front after the flip
            behind = [i for i in front["items"] if _overlap((x, item["y"], item["w"], item["h"]), i)]
            if behind:
                problems.append(f"page {index + 1} prints {item['component']} behind the "
                                f"{behind[0]['component']} of page {index}")
    for index in range(covers + 1, len(pages) + 1):
        page = pages[index - 1]
        kind = page["kind"]
        if index <= covers + covers % 2 and kind == "blank":
            continue
        odd = index % 2 == 1
        after = pages[index] if index < len(pages) else None
        before = pages[index - 2]
        if kind == "fold":
            problems.append(f"page {index} is a fold page in a file printed double-sided")
        elif kind == "front":
            if not odd:
                problems.append(f"page {index} is a front on an even page: it prints on the back "
                                "of the sheet before")
            if after is None or after["kind"] != "back":
                problems.append(f"page {index} is a front without its back on the next page")
        elif kind == "back":
            if odd or before["kind"] != "front":
                problems.append(f"page {index} is a back that does not follow its front on an odd page")
            else:
                problems += _behind(index, before, page, page_w, offset=offset)
        elif kind == "sheet":
            if not odd:
                problems.append(f"page {index} is one-sided but prints on the back of page {index - 1}")
            if after is None or after["kind"] != "blank":
                problems.append(f"page {index} is one-sided but page {index + 1} would print behind it")
        elif kind == "blank":
            if odd:
                problems.append(f"page {index} is blank on the front of a sheet")
        elif kind != "cover":
            problems.append(f"page {index} has an unknown kind {kind!r}")
    return problems


def _overlap(box: tuple[float, float, float, float], item: dict) -> bool:
    x, y, w, h = box
    return (x < item["x"] + item["w"] - TOLERANCE and item["x"] < x + w - TOLERANCE
            and y < item["y"] + item["h"] - TOLERANCE and item["y"] < y + h - TOLERANCE)


class _PieceKey(NamedTuple):
    """What tells one printed piece from every other in a manifest."""

    component: str
    piece: str
    copy: int
    set: str | None
    sheet_part: str | None


def _key(item: dict) -> _PieceKey:
    return _PieceKey(item["component"], item["piece"], item["copy"], set=item.get("set"),
                     sheet_part=item.get("sheet_part"))


def _behind(index: int, front: dict, back: dict, page_w: float, *, offset: list[float]) -> list[str]:
    """Each back item behind its front item after a long-edge flip."""
    problems = []
    fronts = {_key(i): i for i in front["items"] if i["face"] == "front"}
    backs = [i for i in back["items"] if i["face"] == "back"]
    if len(backs) != len(back["items"]) or {_key(i) for i in backs} != set(fronts):
        problems.append(f"page {index} does not carry the backs of exactly the pieces of page {index - 1}")
        return problems
    for item in backs:
        f = fronts[_key(item)]
        x = page_w - f["x"] - f["w"] + offset[0]
        y = f["y"] + offset[1]
        if abs(item["x"] - x) > TOLERANCE or abs(item["y"] - y) > TOLERANCE or \
                (item["w"], item["h"]) != (f["w"], f["h"]):
            problems.append(f"page {index}: the back of {item['piece']} {item['copy']} is not behind "
                            "its front after a long-edge flip")
    return problems


def _fold_problems(index: int, page: dict) -> list[str]:
    line = page.get("fold_line")
    if not (isinstance(line, list) and len(line) == 4):
        return [f"page {index} is a fold page without its fold_line"]
    x1, y1, x2, y2 = line
    vertical = abs(x1 - x2) < TOLERANCE
    if not vertical and abs(y1 - y2) >= TOLERANCE:
        return [f"page {index}: the fold line is neither upright nor level"]
    problems = []
    fronts = {_key(i): i for i in page["items"] if i["face"] == "front"}
    backs = {_key(i): i for i in page["items"] if i["face"] == "back"}
    for key, back in backs.items():
        front = fronts.get(key)
        if front is None:
            problems.append(f"page {index}: the back of {back['piece']} {back['copy']} has no front")
            continue
        x, y = front["x"], front["y"]
        if vertical:
            x = 2 * x1 - front["x"] - front["w"]
        else:
            y = 2 * y1 - front["y"] - front["h"]
        if abs(back["x"] - x) > TOLERANCE or abs(back["y"] - y) > TOLERANCE:
            problems.append(f"page {index}: the back of {back['piece']} {back['copy']} is not the "
                            "mirror image of its front across the fold line")
        if not _one_side(front, x1, y1, vertical) or _one_side(back, x1, y1, vertical) == \
                _one_side(front, x1, y1, vertical):
            problems.append(f"page {index}: {back['piece']} {back['copy']} crosses the fold line")
    return problems


def _one_side(item: dict[str, Any], x1: float, y1: float, vertical: bool) -> str | None:
    """Which side of the fold a piece lies on, or None if it crosses it."""
    low, high = (item["x"], item["x"] + item["w"]) if vertical else (item["y"], item["y"] + item["h"])
    at = x1 if vertical else y1
    if high <= at + TOLERANCE:
        return "low"
    if low >= at - TOLERANCE:
        return "high"
    return None


def _deck(item: dict) -> tuple:
    return (item["component"], item.get("set"))


def fairness_problems(manifest: dict) -> list[str]:
    """Every way a hidden piece could be told from its back, by paper, turn or neighbour.

    >>> page = {"number": 1, "kind": "front", "stock": "card-160-220", "items": [
    ...     {"component": "cards", "piece": "a", "copy": 1, "face": "front", "hidden": True,
    ...      "x": 10.0, "y": 10.0, "w": 63.5, "h": 88.9},
    ...     {"component": "tokens", "piece": "t", "copy": 1, "face": "front",
    ...      "x": 73.5, "y": 10.0, "w": 30.0, "h": 30.0}]}
    >>> fairness_problems({"bleed_mm": 3, "pages": [page]})
    ['page 1: cards a 1 (hidden) and tokens t 1 share a cut or come within 6 mm of each other']
    """
    problems: list[str] = []
    gutter = 2 * float(manifest.get("bleed_mm", 3.0))
    stocks: dict[tuple, set] = {}
    turns: dict[tuple, set] = {}
    for page in manifest["pages"]:
        items = page["items"]
        if items and not page.get("stock"):
            problems.append(f"page {page['number']} carries pieces but names no paper (stock)")
        backs = page["kind"] in ("front", "back", "fold")
        for item in items:
            if item.get("hidden"):
                stocks.setdefault(_deck(item), set()).add(page.get("stock"))
                if backs:  # a printer's drift moves every back of a deck alike only if they lie alike
                    turns.setdefault(_deck(item), set()).add(item.get("rotation", 0) % 180)
        if not backs:
            continue  # a one-sided page prints no backs: neighbours show nothing of each other
        for index, item in enumerate(items):
            for other in items[index + 1:]:
                if not (item.get("hidden") or other.get("hidden")):
                    continue
                if item.get("hidden") and other.get("hidden") and _deck(item) == _deck(other):
                    continue
                if _gap(item, other) < gutter - TOLERANCE:
                    first, second = (item, other) if item.get("hidden") else (other, item)
                    problems.append(
                        f"page {page['number']}: {first['component']} {first['piece']} {first['copy']} "
                        f"(hidden) and {second['component']} {second['piece']} {second['copy']} share a "
                        f"cut or come within {gutter:g} mm of each other")
    for (component, set_name), papers in stocks.items():
        deck = component + (f" ({set_name})" if set_name else "")
        if len(papers) > 1:
            problems.append(f"the hidden deck {deck} is printed on {len(papers)} papers: "
                            + ", ".join(sorted(str(p) for p in papers)))
        if len(turns.get((component, set_name), ())) > 1:
            problems.append(f"the hidden deck {deck} lies both upright and turned")
    return problems


def cutter_problems(manifest: dict) -> list[str]:
    """Every way a cutting machine's print-and-cut file would cut wrong: marks that are not the
    ones its inset and length give, keep-clear areas smaller than Silhouette Studio's hatched
    square at each mark grown by 2 mm and run out to the paper's corner, a piece in one of them
    or outside the rectangle the marks span, two pieces nearer than the blade allows, a front
    with pieces and no cut file."""
    from pnp.layout import cutter

    entry = manifest["cutter"]
    page_w, page_h = manifest["page_size_mm"]
    if entry.get("kind") not in cutter.CUTTERS:
        return [f"the manifest names an unknown cutter {entry.get('kind')!r}"]
    inset, length = entry.get("mark_inset_mm"), entry.get("mark_length_mm", cutter.LEG)
    if type(inset) not in (int, float) or type(length) not in (int, float):
        return [f"the manifest's cutter gives no mark inset and length in mm ({inset!r}, {length!r})"]
    expected = cutter.manifest_entry(entry["kind"], page_w, page_h, inset, length=length)
    if entry.get("marks") != expected["marks"]:
        return [f"the manifest's registration marks are not {entry['kind']}'s at {inset:g} mm, {length:g} mm long"]
    problems: list[str] = []
    zones = _keep_clear_areas(entry, expected, problems)
    for page in manifest["pages"]:
        if not page.get("registration_marks"):
            continue   # pieces cut by hand (a scoresheet, a board larger than the marks allow)
        items = page["items"]
        if page["kind"] not in ("front", "sheet"):
            problems.append(f"page {page['number']} is a {page['kind']} page with registration marks")
        if not page.get("cut_file"):
            problems.append(f"page {page['number']} has registration marks but names no cut file")
        for index, item in enumerate(items):
            name = f"page {page['number']}: {item['component']} {item['piece']} {item['copy']}"
            box = (item["x"], item["y"], item["x"] + item["w"], item["y"] + item["h"])
            if box[0] < inset - TOLERANCE or box[1] < inset - TOLERANCE or \
                    box[2] > page_w - inset + TOLERANCE or box[3] > page_h - inset + TOLERANCE:
                problems.append(f"{name} lies outside the rectangle of the registration marks")
            for at, (x, y, w, h) in zones:
                if x < box[2] - TOLERANCE and box[0] < x + w - TOLERANCE and y < box[3] - TOLERANCE \
                        and box[1] < y + h - TOLERANCE:
                    problems.append(f"{name} lies in the keep-clear area of the {at} registration mark")
            for other in items[index + 1:]:
                if _gap(item, other) < cutter.PIECE_GAP - TOLERANCE:
                    problems.append(f"{name} and {other['component']} {other['piece']} {other['copy']} are "
                                    f"less than {cutter.PIECE_GAP:g} mm apart for the blade")
    return problems


def _keep_clear_areas(entry: dict, expected: dict, problems: list[str]) -> list[tuple[str, tuple]]:
    """The manifest's keep-clear areas, each checked to hold at least what its mark needs
    (the checks of the pieces use the larger of the two)."""
    areas = []
    given = {area.get("at"): area for area in entry.get("keep_clear", ()) if isinstance(area, dict)}
    for wanted in expected["keep_clear"]:
        at = wanted["at"]
        area = given.get(at)
        box = tuple(wanted[k] for k in ("x", "y", "w", "h"))
        if area is None or not all(type(area.get(k)) in (int, float) for k in ("x", "y", "w", "h")):
            problems.append(f"the manifest gives no keep-clear area for the {at} registration mark")
        else:
            x, y, w, h = (area[k] for k in ("x", "y", "w", "h"))
            if x > box[0] + TOLERANCE or y > box[1] + TOLERANCE or x + w < box[0] + box[2] - TOLERANCE or \
                    y + h < box[1] + box[3] - TOLERANCE:
                problems.append(f"the keep-clear area of the {at} registration mark is smaller than the "
                                f"{box[2]:g} mm square from the paper's corner its mark needs")
            else:
                box = (x, y, w, h)
        areas.append((at, box))
    return areas


def _gap(a: dict, b: dict) -> float:
    """The distance between two items' trims (0 when they touch or overlap)."""
    dx = max(b["x"] - a["x"] - a["w"], a["x"] - b["x"] - b["w"], 0.0)
    dy = max(b["y"] - a["y"] - a["h"], a["y"] - b["y"] - b["h"], 0.0)
    return (dx * dx + dy * dy) ** 0.5
