"""SPEC 2.2: the structure of control functions (Williams' DEC/VT500 parser in UTF-8 mode)."""

from __future__ import annotations

import pytest

from helpers import assert_transcript

CASES = [
    pytest.param(b"A\x1b[31mB\x1b[0m", "AB", id="sgr"),
    pytest.param(b"A\x1b[1\n;31mB", "A\nB", id="c0-inside-csi-is-executed"),
    pytest.param(b"A\x1b[3\x18B", "AB", id="can-aborts-csi"),
    pytest.param(b"A\x1b[3\x1aB", "AB", id="sub-aborts-csi"),
    pytest.param(b"A\x1b\x18B", "AB", id="can-aborts-escape"),
    pytest.param(b"A\x1b[31\x1b[32mB", "AB", id="esc-restarts-csi"),
    pytest.param(b"A\x1b\x1bB", "A", id="esc-restarts-escape"),
    pytest.param(b"A\x1b(BB", "AB", id="charset-designation"),
    pytest.param(b"A\x1b#8B", "AB", id="decaln-has-no-effect"),
    pytest.param(b"A\x1b=\x1b>B", "AB", id="keypad-modes"),
    pytest.param(b"A\x1b[?25lB\x1b[?25h", "AB", id="private-mode"),
    pytest.param(b"A\x1b[>4;2mB", "AB", id="private-sgr"),
    pytest.param(b"A\x1b[1 qB", "AB", id="intermediate-decscusr"),
    pytest.param(b"A\x1b[1!!!qB", "AB", id="too-many-intermediates"),
    pytest.param(b"A\x1b[1?2mB", "AB", id="private-marker-after-params-ignored"),
    pytest.param(b"A\x1b[1 2mB", "AB", id="param-after-intermediate-ignored"),
    pytest.param(b"A\x1b[\x7f31mB", "AB", id="del-inside-csi-ignored"),
    pytest.param(b"A\x1b[38:2:255:0:0mB", "AB", id="colon-subparameters"),
    pytest.param(b"A\x1b[6n\x1b[cB\x1bP$qm\x1b\\", "AB", id="queries-are-never-answered"),
    pytest.param(b"A\x07\x00\x05\x0e\x0f\x1c\x1d\x1e\x1fB", "AB", id="c0-controls-dropped"),
    pytest.param(b"A\x7fB", "AB", id="del-dropped"),
    pytest.param(b"A\x1b", "A", id="unterminated-escape-at-final"),
    pytest.param(b"A\x1b[12;", "A", id="unterminated-csi-at-final"),
]


@pytest.mark.parametrize(("data", "expected"), CASES)
def test_parser(impl, data, expected):
    assert_transcript(impl, data, expected)
    assert_transcript(impl, data, expected, mode="strip")


def test_long_csi_param_saturates(impl):
    """parse_long_csi_param: 5000 digits are one saturated value, not a 5000-digit number."""
    assert_transcript(impl, b"ab\x1b[" + b"9" * 5000 + b"Dc", "cb")
    assert impl.sanitize(b"x\x1b[" + b"9" * 5000 + b"Cy") == "x" + " " * 1024 + "y"


def test_more_than_32_params_are_ignored(impl):
    # The 33rd parameter would move the cursor; it is dropped. The first 32 (DECSET modes) still apply.
    params = b";".join([b"1"] * 32 + [b"1049"])
    assert impl.sanitize(b"A\x1b[?" + params + b"hB") == "AB"
    params = b";".join([b"1"] * 31 + [b"1049"])
    assert impl.sanitize(b"A\x1b[?" + params + b"hB") == "A\nB"  # on the alternate screen at the end


def test_leading_zeros(impl):
    assert impl.sanitize(b"abcdef\x1b[0000000000003Dx") == "abcxef"


@pytest.mark.parametrize(("data", "sequences", "controls"), [
    (b"\x1b[31mA\x1b[0m", 2, 0),
    (b"\x1b]0;t\x1b\\", 2, 0),
    (b"A\x07\x7f", 0, 2),
    (b"\x1b[1\x18", 1, 1),
])
def test_stats_sequences_and_controls(impl, data, sequences, controls):
    decoder = impl.TranscriptDecoder()
    decoder.decode(data, final=True)
    assert decoder.stats["sequences_removed"] == sequences
    assert decoder.stats["controls_removed"] == controls


def test_unterminated_at_final_is_counted(impl):
    decoder = impl.TranscriptDecoder()
    decoder.decode(b"A\x1b]0;never ends", final=True)
    assert decoder.stats["unterminated_at_final"] == 1
    decoder.decode(b"B", final=True)
    assert decoder.stats["unterminated_at_final"] == 1


# Parameter runs of every length, around 16 bytes (a vector block, should a scan of them be vectorised: round
# 17 tried one, benchmarks/README.md), with text after them long enough for one and, under every split, cut
# short of it.
PARAM_LENGTHS = [0, 1, 2, 3, 14, 15, 16, 17, 18, 31, 32, 33]


@pytest.mark.parametrize("length", PARAM_LENGTHS)
def test_sgr_parameters_of_any_length(impl, length):
    params = (b"38;2;1;22;133" * 3)[:length]
    assert_transcript(impl, b"A\x1b[" + params + b"mB" + b"c" * 16, "AB" + "c" * 16)


@pytest.mark.parametrize("length", PARAM_LENGTHS)
def test_csi_parameters_of_any_length(impl, length):
    # leading zeros, then CUB 1: the parameter is read whole however long its run
    params = b"0" * max(length - 1, 0) + b"1"
    assert_transcript(impl, b"ab\x1b[" + params + b"Dc" + b" " * 16 + b"d", "ac" + " " * 16 + "d")


@pytest.mark.parametrize("where", [0, 1, 7, 15, 16, 17])
@pytest.mark.parametrize(("byte", "after_sgr", "after_cub"), [
    (b"\x7f", "AB", "B"),  # DEL inside a CSI is ignored; the sequence goes on
    (b"\xc3", "AB", "B"),  # so is a high byte
    (b"\n", "A\nB", "A\nB"),  # a C0 inside a CSI is executed (CUB then acts on the new line)
    (b" ", "AB", "AB"),  # an intermediate, then parameter bytes: malformed, ignored up to its final
    (b"<", "AB", "AB"),  # a private marker after parameters: malformed too
    (b"?", "AB", "AB"),
])
def test_a_byte_that_ends_the_parameter_run(impl, where, byte, after_sgr, after_cub):
    for final, expected in ((b"m", after_sgr), (b"D", after_cub)):
        data = b"A\x1b[" + b"1" * where + byte + b"2" * 20 + final + b"B" + b"x" * 16
        assert_transcript(impl, data, expected + "x" * 16)


def test_the_fallbacks_parameter_cache_is_bounded_and_never_shared():
    """The fallback parses a short parameter string once (a process-wide cache of at most 1,024 strings of
    at most 16 bytes); callers share its tuples, which nothing can change, and long strings are never kept."""
    from acp_transcript import _parser_py

    _parser_py._short_params.cache_clear()
    first = _parser_py.parse_params(b"12;34")
    assert first == (12, 34) and isinstance(first, tuple)
    assert _parser_py.parse_params(b"12;34") is first
    assert _parser_py._short_params.cache_info().hits == 1
    long = b";".join(b"%d" % n for n in range(40))
    assert list(_parser_py.parse_params(long)) == list(range(32))
    assert _parser_py._short_params.cache_info().currsize == 1
    for n in range(3000):
        _parser_py.parse_params(b"%d;%d" % (n, n))
    assert _parser_py._short_params.cache_info().currsize == 1024
