"""Latin-1 on lines of bytes (round 28). The core keeps a line that only ASCII, tabs and cursor gaps have
written as one byte a cell; Latin-1 characters (U+00A0-U+00FF but U+00AD, which the Unicode policy may
change) now stay on it too, and such a line goes to the call's one-byte head, or past 1 MiB to the str the
call returns, as Latin-1. Every way onto such a line (text, REP, over a gap, over other text, after a tab),
every edit that makes it cells, and every way out (committed, live, a batch item, an Arrow value, a head in a
str) must give the text a terminal shows, in both twins, in a str of the narrowest kind."""

from __future__ import annotations

import sys

import pytest

from helpers import decode_chunks
from test_large_output import MIB, REPEATS, REPEATS_TEXT, assert_well_formed

LINES = [
    # written onto a line of bytes: text, after ASCII, over a gap, by REP (U+00A0 and U+00FF: the range's ends)
    ("caf\u00e9 cr\u00e8me\n", {}, "caf\u00e9 cr\u00e8me\n"),
    ("\u00e9\x1b[5C\u00fc\n", {}, "\u00e9     \u00fc\n"),
    ("\u00ff\x1b[4b\n", {}, "\u00ff" * 5 + "\n"),
    ("\u00a0\x1b[2b|\n", {}, "\u00a0" * 3 + "|\n"),
    # over other text: Latin-1 over ASCII, ASCII over Latin-1
    ("abc\r\u00e9\n", {}, "\u00e9bc\n"),
    ("\u00e9\u00e8\u00ea\rX\n", {}, "X\u00e8\u00ea\n"),
    # tab spans kept (one \t) and expanded, around a Latin-1 character
    ("\t\u00e9\tx\n", {}, "\t\u00e9\tx\n"),
    ("\t\u00e9\tx\n", {"tabs": "expand"}, " " * 8 + "\u00e9" + " " * 7 + "x\n"),
    # U+00AD is not on the bytes path: the policy sees it (SPEC 2.5: kept by the standard policy, shown by strict)
    ("a\u00adb\n", {}, "a\u00adb\n"),
    ("a\u00adb\n", {"unicode": "strict"}, "a<U+00AD>b\n"),
    # a character past Latin-1 (U+0100) on the same line: the line becomes cells
    ("\u00e9\u0100\n", {}, "\u00e9\u0100\n"),
    # edits that make the line cells: DCH, EL 1, ICH, ECH
    ("\u00e9abc\x1b[2D\x1b[1P\n", {}, "\u00e9ac\n"),
    ("\u00e9abc\x1b[2D\x1b[1K\n", {}, "   c\n"),
    ("\u00e9abc\x1b[2D\x1b[2@\n", {}, "\u00e9a  bc\n"),
    ("\u00e9abc\x1b[3D\x1b[2X\n", {}, "\u00e9  c\n"),
    # lines cut at max_line_cells, each of bytes
    ("\u00e9" * 30 + "\n", {"max_line_cells": 8}, ("\u00e9" * 8 + "\n") * 3 + "\u00e9" * 6 + "\n"),
    # REP that starts a new line there: its first characters on a fresh line (ASCII so far) are Latin-1
    ("x" * 7 + "\u00e9\x1b[3b\n", {"max_line_cells": 8}, "x" * 7 + "\u00e9\n" + "\u00e9" * 3 + "\n"),
    # a long line (past a chunk of 512 cells) edited in the middle: chunks, from Latin-1 bytes
    ("\u00e9" * 2000 + "\r\x1b[1000Cx\n", {}, "\u00e9" * 1000 + "x" + "\u00e9" * 999 + "\n"),
    # the Latin-1 character overwritten by ASCII: the line held one, its text is ASCII (an ASCII str)
    ("\u00e9\rx\n", {}, "x\n"),
    ("\u00e9\x1b[3b\r\x1b[2K\n", {}, "\n"),
]


@pytest.mark.parametrize(("data", "options", "expected"), LINES, ids=range(len(LINES)))
def test_latin1_on_a_line_of_bytes(impl, data: str, options: dict, expected: str) -> None:
    raw = data.encode()
    text = impl.TranscriptDecoder(**options).decode(raw, final=True)
    assert_well_formed(text, expected)
    # any chunking, every cut inside a UTF-8 sequence included: the same text
    pieces = [raw[i : i + 1] for i in range(len(raw))]
    assert decode_chunks(impl.TranscriptDecoder, pieces, **options) == expected


@pytest.mark.parametrize("run", range(0, 70))
def test_latin1_runs_of_every_length_before_a_gap_and_a_tab(impl, run: int) -> None:
    """tabbed_text copies a Latin-1 character and the text after it as one run, found 32 bytes at a time
    then byte by byte (acp_text_byte_run): a run of each length up to two steps and more, ASCII in it, then a
    gap, then a tab span, then text."""
    text = ("\u00e9" + "a\u00ff" * 40)[: run + 1]
    data = f"{text}\x1b[3C|\t{text}\n".encode()
    expected = f"{text}   |" + " " * (8 - (len(text) + 4) % 8) + f"{text}\n"
    keep = text + "   |\t" + text + "\n"
    assert_well_formed(impl.TranscriptDecoder(tabs="expand").decode(data, final=True), expected)
    assert_well_formed(impl.TranscriptDecoder().decode(data, final=True), keep)


def test_live_and_committed_text_of_a_latin1_line(impl) -> None:
    decoder = impl.TranscriptDecoder(live_lines=2)
    assert decoder.decode("na\u00efve\n\u00e0 la carte".encode()) == ""
    live = decoder.live
    assert_well_formed(live, "na\u00efve\n\u00e0 la carte")
    # a third line commits the first, as Latin-1; the one after it commits an ASCII line, as ASCII
    assert_well_formed(decoder.decode(b"\nplain"), "na\u00efve\n")
    assert_well_formed(decoder.decode(b"\nmore"), "\u00e0 la carte\n")
    assert_well_formed(decoder.decode(b"\n"), "plain\n")


def test_a_repeat_that_starts_a_line_commits_it_as_latin1(impl) -> None:
    """REP past max_line_cells starts a fresh line (one of ASCII so far) with Latin-1; committed in a call of
    its own, that line alone must make the call's str Latin-1."""
    decoder = impl.TranscriptDecoder(max_line_cells=8, live_lines=1)
    assert_well_formed(decoder.decode(("x" * 7 + "\u00e9\x1b[3b").encode()), "x" * 7 + "\u00e9\n")
    assert_well_formed(decoder.decode(b"\n"), "\u00e9" * 3 + "\n")


def test_the_output_of_a_call_is_latin1_only_if_its_text_is(impl) -> None:
    """A call's head holds Latin-1 from one line; the next call's head starts ASCII again."""
    decoder = impl.TranscriptDecoder(live_lines=1)
    assert_well_formed(decoder.decode("\u00e9\nx\ny\n".encode()), "\u00e9\nx\ny\n")
    assert_well_formed(decoder.decode(b"a\nb\n"), "a\nb\n")
    assert_well_formed(decoder.decode("c\n\u00e7\n".encode()), "c\n\u00e7\n")


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        # the head passes 1 MiB of ASCII (a str), then a Latin-1 line: the str becomes Latin-1 (head_str_latin1)
        (REPEATS + "\u00e9\n".encode(), REPEATS_TEXT + "\u00e9\n"),
        # Latin-1 from the first line: the head moves into a Latin-1 str
        (("\u00e9\x1b[1023b\n" * 1100).encode(), ("\u00e9" * 1024 + "\n") * 1100),
        # huge moves after a Latin-1 character, over 1 MiB of text
        (("\u00e9\x1b[1000C\u00fc\n" * 1100).encode(), ("\u00e9" + " " * 1000 + "\u00fc\n") * 1100),
    ],
    ids=["ascii-then-latin1", "latin1-repeats", "latin1-gaps"],
)
def test_latin1_past_a_mebibyte(impl, data: bytes, expected: str) -> None:
    assert len(expected) > MIB  # (the case reaches a head in a str)
    decoder = impl.TranscriptDecoder()
    text = decoder.decode(data, final=True)
    assert_well_formed(text, expected)
    assert sys.getrefcount(text) == 2
    # the decoder's next call: ASCII again, in a str of its own
    assert_well_formed(decoder.decode(REPEATS, final=True), REPEATS_TEXT)


def test_batch_items_with_latin1(impl) -> None:
    """A batch keeps ASCII items in a shared one-byte head: an item whose text is Latin-1 must not go there."""
    items = [b"plain\n", "caf\u00e9\n".encode(), b"", "\u00e9\rx".encode(), "\u00ff\x1b[3b".encode(), b"end"]
    expected = ["plain\n", "caf\u00e9\n", "", "x", "\u00ff" * 4, "end"]
    results = impl.sanitize_batch(items)
    assert results == expected
    for text, want in zip(results, expected):
        assert_well_formed(text, want)


def test_arrow_values_with_latin1(impl) -> None:
    pa = pytest.importorskip("pyarrow")
    values = [b"plain", "caf\u00e9\n".encode(), "\u00e9\x1b[3C\u00fc".encode(), "\u00e9\rx".encode()]
    result = impl.sanitize_arrow(pa.array(values, pa.binary()))
    column = result if isinstance(result, pa.Array) else pa.array(result)
    assert column.to_pylist() == ["plain", "caf\u00e9\n", "\u00e9   \u00fc", "x"]


def test_strip_mode_holding_back_a_flag_after_ascii(impl) -> None:
    """Strip mode holds back a possible flag sequence at the end of a call; what it returns before that is
    ASCII and must be an ASCII str (the maxchar recomputed from the head, head_maxchar)."""
    decoder = impl.TranscriptDecoder(mode="strip")
    text = decoder.decode("done\n\U0001f3f4".encode())  # (the line in the head, the flag in the cells)
    assert_well_formed(text, "done\n")
    assert_well_formed(decoder.decode(b"", final=True), "\U0001f3f4")
