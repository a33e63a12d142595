"""SPEC 2.4: strip mode keeps everything the program printed, once, in order."""

from __future__ import annotations

import pytest

from helpers import assert_transcript

CASES = [
    pytest.param(b"10%\r20%\r100%\n", "10%\n20%\n100%\n", id="every-progress-frame"),
    pytest.param(b"line\r\n", "line\n", id="crlf-one-newline"),
    pytest.param(b"line\r\r\r\n", "line\n", id="cr-cr-lf-one-newline"),
    pytest.param(b"a\rb", "a\nb", id="cr-then-text"),
    pytest.param(b"a\r", "a\n", id="cr-at-end"),
    pytest.param(b"a\r\x1b[31mb", "a\nb", id="cr-then-sequence-then-text"),
    pytest.param(b"a\r\tb", "a\n\tb", id="cr-then-tab"),
    pytest.param(b"ab\x08\x08cd", "abcd", id="bs-removed"),
    pytest.param(b"a\tb", "a\tb", id="tab-passes"),
    pytest.param(b"a\x0bb\x0cc", "a\nb\nc", id="vt-ff"),
    pytest.param(b"a\x1b[2Kb\x1b[5Dc\x1b[Hd", "abcd", id="moves-and-erases-removed"),
    pytest.param(b"a\x1b[3bz", "az", id="rep-removed"),
    pytest.param(b"a\x1b[?1049hhidden\r\n\x1b[?1049lb", "ab", id="alt-screen-dropped"),
    pytest.param(b"a\x1b[?1049hUI\r\nKilled\r\n", "aUI\nKilled\n", id="alt-screen-never-left-is-emitted"),
]


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_strip(impl, data, expected):
    assert_transcript(impl, data, expected, mode="strip")


def test_strip_alt_screen_keep(impl):
    assert_transcript(impl, b"a\x1b[?1049hb\x1b[?1049lc", "abc", mode="strip", alt_screen="keep")


def test_strip_streams(impl):
    decoder = impl.TranscriptDecoder(mode="strip")
    assert decoder.decode(b"partial line") == "partial line"
    assert decoder.decode(b"\r") == ""  # the pending break waits for what follows
    assert decoder.decode(b"\n") == "\n"
    assert decoder.live == ""


def test_strip_alt_screen_holds_only_the_most_recent_text(impl):
    data = b"a\x1b[?1049h" + b"0123456789" * 3 + b"\nend"
    assert_transcript(impl, data, "a" + "6789\nend", mode="strip", max_live_cells=8)
    decoder = impl.TranscriptDecoder(mode="strip", max_live_cells=8)
    decoder.decode(data + b"\x1b[?1049l", final=True)
    assert decoder.stats["alt_screen_dropped"] == 33


def test_held_alternate_screen_text_is_bounded_line_by_line(both):
    # A line of plain text is one call into the strip sink (text and LF together), which bounds the held text
    # once where two calls bounded it twice: the same transcript and counters as the fallback's.
    compiled, fallback = both
    for cells in range(1, 9):
        for width in range(1, 7):
            data = b"\x1b[?1049h" + b"".join(b"abcdefg"[:width] + b"\n" for _ in range(5)) + b"x"
            results = []
            for module in (compiled, fallback):
                decoder = module.TranscriptDecoder(mode="strip", max_live_cells=cells)
                text = []
                for line in data.split(b"\n"):  # (what is held shows in live)
                    text += [decoder.decode(line + b"\n"), decoder.live]
                text.append(decoder.decode(b"", final=True))
                results.append((text, decoder.stats))
            assert results[0] == results[1], (cells, width)
