"""SPEC 2.1: UTF-8 is decoded in the ground state only, with maximal-subpart replacement."""

from __future__ import annotations

import pytest

from helpers import assert_transcript

CASES = [
    pytest.param(b"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "café € 😀", id="valid"),
    pytest.param(b"\xff", "\ufffd", id="invalid-byte"),
    pytest.param(b"\xe2\x82A", "\ufffdA", id="truncated-then-text"),
    pytest.param(b"\xe2\x82\x1b[31mX", "\ufffdX", id="partial_utf8_into_esc"),
    # the SGR interrupts the code point even though the bytes around it would complete it (split after the
    # SGR, the partial one must not be carried into the next chunk either)
    pytest.param(b"\xe2\x82\x1b[31m\xacX", "\ufffd\ufffdX", id="sgr_inside_a_code_point"),
    pytest.param(b"\xe4\xb8\xad\x1b[1m\xe6\x96\x87\x1b[0m\xe4\xb8\x1b[m", "\u4e2d\u6587\ufffd",
                 id="colored_cjk_then_partial"),
    pytest.param(b"\xe2\x82\nX", "\ufffd\nX", id="partial_utf8_into_lf"),
    pytest.param(b"\xe2\x82\x07X", "\ufffdX", id="partial_utf8_into_bel"),
    pytest.param(b"\xe2\x82\x7fX", "\ufffdX", id="partial_utf8_into_del"),
    pytest.param(b"\xf0\x9f\x98", "\ufffd", id="partial-at-final"),
    pytest.param(b"\xed\xa0\x80", "\ufffd\ufffd\ufffd", id="surrogate-encoded"),
    pytest.param(b"\xc0\xaf", "\ufffd\ufffd", id="overlong"),
    pytest.param(b"\xf4\x90\x80\x80", "\ufffd" * 4, id="beyond-unicode"),
    pytest.param(b"\x80\x9f", "\ufffd\ufffd", id="raw-c1-bytes"),
    pytest.param(b"\xc2\x85X\xc2\x9b", "X", id="decoded-c1-dropped"),
    pytest.param(b"\xef\xbf\xbd", "\ufffd", id="genuine-replacement-char"),
]


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_utf8(impl, data, expected):
    assert_transcript(impl, data, expected)
    assert_transcript(impl, data, expected, mode="strip")


@pytest.mark.parametrize(
    "data",
    [b"\xe2\x82A", b"\xc0\xaf\xff\xfe", b"ok\xf0\x9f\x98\x80\xed\xa0\x80", b"\xf1\x80\x80\xe1\x80\xc2"],
)
def test_same_as_bytes_decode(impl, data):
    """Plain text with invalid UTF-8 gives exactly what bytes.decode("utf-8", "replace") gives."""
    assert_transcript(impl, data, data.decode("utf-8", "replace"))


@pytest.mark.parametrize(
    ("data", "invalid", "c1"),
    [(b"\xe2\x82A", 2, 0), (b"\xff\xfe", 2, 0), (b"\xef\xbf\xbd", 0, 0), (b"\xc2\x85\xc2\x9f", 0, 2), (b"\xf0\x9f", 2, 0)],
)
def test_stats_count_replaced_bytes_and_c1(impl, data, invalid, c1):
    for cut in range(len(data) + 1):
        decoder = impl.TranscriptDecoder()
        decoder.decode(data[:cut])
        decoder.decode(data[cut:], final=True)
        assert (decoder.stats["invalid_bytes"], decoder.stats["c1_dropped"]) == (invalid, c1)


def test_high_bytes_inside_sequences_are_not_text(impl):
    assert_transcript(impl, b"A\x1b[\xe2\x82\xac31mB", "AB")
    assert_transcript(impl, b"A\x1b]0;\xe2\x82\xac\x07B", "AB")


@pytest.mark.parametrize("data", [b"\xed\xa0", b"\xe0\x80", b"\xf4\x90\x80", b"\xf0\x80"])
def test_invalid_prefix_is_replaced_at_once(impl, data):
    """Only a real prefix of a code point waits for the next chunk; an invalid one is replaced now."""
    decoder = impl.TranscriptDecoder(mode="strip")
    assert decoder.decode(data) == data.decode("utf-8", "replace")


@pytest.mark.parametrize("mode", ["render", "strip"])
@pytest.mark.parametrize("char", ["x", "\u00e9", "\u4e2d"])
@pytest.mark.parametrize("size", [None, (10, 3)])
def test_a_partial_code_point_before_one_character_between_controls(impl, mode, char, size):
    """A chunk that ends inside a code point carries it; the next chunk's first character, on its own between
    controls, ends it: one U+FFFD before that character (SPEC 2.1). The fallback prints such a character
    without text() since round 48, which must first flush what it carries."""
    options = {} if size is None else {"columns": size[0], "rows": size[1]}
    decoder = impl.TranscriptDecoder(mode=mode, **options)
    out = decoder.decode(b"a\xe4") + decoder.decode(char.encode() + b"\x08\n") + decoder.decode(b"", final=True)
    assert out == "a\ufffd" + char + "\n"
    assert decoder.stats["invalid_bytes"] == 1


def test_valid_prefix_waits(impl):
    decoder = impl.TranscriptDecoder(mode="strip")
    assert decoder.decode(b"a\xed\x9f") == "a"
    assert decoder.decode(b"\xbf") == "\ud7ff"


def test_three_byte_leads_and_the_ascii_after_them_in_any_cut(both):
    # Three-byte sequences take a path of their own when the lead allows any second byte (E1-EC, EE, EF);
    # E0 and ED (overlongs, surrogates) and broken sequences take the general one. The printable ASCII after
    # a multi-byte character or an SGR is scanned as a block. Every cut of each case, against the fallback.
    compiled, fallback = both
    cases = []
    for lead in (0xE0, 0xE1, 0xE4, 0xEC, 0xED, 0xEE, 0xEF, 0xC3, 0xF0):
        for second in (0x80, 0x9F, 0xA0, 0xBF, 0x41, 0xC0):
            for third in (0x80, 0xBF, 0x20, 0x1B):
                cases.append(bytes([lead, second, third]) + b"\x8d\x80" + b"ab c" * 3)
    cases += [b"\xe4\xb8\xad" + b"x" * n + b"\xe6\x96\x87\x1b[1mword\x1b[0m|\n" for n in range(20)]
    cases += [b"\xe2\x96\x88" * 3 + b" " * 25 + b"|  4% 12.3MB/s\r" + b"\xe2\x96\x88" * 4 + b"\r\n"]
    for data in cases:
        for cut in range(len(data) + 1):
            chunks = [data[:cut], data[cut:]]
            for module_options in ({}, {"mode": "strip"}):
                outputs = []
                for module in (compiled, fallback):
                    decoder = module.TranscriptDecoder(**module_options)
                    text = [decoder.decode(chunk) for chunk in chunks] + [decoder.decode(b"", final=True)]
                    outputs.append((text, decoder.stats))
                assert outputs[0] == outputs[1], (data, cut, module_options)


# Runs of three-byte characters are decoded four at a time where 16 bytes remain (acp_decode_three_byte_run:
# a block of 12 bytes tested at once, then decoded without another test), a character at a time after
# that, and the short stretches of printable ASCII between words (at most 8 bytes) are taken with them.
# A defect at every byte of runs long enough for several blocks, ASCII gaps on both sides of 8 bytes, and
# chunk cuts at every byte: against bytes.decode("utf-8", "replace") (plain text has no other rule) and the
# fallback, in both modes.
RUN = "中文日本語한국어テスト\uffe5\ue000\u0800\uffff".encode()  # leads E4 E6 ED(valid) E3 EF EE E0 EF
DEFECTS = [b"A", b"\x80", b"\xc0", b"\xe4", b"\xe4\xb8", b"\xed\xa0\x80", b"\xe0\x80\x80", b"\xf0\x9f\x98\x80"]


def _decoded(module, chunks, **options):
    decoder = module.TranscriptDecoder(**options)
    text = "".join(decoder.decode(chunk) for chunk in chunks) + decoder.decode(b"", final=True)
    return text, decoder.stats


def test_three_byte_runs_with_a_defect_anywhere(both):
    compiled, fallback = both
    for length in (3, 12, 15, 18, len(RUN)):
        run = RUN[:length]
        for position in range(length + 1):
            for defect in DEFECTS:
                data = run[:position] + defect + run[position:] + b" ok"
                expected = data.decode("utf-8", "replace")
                for options in ({}, {"mode": "strip"}):
                    result = _decoded(compiled, [data], **options)
                    assert result[0] == expected, (data, options)
                    assert result == _decoded(fallback, [data], **options), (data, options)


@pytest.mark.parametrize("gap", [b" ", b", ", b"1234567", b"12345678", b"123456789", b"\t", b"\x1b[1m"])
def test_three_byte_words_and_what_lies_between_them_in_any_cut(both, gap):
    compiled, fallback = both
    words = [RUN[:9], RUN[:24], RUN[24:33], RUN[:len(RUN)]]
    data = gap.join(words) + gap + RUN[:6] + b"\xe4\xb8"  # (ends inside a character: it waits, then U+FFFD)
    for cut in range(len(data) + 1):
        chunks = [data[:cut], data[cut:]]
        for options in ({}, {"mode": "strip"}, {"columns": 20, "rows": 3}):
            result = _decoded(compiled, chunks, **options)
            assert result == _decoded(fallback, chunks, **options), (data, cut, options)
    assert _decoded(compiled, [data])[0] == data.replace(b"\x1b[1m", b"").decode("utf-8", "replace")


# A block of four characters decoded at once may have E0 and ED leads (Devanagari, Thai, Hangul from U+D000)
# when their second byte is in range (A0-BF, 80-9F): acp_three_byte_block tests each lead against the byte
# after it. Each lane of a block, each lead's edges (in range and out of it), and runs of every length up to
# nine characters (blocks, then a character at a time) before every kind of stopper.
HANGUL_ED = "한".encode()  # U+D55C: ED 95 9C (the frame counter's quicker block test refuses its lead)
LEAD_EDGES = [b"\xe0\xa0\x80", b"\xe0\xbf\xbf", b"\xe0\x9f\xbf", b"\xe0\x80\x80",
              b"\xed\x80\x80", b"\xed\x9f\xbf", b"\xed\xa0\x80", b"\xed\xbf\xbf"]
STOPPERS = [b" ok", b"\x1b[1mok", b"\n", b"\x80", b"\xe4\xb8", b"\xc3\xa9", b"\xf0\x9f\x98\x80", b"\x07"]


def test_three_byte_blocks_with_e0_and_ed_leads_in_every_lane(both):
    compiled, fallback = both
    for lane in range(6):
        for edge in LEAD_EDGES:
            for before in (HANGUL_ED, "中".encode()):
                data = before * lane + edge + HANGUL_ED * 6 + b" ok" + b"." * 16
                expected = data.decode("utf-8", "replace")
                for options in ({}, {"mode": "strip"}):
                    result = _decoded(compiled, [data], **options)
                    assert result[0] == expected, (data, options)
                    assert result == _decoded(fallback, [data], **options), (data, options)


def test_short_three_byte_runs_before_every_stopper_in_any_cut(both):
    compiled, fallback = both
    for length in range(1, 10):
        for char in (HANGUL_ED, "中".encode(), "\u0800".encode()):
            for stopper in STOPPERS:
                data = b"x" + char * length + stopper + "中".encode() * 6 + b"." * 16
                expected = data.replace(b"\x1b[1m", b"").replace(b"\x07", b"").decode("utf-8", "replace")
                assert _decoded(compiled, [data], mode="strip")[0] == expected, data
                for cut in range(len(data) + 1):
                    chunks = [data[:cut], data[cut:]]
                    assert _decoded(compiled, chunks) == _decoded(fallback, chunks), (data, cut)
