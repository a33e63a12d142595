"""SPEC 2.2: control strings (OSC, DCS, SOS, PM, APC), their terminators and max_string_bytes."""

from __future__ import annotations

import pytest

from helpers import assert_transcript

CASES = [
    pytest.param(b"A\x1b]0;title\x07B", "AB", id="osc-bel"),
    pytest.param(b"A\x1b]0;title\x1b\\B", "AB", id="osc-st"),
    pytest.param(b"A\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\B", "AlinkB", id="osc8-hyperlink-text-kept"),
    pytest.param(b"A\x1b]0;a\nb\rc\x1b\\B", "AB", id="c0-inside-osc-ignored"),
    pytest.param(b"A\x1b]0;t\x1b[31mB", "AB", id="esc-ends-osc-and-starts-csi"),
    pytest.param(b"A\x1b]0;t\x18B", "AB", id="can-aborts-osc"),
    pytest.param(b"A\x1b]0;\xe2\x82\xac\x9c still\x07B", "AB", id="0x9c-is-not-st-in-utf8"),
    pytest.param(b"A\x1bPq#0;2;0;0;0#0!10~\x1b\\B", "AB", id="dcs-sixel"),
    pytest.param(b"A\x1bP1$r0m\x07 still dcs\x1b\\B", "AB", id="bel-does-not-end-dcs"),
    pytest.param(b"A\x1bXsos\x1b\\B\x1b^pm\x1b\\C\x1b_apc\x07x\x1b\\D", "ABCD", id="sos-pm-apc"),
    pytest.param(b"A\x1b_Gf=100;AAAA\x1b\\B", "AB", id="kitty-graphics"),
    pytest.param(b"A\x1b]52;c;aGVsbG8=\x07B", "AB", id="osc52-clipboard"),
    pytest.param(b"A\x1b]0;never ends\nstill inside", "A", id="unterminated-osc-swallows-short-rest"),
]


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_strings(impl, data, expected):
    assert_transcript(impl, data, expected)
    assert_transcript(impl, data, expected, mode="strip")


@pytest.mark.parametrize("introducer", [b"\x1b]", b"\x1bP", b"\x1bX", b"\x1b^", b"\x1b_"])
def test_overlong_string_is_abandoned_at_next_lf(impl, introducer):
    """exceed_max_buffer_size: past max_string_bytes the next LF ends the string and is executed."""
    data = b"A" + introducer + b"x" * 20 + b"\nB\nC"
    assert_transcript(impl, data, "A\nB\nC", max_string_bytes=10)
    assert impl.sanitize(data, max_string_bytes=64) == "A"
    decoder = impl.TranscriptDecoder(max_string_bytes=10)
    decoder.decode(data, final=True)
    assert decoder.stats["strings_abandoned"] == 1


def test_string_limit_counts_lfs_inside(impl):
    # LFs 1-5 are payload (the count before each is 0..4, not more than 4); the 6th finds 5 > 4, ends the
    # string and is executed.
    assert impl.sanitize(b"\x1b]" + b"\n" * 6 + b"X", max_string_bytes=4) == "\nX"
    assert impl.sanitize(b"\x1b]" + b"\n" * 5 + b"X", max_string_bytes=4) == ""


def test_binary_payload_without_lf_is_swallowed_whole(impl):
    data = b"A\x1b_G" + bytes(range(0x20, 0x7f)) * 3000 + b"\x1b\\B"
    assert impl.sanitize(data, max_string_bytes=100) == "AB"
