"""The shape of the decoder (issue: one architecture for both twins): the same pipeline, classes and method
names in the Python twin and the Cython core, and one home for the constants they share."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from acp_transcript import _defs

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "acp_transcript"

# module of the Python twin -> its include file in the core (the facade is the .pyx itself)
TWINS = {
    "_parser_py.py": "_parser_c.pxi",
    "_window_py.py": "_window_c.pxi",
    "_render_py.py": "_render_c.pxi",
    "_screen_py.py": "_screen_c.pxi",
    "_strip_py.py": "_strip_c.pxi",
    "_decoder_py.py": "_decoder_c.pyx",
}

# Methods only one twin has, and why. Everything else must match by name.
ONLY_PY = {
    # text arrives with its LFs in the fallback's regex runs; the core's runs stop at LF
    ("Sink", "print"), ("RenderSink", "print"), ("StripSink", "print"), ("Parser", "print"), ("RecordingSink", "print"),
    ("LineWindow", "print"), ("LineWindow", "append_lines"),  # ...and appends the lines of a run at once
    ("Sink", "csi_finals"),  # the fallback parses parameters only for functions the sink has
    ("LineWindow", "like"),  # the fallback swaps window objects; the core packs them (see ONLY_C)
    # the fallback's tabbed runs go on across LFs (the core's stop at an LF, whose line feed is its own step):
    # tab-indented lines appended at once, as print appends plain ones
    ("LineWindow", "print_tabbed"),
    ("StripSink", "take"), ("StripSink", "output"),  # lists of str pieces; the core writes to a Buf
    ("Parser", "text"), ("Parser", "drop_controls"), ("Parser", "decode_utf8"), ("Parser", "clean_decoded"),
    ("RenderSink", "csi_finals"), ("StripSink", "csi_finals"), ("RecordingSink", "csi_finals"),
    ("ScreenSink", "print"), ("ScreenSink", "csi_finals"), ("ScreenSink", "put_text"),
    # a frame the parser may skip counts its cells by its characters' widths (patterns the parser reads; the
    # core's is a flag of Sink the decoder sets, as tabbed_runs)
    ("ScreenSink", "cell_frames"),
    # a block of plain lines scrolled through the bottom row with list slicing, and text of one- and two-cell
    # characters written a row at a time (text_cells, put_wrapped), since per-row and per-run Python work is
    # what the fallback's sized rendering spends its time on; the core's runs stop at LF, and a row costs it
    # what a row of the unsized window does
    ("ScreenSink", "at_empty_bottom"), ("ScreenSink", "put_lines"), ("ScreenSink", "text_cells"),
    ("ScreenSink", "put_wrapped"),
    # ...and a long ASCII run's rows that wrap through the bottom row, pushed as put_lines pushes a line's
    ("ScreenSink", "push_rows"), ("ScreenSink", "put_ascii_rows"),
    # ...and on the alternate screen, where the rows pushed through are lost instead (round 50)
    ("ScreenSink", "lose_rows"),
    # ...and text with combining marks among its characters, its cells written once and its marks spliced in
    # once (a Python write and splice a run cost the fallback a fifth of such text's speed); the core combines
    # each mark on its own, as its per-character work is a few instructions
    ("ScreenSink", "put_marked"),
    # ...its cells and runs of marks written into a row (put_marked's row, and put_wrapped's rows of marked text
    # longer than the row: round 49)
    ("ScreenSink", "write_marked"),
    # ...and one printable ASCII character at the cursor with put_text's and write_cells's work inline (a call and
    # its tests are most of what a typed character costs in Python; the core's put_char is a few instructions)
    ("ScreenSink", "put_typed"),
    # ...and text with marks at a stuck cursor (auto-wrap off, the last column) as its characters' last one and
    # its marks at once (two regex passes; round 53); the core writes each character and mark in C
    ("ScreenSink", "put_stuck_marked"),
    # ...and one-cell characters with their marks typed in insert mode as one insert and one splice of the row's
    # marks (round 54; new_marks is write_marked's part both share); the core inserts and combines each in C
    ("ScreenSink", "insert_marked"),
    ("ScreenSink", "new_marks"),
    # lines committed one at a time are held and their text made at once when the decoder's call ends (a
    # join and a few passes over each line were a fifth of its time in Python; round 51); the core writes a
    # committed line's text into its output buffer as it goes
    ("LineWindow", "flush"), ("RenderSink", "flush"), ("ScreenSink", "flush"),
    # the fallback's parser keeps what it reads of its sink (its frame rule, its kind of text run) beside it, set
    # again when the decoder swaps sinks; the core's reads them from its sink at each use
    ("Parser", "attach"),
    # a fallback line is an immutable str: an edit builds the new line and puts it back (trimmed); the core
    # edits the line in place through a pointer (cursor_line, in ONLY_C)
    ("LineWindow", "replace_line"),
    # the busy rows of [a, b) as a list, found with bytearray.find; the core steps through them with
    # screen_next_busy (no list: its callers stop at each one)
    ("Screen", "busy_rows"),
    # put_lines's block of rows leaves the top of the region at once (remove_rows; the core's lines come one
    # LF at a time, screen_remove_row); the rows on the screen, which the core keeps as ``height``; the
    # spare entries before row 0, empty rows in each of the fallback's five sequences (the core's spare
    # order entries are never read); entries deleted, read or written in all five at once (the core moves one
    # array of 4-byte entries with a memmove); and a whole tall screen rotated by its ends (screen_rotate
    # moves the core's window) over spare entries made as needed
    ("Screen", "remove_rows"), ("Screen", "row_count"), ("Screen", "empty_entries"), ("Screen", "delete_entries"),
    ("Screen", "entries"), ("Screen", "set_entries"), ("Screen", "rotate_ends"), ("Screen", "make_spare"),
    ("Screen", "cut_spare"),
    # a scroll's row out and empty row in, in one call, as items of the five sequences (the core moves its
    # row order's entries with one memmove: screen_remove_row, screen_insert_row)
    ("Screen", "move_row"),
}
ONLY_C = {
    # the same print, for the two kinds of run the core decodes into (bytes that are ASCII, UCS-4 cells)
    ("Sink", "print_ascii"), ("Sink", "print_cps"), ("RenderSink", "print_ascii"), ("RenderSink", "print_cps"),
    ("StripSink", "print_ascii"), ("StripSink", "print_cps"), ("Parser", "print_cp"),
    # a run of printable ASCII that a LF ends, in one call (the fallback's text runs take LF with them)
    ("Sink", "print_ascii_line"), ("RenderSink", "print_ascii_line"), ("StripSink", "print_ascii_line"),
    ("ScreenSink", "print_ascii_line"),
    # a run of LFs (blank lines) in one call, the render window's lines appended at once (newlines); the
    # fallback's text runs take LFs with them, and its window appends their lines at once (append_lines)
    ("Parser", "linefeed_run"), ("Sink", "linefeeds"), ("RenderSink", "linefeeds"), ("LineWindow", "newlines"),
    # the one rule for storing a parameter (the first MAX_PARAMS kept), shared by push_param and csi_fast's
    # locals; the fallback's parse_params slices its list instead
    ("Parser", "put_param"),
    ("RecordingSink", "print_ascii"), ("RecordingSink", "print_cps"),
    ("LineWindow", "write_ascii"), ("LineWindow", "prepare_write"),
    # prepare_write for a line of bytes (ASCII and Latin-1, one byte a cell); the fallback's lines are str
    ("LineWindow", "prepare_bytes"), ("LineWindow", "write_bytes"),
    # a tabbed run: the core's Sink does it piece by piece for every sink that does not take it at once; the
    # fallback's parser asks a sink whether it has print_tabbed (optional, as frame_limit)
    ("Sink", "print_tabbed"),
    # long lines as chunks once edited (_chunks_c.pxi), so that REP/ECH/EL/ICH/DCH cost what they change; the
    # fallback's lines are str, where a slice is already the whole cost of such an edit
    ("LineWindow", "chunked"), ("LineWindow", "write_chunked"),
    # ...and a gap past a line's end further than a move goes (after an erase under the cursor) is a fill there
    # (the fallback pads a str, one copy: its cost is the gap's bytes, not a cell at a time)
    ("LineWindow", "in_chunks"),
    ("LineWindow", "cursor_line"),  # a pointer to the line to edit in place (see replace_line in ONLY_PY)
    ("TranscriptDecoder", "line_chunks"),  # _line_chunks, the tests' view of those chunks (their bound)
    # ...and a sized screen's long rows (Row.line): made chunks once an edit would touch more than a chunk
    # (chunk_row), written through staged cells (finish_cells) or a fill chunk (fills_chunks, fill_chunks),
    # with prepare_cells's bookkeeping
    # shared (begin_write, end_write) and one cell set in place or in its chunk (put_cell); the fallback's
    # rows are strs of cells (their marks in a str beside them), _row_chunks the tests' view
    ("ScreenSink", "chunk_row"), ("ScreenSink", "finish_cells"), ("ScreenSink", "begin_write"),
    ("ScreenSink", "end_write"), ("ScreenSink", "put_cell"), ("ScreenSink", "fills_chunks"),
    ("ScreenSink", "fill_chunks"), ("ScreenSink", "write_fill"),
    ("TranscriptDecoder", "row_chunks"),
    # put_run's clean test on its own (chunk by chunk on a chunked row; the fallback's is _clean_span)
    ("ScreenSink", "clean_take"),
    # put_stuck's test, for print_ascii's and print_cps's runs (the fallback's one caller, put_text, tests inline)
    ("ScreenSink", "stuck"),
    # REP of a wide character over its own pairs on a flat row (the fallback's fill_run compares the same cells)
    ("ScreenSink", "same_pairs"),
    # ...and over a chunked row, as one fill of pairs (the fallback's rows are strs: its fill_run writes them)
    ("ScreenSink", "pair_fill"),
    # ...and characters inserted in insert mode as the fill the insert opens for them, a lone wide one too (the
    # fallback's insert and write are slices of one str)
    ("ScreenSink", "insert_fill"), ("ScreenSink", "insert_pair"),
    # ...whose clear of the padding the moved cells start with is insert_run's too (the fallback's insert_run
    # clears it in its one splice)
    ("ScreenSink", "clear_moved_padding"),
    # the run decoder and the CSI fast path, which the fallback does with re, and UTF-8 byte by byte
    ("Parser", "text_run"), ("Parser", "csi_fast"), ("Parser", "utf8_byte"),
    # windows as C structs: swapped by value, lines from a pool (the fallback has objects and lists)
    ("LineWindow", "pack"), ("LineWindow", "unpack"), ("LineWindow", "new_window"), ("LineWindow", "drop_window"),
    ("LineWindow", "append_line"), ("LineWindow", "release_line"), ("LineWindow", "free_lines"),
    ("LineWindow", "line_room"), ("LineWindow", "spare_room"),
    # newline's one-line scroll of a full window, reusing the top line's buffer (the fallback's lines are str
    # in a list: appending one and committing the top is already a list operation each); scroll_line is its
    # case for lines of cells, kept out of line so that the common case inlines
    ("LineWindow", "scroll"), ("LineWindow", "scroll_line"),
    # print_ascii_line's write and newline, with their common case (the empty last line of a full window) in
    # one step
    ("LineWindow", "put_line"),
    # the sinks of the fallback are structural (a Protocol): its parser asks the sink for frame_limit with
    # getattr, and only the render sink has one; the core's base Sink answers 0 for the others
    ("Sink", "frame_limit"),
    # ...and, where it counts frames by cells (a sized screen's), for frame_clean: the core's base answers yes
    ("Sink", "frame_clean"),
    ("RenderSink", "__dealloc__"), ("LineWindow", "__dealloc__"), ("Parser", "__dealloc__"),
    ("StripSink", "__dealloc__"), ("TranscriptDecoder", "__dealloc__"),
    ("StripSink", "resolve_pending_cr"), ("StripSink", "bound_alt_held"),
    # the facade's C plumbing: the GIL, batches and Arrow without Python objects, base64 in C
    ("TranscriptDecoder", "feed_released"), ("TranscriptDecoder", "batch"), ("TranscriptDecoder", "arrow"),
    ("TranscriptDecoder", "arrow_values"), ("TranscriptDecoder", "release_held"),
    ("TranscriptDecoder", "decode_item"), ("TranscriptDecoder", "check_initialised"),
    ("TranscriptDecoder", "feed_sliced"), ("TranscriptDecoder", "feed_base64"), ("TranscriptDecoder", "end_call"),
    # a call's or a batch item's text in pieces (output_to_text, text_append): each piece readied and the
    # buffers trimmed after it, as take_output does for the whole text in one; an Arrow value's pieces as
    # UTF-8. The fallback's calls and items are strs joined
    ("TranscriptDecoder", "feed_bounded"), ("TranscriptDecoder", "ready_output"),
    ("TranscriptDecoder", "trim_output"), ("TranscriptDecoder", "output_to_text"), ("TranscriptDecoder", "item_end"),
    ("TranscriptDecoder", "item_piece_utf8"),
    ("TranscriptDecoder", "feed"), ("TranscriptDecoder", "finish"),
    ("ScreenSink", "print_ascii"), ("ScreenSink", "print_cps"), ("ScreenSink", "__dealloc__"),
    ("ScreenSink", "prepare_cells"), ("ScreenSink", "base_char"),
    # REP's fill of a row, counted as it is written (the fallback's put_text takes REP's characters as text)
    ("ScreenSink", "put_fill"),
    # combining marks in a pool (a str beside each row in Python)
    ("ScreenSink", "new_mark"), ("ScreenSink", "compact_marks"), ("ScreenSink", "visit_all_marks"),
    ("ScreenSink", "size_mark_pool"),
    ("ScreenSink", "row_text"), ("ScreenSink", "text"),  # Screen's methods where the marks are (see C_STRUCTS)
    # a region's lagged scrolls (both twins: set_region, scroll_up_lagged, scroll_down_lagged, settle, and
    # enforce_limits' commit_rows through the lag) rotate the core's row order in place, so SD and SU lag too,
    # and text is written where the lag left the cursor's row (cursor_row, lagged_row, screen_row), and so
    # are its wraps (wrap_through_lag; wrap_text for text that is not ASCII and insert mode's), ED clears the
    # rows where it left them (clear_screen_rows, in the runs of its order: order_runs) and ED 2 sends them
    # to the history through it (clear_lagged_screen), and the main screen keeps its lag under the alternate
    # one (settle_main); drop_row is move_lines' loss of a row, which the lagged scrolls share. The fallback's
    # lag holds the rows aside and never moves the cursor's row: its linefeed lags by itself
    ("ScreenSink", "drop_row"), ("ScreenSink", "wrap_through_lag"), ("ScreenSink", "wrap_text"),
    ("ScreenSink", "clear_lagged_screen"), ("ScreenSink", "clear_screen_rows"), ("ScreenSink", "settle_main"),
    ("ScreenSink", "order_runs"),
    ("ScreenSink", "cursor_row"), ("ScreenSink", "lagged_row"), ("ScreenSink", "screen_row"),
}

# Python classes that are C structs in the core (swapped by value without the GIL, as windows are): their
# methods are C functions named ``<struct>_<method>`` or methods of the class named here.
C_STRUCTS = {"Screen": "ScreenSink"}


def python_classes(path: Path) -> dict[str, set[str]]:
    tree = ast.parse(path.read_text())
    classes = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            names = set()
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    names.add(item.name)
                elif isinstance(item, (ast.Assign, ast.AnnAssign)) and item.__class__ is ast.AnnAssign:
                    names.add(item.target.id)  # type: ignore[union-attr]
                elif isinstance(item, ast.Assign):
                    names.update(t.id for t in item.targets if isinstance(t, ast.Name))
            classes[node.name] = {n for n in names if not (n.startswith("__") and n != "__dealloc__")} - {"__init__"}
    return classes


_CLASS = re.compile(r"^(?:@cython\.final\n)?cdef class (\w+)", re.M)
_METHOD = re.compile(r"^    (?:cdef|cpdef|def)\s+(?:[\w*]+\s+)*?\*?(\w+)\(self", re.M)


def c_classes(path: Path) -> dict[str, set[str]]:
    text = path.read_text()
    starts = [(m.start(), m.group(1)) for m in _CLASS.finditer(text)]
    classes = {}
    for index, (start, name) in enumerate(starts):
        end = starts[index + 1][0] if index + 1 < len(starts) else len(text)
        body = text[start:end]
        header_end = body.index("\n", body.index("cdef class"))
        stop = re.search(r"\n(?=[^\s#])", body[header_end:])  # the first line back at column 0 ends it
        if stop is not None:
            body = body[: header_end + stop.start()]
        methods = {m.group(1) for m in _METHOD.finditer(body)}
        properties = set(re.findall(r"^    @property\n    def (\w+)", body, re.M))
        classes[name] = (methods | properties) - {"__init__"}
    return classes


def normalized(name: str) -> str:
    return name if name.startswith("__") and name.endswith("__") else name.lstrip("_")  # (dunders as they are)


@pytest.mark.parametrize("py_module, c_module", sorted(TWINS.items()))
def test_twins_have_the_same_classes_and_method_names(py_module, c_module):
    py = python_classes(PACKAGE / py_module)
    c = c_classes(PACKAGE / c_module)
    c_text = (PACKAGE / c_module).read_text()
    for struct, owner in C_STRUCTS.items():
        if struct in py:
            assert f"ctypedef struct {struct}:" in c_text, struct
            for method in py.pop(struct) - {m for cls, m in ONLY_PY if cls == struct}:
                assert f" {struct.lower()}_{method}(" in c_text or method in c[owner], (struct, method)
    assert set(py) == set(c), f"classes: {py_module} has {sorted(py)}, {c_module} has {sorted(c)}"
    for name in py:
        py_names = {normalized(n) for n in py[name]} - {m for cls, m in ONLY_PY if cls == name}
        c_names = {normalized(n) for n in c[name]} - {m for cls, m in ONLY_C if cls == name}
        assert py_names == c_names, (
            f"{name}: only in {py_module}: {sorted(py_names - c_names)}; only in {c_module}: {sorted(c_names - py_names)}"
        )


def test_every_allowed_difference_is_still_real():
    """An allow-list entry for a method that now exists in both twins (or neither) is stale."""
    py, c = {}, {}
    for py_module, c_module in TWINS.items():
        py.update(python_classes(PACKAGE / py_module))
        c.update(c_classes(PACKAGE / c_module))
    c_text = "".join((PACKAGE / c_module).read_text() for c_module in TWINS.values())
    for cls, method in ONLY_PY:
        assert method in {normalized(n) for n in py.get(cls, ())}, (cls, method)
        assert method not in {normalized(n) for n in c.get(C_STRUCTS.get(cls, cls), ())}, (cls, method)
        assert cls not in C_STRUCTS or f" {cls.lower()}_{method}(" not in c_text, (cls, method)
    for cls, method in ONLY_C:
        assert method in {normalized(n) for n in c.get(cls, ())}, (cls, method)
        assert method not in {normalized(n) for n in py.get(cls, ())}, (cls, method)


def test_the_core_mirrors_the_shared_constants(both):
    """_defs_c.pxi repeats _defs.py as C enums; every value must agree."""
    constants = both[0].constants()
    shared = {name for name, value in vars(_defs).items() if name.isupper() and isinstance(value, int)}
    assert shared - {"MAX_OPTION"} <= set(constants), "a _defs constant the core does not mirror"
    for name, value in constants.items():
        assert value == getattr(_defs, name), name


def test_the_file_list_shows_the_pipeline():
    for py_module, c_module in TWINS.items():
        assert (PACKAGE / py_module).exists() and (PACKAGE / c_module).exists()
    included = re.findall(r'^include "(\w+\.pxi)"', (PACKAGE / "_decoder_c.pyx").read_text(), re.M)
    assert set(TWINS.values()) - {"_decoder_c.pyx"} <= set(included)
    assert sorted(p.name for p in PACKAGE.glob("*.pxi")) == sorted(included)
