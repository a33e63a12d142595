"""The properties everything rests on, under Hypothesis: chunk invariance, the safety invariant, plain-text
identity, bounded output, and (with both implementations present) byte-for-byte agreement."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import decode_chunks, examples
from strategies import chunked, options, terminal_bytes

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029]")


@given(chunked(), options)
def test_chunk_invariance(impl, case, opts):
    data, chunks = case
    assert decode_chunks(impl.TranscriptDecoder, chunks, **opts) == impl.sanitize(data, **opts)


@given(chunked(), options)
def test_stats_are_chunk_invariant(impl, case, opts):
    data, chunks = case
    one = impl.TranscriptDecoder(**opts)
    one.decode(data, final=True)
    many = impl.TranscriptDecoder(**opts)
    for chunk in chunks:
        many.decode(chunk)
    many.decode(b"", final=True)
    assert many.stats == one.stats


@given(terminal_bytes, options)
def test_safety_invariant(impl, data, opts):
    out = impl.sanitize(data, **opts)
    assert UNSAFE.search(out) is None
    # "\n" is the only line break: appending a letter removes splitlines()' special case for a final break.
    assert (out + "x").splitlines() == (out + "x").split("\n")


PLAIN = st.text(
    st.characters(
        codec="utf-8",
        exclude_categories=("Cc", "Cs", "Zl", "Zp", "Cf"),
        # The Unicode policy's characters (bidi controls are Cf, tags partly unassigned) change on purpose.
        exclude_characters="\U0001f3f4" + "".join(map(chr, range(0xE0000, 0xE0080))),
    )
    | st.sampled_from("\n\t"),
    max_size=200,
)


@given(PLAIN, st.sampled_from(["render", "strip"]))
def test_plain_text_comes_back_unchanged(impl, text, mode):
    assert impl.sanitize(text.encode(), mode=mode) == text


@given(terminal_bytes, options)
def test_output_is_bounded_by_a_constant_factor(impl, data, opts):
    # Per input byte at most one forward jump's worth of cells (REP, CUF, HT), or one "<U+XXXXX>" (9 chars
    # for a 3- or 4-byte character).
    factor = opts.get("max_jump", 1024) + 9
    assert len(impl.sanitize(data, **opts)) <= factor * len(data)


@settings(max_examples=examples(300))
@given(chunked(), options)
def test_implementations_agree(both, case, opts):
    assert_twins_agree(both, case[1], opts)


def assert_twins_agree(both, chunks, opts):
    """Each call's output and the live window after it, the end and the stats: the same in both twins."""
    c, py = both
    decoders = [c.TranscriptDecoder(**opts), py.TranscriptDecoder(**opts)]
    for chunk in chunks:
        outs = [d.decode(chunk) for d in decoders]
        assert outs[0] == outs[1]
        assert decoders[0].live == decoders[1].live
    assert decoders[0].decode(b"", final=True) == decoders[1].decode(b"", final=True)
    assert decoders[0].stats == decoders[1].stats


@given(st.binary(max_size=64), options)
def test_implementations_agree_on_random_bytes(both, data, opts):
    c, py = both
    assert c.sanitize(data, **opts) == py.sanitize(data, **opts)


# Runs of LFs among what moves the cursor over lines and what commits them (the core takes a run in one call
# and appends the window's empty lines at once): every boundary of live_lines and max_live_cells is near.
BLANK_LINES = st.lists(
    st.sampled_from([b"\n" * k for k in range(1, 7)])
    | st.sampled_from([b"ab", b"hello world", b"\r", b"\x1b[A", b"\x1b[3A", b"\x1b7", b"\x1b8", b"\x1b[9;1H",
                       b"\x1b[?1049h", b"\x1b[?1049l", b"\x1b[2J", b"\x1b[J", b"\x1bc", b"\x1b[2b", b"\t"]),
    max_size=30,
).map(b"".join)
BLANK_LINE_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "mode": st.sampled_from(["render", "strip"]),
        "alt_screen": st.sampled_from(["drop", "keep"]),
        "live_lines": st.integers(1, 8),
        "max_line_cells": st.integers(1, 16),
        "max_live_cells": st.integers(1, 30),
    },
)


@settings(max_examples=examples(300))
@given(chunked(BLANK_LINES), BLANK_LINE_OPTIONS)
def test_implementations_agree_on_blank_lines(both, case, opts):
    assert_twins_agree(both, case[1], opts)


@pytest.mark.parametrize("live_lines", range(1, 7))
def test_implementations_agree_on_every_run_of_lfs_at_every_window_size(both, live_lines):
    # Exhaustive where Hypothesis is thin: a run of k LFs from a cursor on the last line, on a line with
    # lines below it, or after a line that is over max_live_cells, at every room the window has left.
    prefixes = (b"", b"ab", b"ab\nab\ncd\nef\x1b[3A", b"hello world", b"ab\nab\x1b[Ahello world",
                b"ab\x1b7\x1b[9;1Hbar")
    for prefix in prefixes:
        for k in range(1, 9):
            for opts in ({"live_lines": live_lines}, {"live_lines": live_lines, "max_live_cells": 8}):
                assert_twins_agree(both, [prefix, b"\n" * k, b"x", b"\n" * k], opts)
