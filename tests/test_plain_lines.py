"""Plain lines (printable ASCII with LF, CR LF and LF CR), the common case of logs, through the windows' limits
from every starting state, in any chunks: the twins agree on the text, the live window and the counters.
(A fast path that committed such lines straight from the input was tried against these and measured
slower on 4 KiB chunks; benchmarks/README.md.)"""

from __future__ import annotations

import pytest
from helpers import calls as run
from helpers import every_split
from hypothesis import given
from hypothesis import strategies as st

plain_line = st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E), max_size=40)
plain_stretch = st.builds(
    lambda lines, endings, tail: "".join(line + ending for line, ending in zip(lines, endings)).encode() + tail,
    st.lists(plain_line, min_size=1, max_size=120),
    st.lists(st.sampled_from(["\n", "\r\n", "\n\r"]), min_size=120, max_size=120),
    st.sampled_from([b"", b"tail", b"\r", b"\x1b[A", b"\x1b[2J"]),
)
before = st.sampled_from([b"", b"partial", b"a\nb\n", b"\x1b7", b"\x1b7\x1b[3;1H", b"\x1b[?1049h", b"x\x1b[A",
                          b"\t", b"x" * 300 + b"\r"])
limits = st.fixed_dictionaries({
    "live_lines": st.sampled_from([1, 2, 3, 7, 200]),
    "max_live_cells": st.sampled_from([1, 10, 50, 300, 1 << 20]),
    "max_line_cells": st.sampled_from([1, 5, 39, 40, 65536]),
    "mode": st.sampled_from(["render", "render", "strip"]),
})


@given(before, st.lists(plain_stretch, min_size=1, max_size=4), limits, st.integers(1, 5000))
def test_plain_lines_render_as_line_by_line(both, prefix, stretches, options, chunk_size):
    compiled, fallback = both
    data = prefix + b"".join(stretches) + b"\x1b8after"
    chunks = [data[i : i + chunk_size] for i in range(0, len(data), chunk_size)]
    assert run(compiled, chunks, options) == run(fallback, chunks, options)
    assert run(compiled, [data], options) == run(fallback, [data], options)


def test_a_long_log_keeps_only_the_window(impl):
    lines = [b"line %d\r\n" % i for i in range(10_000)]
    decoder = impl.TranscriptDecoder(live_lines=3)
    out = decoder.decode(b"".join(lines))
    assert out == "".join("line %d\n" % i for i in range(9_998))
    assert decoder.live == "line 9998\nline 9999\n"  # the cursor's empty line is the third
    # a saved cursor counts the lines that left: restored after its line left, it clamps to the window's top
    assert decoder.decode(b"\x1b[2A\x1b7\n\n\nend\x1b8X") == "line 9998\n"
    assert decoder.decode(b"", final=True) == "Xine 9999\n\nend"


# What stops a run of printable ASCII (the core's scan looks at 16 bytes at a time and ends a run with the
# 16 bytes that end it), and what its text is copied as (16 cells at a time into the line, 16 characters at
# a time out of the output buffer, a str of kind 1, 2 or 4).
STOPPERS = [b"\n", b"\r", b"\t", b"\x00", b"\x7f", b"\x1b[31m", b"\x1b[A", b"\xc3\xa9", b"\xe4\xb8\xad", b"\xff",
            b"\xf0\x9f\x98\x80"]


def test_runs_of_every_length_stop_where_the_twins_stop(both):
    compiled, fallback = both
    for stopper in STOPPERS:
        data = b"".join(b"abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN"[:n] + stopper + b"\n"
                        for n in range(50))
        for size in (len(data), 1, 15, 16, 17, 33):
            chunks = [data[i : i + size] for i in range(0, len(data), size)]
            for options in ({}, {"live_lines": 1}, {"mode": "strip"}):
                assert run(compiled, chunks, options) == run(fallback, chunks, options), (stopper, size, options)


def test_colored_words_of_every_length_stop_where_the_twins_stop(both):
    """Colored ASCII (words between SGRs) stays bytes in the core's text run, copied a word at a time (16
    bytes at once when the word fits); a byte that is not ASCII, an ignored control or DEL after them sends
    the words so far on as cells. Words of 0-20 letters, each stopper after them, and a REP after the run (an
    SGR at its end leaves it nothing to repeat), in chunks that cut the words and the SGRs anywhere."""
    compiled, fallback = both
    for stopper in [b"", *STOPPERS, b"\x01", b"\x7f", b"\x1b[K"]:  # (none: REP right after the run)
        data = b"".join(b"x\x1b[3%dm" % (n % 8) + b"abcdefghijklmnopqrstu"[:n] + b"\x1b[0m" * (n % 2) + stopper
                        + b"\x1b[2b\n" for n in range(21))
        for size in (len(data), 1, 7, 16, 17):
            chunks = [data[i : i + size] for i in range(0, len(data), size)]
            for options in ({}, {"mode": "strip"}, {"columns": 12, "rows": 3}):
                assert run(compiled, chunks, options) == run(fallback, chunks, options), (stopper, size, options)


def test_latin1_text_of_every_length_comes_out_whole(impl):
    # a str of kind 1 with characters 0x80-0xFF: the narrowing copy must keep them as they are
    text = "".join("é" * n + "ÿ" + "a" * n + "\n" for n in range(40))
    decoder = impl.TranscriptDecoder(live_lines=1)
    out = decoder.decode(text.encode()) + decoder.decode(b"", final=True)
    assert out == text


# Plain text goes to a one-byte head of the core's output buffer while nothing wider came before it in the
# call; whatever comes later (a wide character, a character the Unicode policy shows, a held flag sequence,
# a status line, the end of the stream) must come out after it, in order, as in the fallback.
MIXED = [
    b"plain\nlines\n" * 3 + "wide 日本\n".encode() + b"more plain\n" * 3,
    b"a\nb\n" + "\u202e bidi\n".encode() + b"c\nd\n" + "\u2028sep\n".encode() + b"e\n",
    b"x\n\n\ny\r\n" + "\U0001f3f4\U000e0067\U000e0062".encode(),
    b"x\ny\n\x1b7\x1b[24;1Hstatus\x1b8z\n" + b"w\n" * 5,
    b"\r\nafter cr\r\n\rtail",
    b"one\n" * 300 + "\u00e9\n".encode() + b"two\n" * 300,
]


def test_plain_text_before_and_after_other_text_keeps_its_order(both):
    compiled, fallback = both
    for data in MIXED:
        for size in (len(data), 7, 64):
            chunks = [data[i : i + size] for i in range(0, len(data), size)]
            for options in ({}, {"live_lines": 1}, {"mode": "strip"}, {"unicode": "strict"}, {"mode": "strip", "unicode": "strict"}):
                assert run(compiled, chunks, options) == run(fallback, chunks, options), (data, size, options)
        for options in ({}, {"mode": "strip"}):
            assert compiled.sanitize_batch(MIXED, **options) == fallback.sanitize_batch(MIXED, **options)


def test_lines_at_the_cell_limit_commit_what_the_twins_commit(both):
    """A plain line that takes a full window past max_live_cells: the core's one-step path for a line (write,
    then scroll the top line out) holds only while the text fits the limit; past it, the limit commits as
    many lines from the top as it takes, which can be more than the one a scroll commits. Every limit from
    1 to 30 cells against lines whose lengths go up and down, one line a call, live window compared; and
    from a cursor on an empty line that is not the window's last (the path is only for the last), on the
    alternate screen, and after a line that is not plain."""
    compiled, fallback = both
    lengths = [2, 2, 9, 1, 7, 3, 12, 0, 5, 5, 5, 14, 1, 1, 8, 30, 2, 6]
    lines = [bytes([0x61 + i % 26]) * n + b"\n" for i, n in enumerate(lengths)]
    for prefix in (b"", b"a\n\nb\n\n\x1b[3A", b"\n\n\n\n\x1b[2A", b"\x1b[?1049h", b"\xc3\xa9\x1b[31mx\x1b[m\n"):
        for live_lines in (1, 2, 3, 4, 5):
            for max_live_cells in range(1, 31):
                options = {"live_lines": live_lines, "max_live_cells": max_live_cells}
                chunks = [prefix] + lines
                assert run(compiled, chunks, options) == run(fallback, chunks, options), (prefix, options)


def test_after_a_cr_the_fallback_appends_a_runs_lines_at_once(monkeypatch):
    """A run of lines that starts inside a line (after a CR: pytest's "collecting ..." rewritten as
    "collected 3 items") is written piece by piece only up to its first new line; the lines after it are
    appended at once, as at the end of the last line. Before round 21 every line of such a run was a write,
    a newline and a commit (pytest's output: 30 -> 14 ms a MB), with the same output: only the calls show it."""
    from acp_transcript import _decoder_c, _decoder_py, _window_py

    data = b"collecting ...\rcollected 3 items\r\n" + b"".join(b"line %d\r\n" % i for i in range(300)) + b"end"
    # from the last line: one newline (the one that opens a new line); from the line above it: two
    for start, newlines in ((b"", 1), (b"above\n\x1b[A", 2)):
        calls = []
        newline = _window_py.LineWindow.newline
        monkeypatch.setattr(_window_py.LineWindow, "newline", lambda self: calls.append(1) or newline(self))
        got = _decoder_py.TranscriptDecoder(live_lines=50).decode(start + data, final=True)
        monkeypatch.undo()
        assert got == _decoder_c.TranscriptDecoder(live_lines=50).decode(start + data, final=True)
        assert "collected 3 items\nline 0\n" in got and got.endswith("line 299\nend")
        assert len(calls) == newlines


@pytest.mark.parametrize("options", [{}, {"columns": 10, "rows": 3}, {"columns": 10, "rows": 3, "live_lines": 2},
                                     {"mode": "strip"}])
def test_a_cr_after_an_lf_does_nothing_where_lines_are_rendered(both, options):
    """LF CR line endings: the fallback's text run takes a CR right after an LF, which has returned to column 0
    already (_parser_py._LINE_RUN), where each was a run and a CR of their own (0.74 MB/s at 80x24). The
    oracle: the same text without those CRs, in any chunks, in both twins. Strip mode shows a line break for
    such a CR (a CR's pending break): there the twins agree with each other only. The CR at the very start
    follows no LF: a progress frame's overwrite, as in both."""
    compiled, fallback = both
    data = (b"\rframe\rab\n\rcd\n\r\n\r\rx\x1b[31m\n\r\x1b[me\n\r\r\n" + "\u00e9\n\r\u4e2d\n\r\t1\n\r".encode()
            + b"long line of text\n\rq\x07\rr\n\rtail")  # (a noisy run's CR is executed)
    (out, live, final), stats = run(compiled, [data.replace(b"\n\r", b"\n")], options)
    for chunks in every_split(data):
        got = run(fallback, chunks, options)
        assert got == run(compiled, chunks, options), chunks
        if options.get("mode") != "strip":  # the transcript, the last live window and the counters
            calls, counters = got
            assert ("".join(calls[::2]), calls[-2], counters) == (out + final, live, stats), chunks
