"""Layout geometry with exact numbers: imposition, marks, duplex mirroring, board splitting."""

from __future__ import annotations

import pytest

from pnp.core.errors import UnknownNameError
from pnp.layout.boards import split_piece
from pnp.layout.imposition import (CUT_MARGIN, MARK_GAP, MARK_MIN_LENGTH, PRINTABLE, Box, bottom_frame, fit_grid,
                                   mirror_for_long_edge, printable_area)
from pnp.layout.sheets import Item, pack
from pnp.template.model import Component, Copy, Piece
from pnp.core.units import paper_size, parse_length, piece_size


def test_lengths_and_named_sizes():
    assert parse_length("2.5in") == 63.5
    assert parse_length("1cm") == 10.0
    assert parse_length(7) == 7.0
    assert piece_size("poker") == (63.5, 88.9)
    assert piece_size("tarot") == (69.85, 120.65)
    assert piece_size("30x40") == (30.0, 40.0)
    assert piece_size(["2in", "3in"]) == (50.8, 76.2)
    assert paper_size("A4") == (210.0, 297.0)
    assert paper_size("letter") == (215.9, 279.4)


@pytest.mark.parametrize("bad", ["12 furlongs", "", "mm", True])
def test_bad_lengths_are_refused(bad):
    with pytest.raises(ValueError):
        parse_length(bad)


def test_unknown_size_and_paper_name_the_value():
    with pytest.raises(UnknownNameError, match="'huge'"):
        piece_size("huge")
    with pytest.raises(UnknownNameError, match="'a3'"):
        paper_size("a3")


def test_printable_area_keeps_the_margin_and_the_footer_band():
    # 8.75 mm: 5 mm a home printer may leave blank, then a 2.5 mm mark beyond a 1 mm bleed.
    assert printable_area(210, 297) == Box(8.75, 13.0, 192.5, 275.25)


def test_poker_cards_on_a4_are_nine_butted_and_centred():
    grid = fit_grid(210, 297, 63.5, 88.9, bleed=3)
    assert (grid.cols, grid.rows, grid.rotated) == (3, 3, False)
    # 3 x 63.5 = 190.5 leaves 3.5 mm: too little for 6 mm gutters, so cuts are shared.
    assert (grid.gap_x, grid.gap_y) == (0.0, 0.0)
    assert grid.origin_x == pytest.approx(9.75)
    assert grid.origin_y == pytest.approx(13 + (275.25 - 266.7) / 2)
    first, last = grid.trim(0), grid.trim(8)
    assert first.x == pytest.approx(9.75) and first.top == pytest.approx(297 - 8.75 - 4.275)
    assert last.right == pytest.approx(210 - 9.75) and last.y == pytest.approx(17.275)


def test_poker_cards_on_letter_turn_to_fit_eight():
    grid = fit_grid(215.9, 279.4, 63.5, 88.9, bleed=3)
    assert (grid.cols, grid.rows, grid.rotated) == (2, 4, True)
    assert (grid.cell_w, grid.cell_h) == (88.9, 63.5)
    # Across there is room for a full 6 mm gutter; down there is not.
    assert (grid.gap_x, grid.gap_y) == (6.0, 0.0)


def test_every_trim_stays_inside_the_margin():
    for paper in ((210, 297), (215.9, 279.4)):
        for size in ((63.5, 88.9), (88.9, 127), (25, 25), (70, 120), (180, 125)):
            grid = fit_grid(*paper, *size, bleed=3)
            for slot in range(grid.capacity):
                trim = grid.trim(slot)
                assert trim.x >= CUT_MARGIN - 1e-9 and trim.right <= paper[0] - CUT_MARGIN + 1e-9
                assert trim.y >= 13 - 1e-9 and trim.top <= paper[1] - CUT_MARGIN + 1e-9


def test_bleed_is_full_outside_and_never_overlaps_a_neighbour():
    grid = fit_grid(210, 297, 63.5, 88.9, bleed=3)
    assert grid.bleed_sides(0, 3) == (3, 0.0, 0.0, 3)     # top-left: outer left and top
    assert grid.bleed_sides(4, 3) == (0.0, 0.0, 0.0, 0.0)  # centre of a butted grid
    assert grid.bleed_sides(8, 3) == (0.0, 3, 3, 0.0)
    wide = fit_grid(215.9, 279.4, 63.5, 88.9, bleed=3)     # 6 mm gutters across
    assert wide.bleed_sides(0, 3)[2] == 3.0


def _cards(count: int, size=(63.5, 88.9)) -> list[Item]:
    component = Component("cards", size, (Piece("card", count, {}),), (), back=None)
    return [Item(Copy(component, component.pieces[0], n)) for n in range(1, count + 1)]


def test_crop_marks_stay_clear_of_trims_and_the_paper_edge_and_beyond_the_bleed():
    (sheet,) = pack([_cards(9)], [bottom_frame(210, 297)], 3)
    trims = [p.trim for p in sheet.placed]
    printed = [p.printed for p in sheet.placed]
    marks = sheet.marks
    # Centred on the paper: 9.75 mm each side, 15.15 mm above and below.
    block = Box(min(t.x for t in trims), min(t.y for t in trims), 190.5, 266.7)
    assert block.x == pytest.approx(9.75) and block.y == pytest.approx(15.15)
    # One mark at each end of every cut line: 4 vertical lines, 4 horizontal.
    assert len(marks) == 16
    for m in marks:
        assert PRINTABLE <= min(m.x1, m.x2) and max(m.x1, m.x2) <= 210 - PRINTABLE
        assert PRINTABLE <= min(m.y1, m.y2) and max(m.y1, m.y2) <= 297 - PRINTABLE
        assert abs(m.x2 - m.x1) + abs(m.y2 - m.y1) >= MARK_MIN_LENGTH - 1e-9
        # Never on the printed bleed: on white paper, where it can be seen.
        assert not any(box.x <= min(m.x1, m.x2) < box.right and box.y <= min(m.y1, m.y2) < box.top or
                       box.x < max(m.x1, m.x2) <= box.right and box.y < max(m.y1, m.y2) <= box.top
                       for box in printed), m
        if m.x1 == m.x2 and m.y1 > block.top:  # above the block, 15.15 mm of margin: beyond the full bleed
            assert min(m.y1, m.y2) - block.top >= MARK_GAP
        elif m.x1 == m.x2:  # below it, above the footer: 4.35 mm, beyond a bleed of 1.6 mm
            assert block.y - max(m.y1, m.y2) == pytest.approx(1.85)
        else:
            # Beside it the margin is 9.75 mm: 5 mm the printer may not reach, then a
            # 2.5 mm mark 2.25 mm from the cut, beyond the fronts' bleed cut back to 2 mm.
            gap = min(m.x1, m.x2) - block.right if m.x1 > block.right else block.x - max(m.x1, m.x2)
            assert gap == pytest.approx(2.25)
    left = [p for p in sheet.placed if p.trim.x == block.x]
    assert {round(p.trim.x - p.printed.x, 6) for p in left} == {2.0}
    # The backs carry no marks: they keep their whole bleed.
    assert {round(p.trim.x - p.back.x, 6) for p in left} == {3.0}
    assert {round(p.printed.top - p.trim.top, 6) for p in sheet.placed if abs(p.trim.top - block.top) < 1e-6} == {3.0}


def test_back_is_mirrored_for_a_long_edge_flip_and_shifted_by_the_offset():
    front = Box(9.75, 200.0, 63.5, 88.9)
    assert mirror_for_long_edge(front, 210) == Box(136.75, 200.0, 63.5, 88.9)
    shifted = mirror_for_long_edge(front, 210, (0.5, -0.25))
    assert (shifted.x, shifted.y) == (137.25, 199.75)


def test_a_board_too_big_for_a_sheet_is_split_with_overlap_and_covered():
    parts = split_piece(194, 276, 280, 280, overlap=12).parts
    assert len(parts) == 4
    assert {p.label for p in parts} == {"1/4", "2/4", "3/4", "4/4"}
    region_w = (280 + 12) / 2
    for part in parts:
        assert part.region.w == pytest.approx(region_w) and part.region.h == pytest.approx(region_w)
        assert part.sheet_region.w <= 194 and part.sheet_region.h <= 276
    # Neighbours share exactly 12 mm, and the parts reach every edge of the board.
    xs = sorted({p.region.x for p in parts})
    assert xs == [0.0, pytest.approx(region_w - 12)]
    assert max(p.region.right for p in parts) == pytest.approx(280)
    assert max(p.region.top for p in parts) == pytest.approx(280)
    # Part 1 is the top-left of the board; it is laid under parts 2 (right) and 3 (below).
    first = next(p for p in parts if p.index == 0)
    assert first.region.x == 0 and first.region.top == pytest.approx(280)
    assert {(s.side, s.over, s.neighbours) for s in first.seams} == {("right", False, (1,)),
                                                                    ("bottom", False, (2,))}
    last = next(p for p in parts if p.index == 3)
    assert {(s.side, s.over) for s in last.seams} == {("left", True), ("top", True)}


def test_a_long_board_turns_when_that_saves_sheets():
    parts = split_piece(194, 276, 400, 180, overlap=12).parts
    # Upright it needs 3 x 1 sheets; turned, 2 x 1 (180 wide, 400 long).
    assert len(parts) == 2 and parts[0].rotated
    # Regions are reported in the board's own frame: together they cover 400 x 180.
    assert {round(p.region.w, 3) for p in parts} == {206.0}
    assert min(p.region.x for p in parts) == 0
    assert max(p.region.right for p in parts) == pytest.approx(400)


def test_seams_keep_off_text_and_follow_the_lines_a_template_names():
    # A 300 mm board: the even split would cut at 150, through a word from 140 to 160.
    word = Box(140, 50, 20, 4)     # mm from the top-left, y downwards
    split = split_piece(194, 276, 300, 200, overlap=12, allow_rotate=False, texts=[word])
    assert split.through_text == 0
    (left, right) = sorted(split.parts, key=lambda p: p.region.x)
    cut = right.region.x + 6       # where the part laid over is cut
    assert not 140 - 2 < cut < 160 + 2
    # Named lines: the cut lies on one of them, the nearest to an even split that fits.
    split = split_piece(194, 276, 300, 200, overlap=12, allow_rotate=False, lines_x=[100, 130, 170])
    (left, right) = sorted(split.parts, key=lambda p: p.region.x)
    assert right.region.x + 6 in (130, 170) and left.region.right - 6 == right.region.x + 6
    # No named line lets the parts fit: the band is cut elsewhere, and the split says so.
    split = split_piece(194, 276, 300, 200, overlap=12, allow_rotate=False, lines_x=[20, 280])
    assert split.unnamed == 1 and split.through_text == 0


def _cuts(split, piece_h: float) -> tuple[list[float], list[float]]:
    """Where the parts are cut, in the piece's own frame: x from its left, y from its top."""
    xs = sorted({round(p.region.x + 6, 6) for p in split.parts if p.region.x > 0})
    ys = sorted({round(piece_h - p.region.top + 6, 6) for p in split.parts if p.region.top < piece_h})
    return xs, ys


def test_named_seams_are_the_pieces_own_lines_whichever_way_it_lies():
    title = Box(20, 55, 160, 12)   # across the middle of a 200 mm board, clear of y = 100
    # y = 100 is a horizontal cut: the board is turned on A4 (194 mm across) to make it,
    # rather than cut upright at a line nobody named (through the title, or beside it).
    split = split_piece(194, 276, 200, 200, overlap=12, texts=[title], lines_y=[100])
    assert _cuts(split, 200) == ([], [100]) and split.parts[0].rotated
    assert (split.unnamed, split.through_text) == (0, 0)
    # x = 100 is a vertical cut, made upright: through the title, as named (and counted so).
    split = split_piece(194, 276, 200, 200, overlap=12, texts=[title], lines_x=[100])
    assert _cuts(split, 200) == ([100], []) and not split.parts[0].rotated
    assert (split.unnamed, split.through_text) == (0, 1)
    # Named on both axes, one cut is enough: the one clear of the title.
    split = split_piece(194, 276, 200, 200, overlap=12, texts=[title], lines_x=[100], lines_y=[100])
    assert _cuts(split, 200) == ([], [100]) and split.through_text == 0
    # Named on one axis only, a board needing cuts both ways: the other axis is cut where
    # nothing is named, and counted so (the plan reports it).
    split = split_piece(194, 276, 300, 300, overlap=12, lines_y=[150])
    assert split.unnamed >= 1 and 150 in _cuts(split, 300)[1]
