"""The parser alone, with a recording sink (as vte's ``Dispatcher`` tests and pyte's ``test_stream.py``): what
calls a byte stream makes, in both twins, independent of any line model.

The twins' parsers differ in one way by design (the fallback's text runs carry LF, where the core executes
it); ``_parser_py.comparable_events`` folds both into one form, and the tables are written in it.
"""

from __future__ import annotations

import pytest
from conftest import implementation
from hypothesis import given
from strategies import chunked

from acp_transcript import _parser_py


@pytest.fixture(params=["c", "py"])
def parser_events(request):
    if request.param == "py":
        return _parser_py.parser_events
    return implementation(request, "c").parser_events


normalized = _parser_py.comparable_events


CASES = [
    # (chunks, events, counts expected in stats)
    ([b"plain text\n"], [("print", "plain text\n")], {}),
    ([b"a\x1b[1;2Hb"], [("print", "a"), ("csi", (1, 2), ord("H")), ("print", "b")], {"sequences_removed": 1}),
    ([b"\x1b[31mred\x1b[0m"], [("print", "red")], {"sequences_removed": 2}),  # SGR: never dispatched
    # REP (SPEC 2.3 rev 2): only right after a printed character or a REP, with the character
    ([b"x\x1b[3b"], [("print", "x"), ("repeat", "x", 3)], {}),
    ([b"x\x1b[2b\x1b[b"], [("print", "x"), ("repeat", "x", 2), ("repeat", "x", 1)], {}),
    ([b"x\x1b[m\x1b[3b"], [("print", "x")], {}),
    ([b"x\n\x1b[3b"], [("print", "x\n")], {}),
    ([b"x\x1b7\x1b[3b"], [("print", "x"), ("esc", ord("7"))], {}),
    ([b"x\x7f\x1b[2b"], [("print", "x"), ("repeat", "x", 2)], {"controls_removed": 1}),  # DEL is ignored
    # DEC private modes: each mode reaches the sink, which keeps the ones it has (SPEC 2.3, 2.8)
    ([b"\x1b[?1049h\x1b[?25l\x1b[?1;47l"],
     [("private_mode", 1049, True), ("private_mode", 25, False), ("private_mode", 1, False),
      ("private_mode", 47, False)], {}),
    # control strings are skipped whole, across chunks, to BEL or ST
    ([b"\x1b]0;ti", b"tle\x07after"], [("print", "after")], {}),
    ([b"\x1bP1$r\x1b\\x"], [("esc", ord("\\")), ("print", "x")], {"sequences_removed": 2}),  # ST is ESC \\
    # Williams: C0 inside a CSI is executed and the sequence goes on; CAN aborts; ESC restarts
    ([b"\x1b[1\n2H"], [("print", "\n"), ("csi", (12,), ord("H"))], {}),
    ([b"\x1b[1\x18H"], [("print", "H")], {"controls_removed": 1}),
    ([b"\x1b[1\x1b[2J"], [("csi", (2,), ord("J"))], {"sequences_removed": 2}),
    # parameters: at most 32, each saturated at 65535; sub-parameters count; intermediates: no dispatch
    ([b"\x1b[" + b"1;" * 40 + b"H"], [("csi", (1,) * 32, ord("H"))], {}),
    ([b"\x1b[99999999C\x1b[4:3m"], [("csi", (65535,), ord("C"))], {}),
    # (a value just past the bound saturates too, and empty fields are 0, in one pass and byte by byte: the
    # one-pass parse keeps its fields in locals since round 61)
    *(
        (chunks, [("csi", (65535, 65535, 65535, 0), ord("H")), ("csi", (0, 5, 0), ord("H")),
                  ("csi", (), ord("H")), ("csi", (0,) * 31 + (7,), ord("H"))], {})
        for stream in [b"\x1b[65536;99999;0065535;00H\x1b[;5;H\x1b[H\x1b[" + b";" * 31 + b"7;" * 3 + b"H"]
        for chunks in ([stream], [bytes([b]) for b in stream])
    ),
    ([b"\x1b[1 q\x1b(B"], [], {"sequences_removed": 2}),
    # DECSTBM's bottom margin given as 0 is its minimum, 1; an empty one stays 0, the default (tmux's
    # input_get), in one pass and byte by byte
    ([b"\x1b[5;0r\x1b[5;r\x1b[0;00;0r\x1b[;0r"],
     [("csi", (5, 1), ord("r")), ("csi", (5, 0), ord("r")), ("csi", (0, 1, 0), ord("r")), ("csi", (0, 1), ord("r"))],
     {}),
    ([bytes([b]) for b in b"\x1b[5;0r\x1b[5;r\x1b[5:0r"],
     [("csi", (5, 1), ord("r")), ("csi", (5, 0), ord("r")), ("csi", (5, 1), ord("r"))], {}),
    ([b"\x1b7\x1b8\x1bc"], [("esc", ord("7")), ("esc", ord("8")), ("esc", ord("c"))], {}),
    # UTF-8 (SPEC 2.1): carried across chunks; invalid bytes are U+FFFD per maximal subpart; C1 dropped
    ([b"\xe2\x82", b"\xac"], [("print", "\u20ac")], {}),
    ([b"a\xe2\x82\x1b[Cb"], [("print", "a\ufffd"), ("csi", (), ord("C")), ("print", "b")], {"invalid_bytes": 2}),
    ([b"\xc2\x85x"], [("print", "x")], {"c1_dropped": 1}),
    # bounds: an unterminated string is abandoned at an LF after max_string_bytes; an open one is counted
    ([b"\x1b]0;" + b"x" * 10 + b"\nafter"], [("print", "\nafter")], {"strings_abandoned": 1}),
    ([b"\x1b[12"], [], {"unterminated_at_final": 1}),
]


@pytest.mark.parametrize("chunks, expected, counted", CASES)
def test_calls_on_the_sink(parser_events, chunks, expected, counted):
    events, stats = parser_events(chunks, max_string_bytes=4)
    assert normalized(events) == expected
    assert {key: stats[key] for key in counted} == counted


@given(chunked())
def test_the_twins_parse_alike(sample):
    """The core's parser and the fallback's make the same calls and counts for any bytes in any chunks."""
    _, chunks = sample
    c_events, c_stats = implementation_c().parser_events(chunks)
    py_events, py_stats = _parser_py.parser_events(chunks)
    assert normalized(c_events) == normalized(py_events)
    assert c_stats == py_stats


@given(chunked())
def test_any_chunking_makes_the_same_calls(sample):
    data, chunks = sample
    assert normalized(_parser_py.parser_events(chunks)[0]) == normalized(_parser_py.parser_events([data])[0])
    core = implementation_c()
    assert normalized(core.parser_events(chunks)[0]) == normalized(core.parser_events([data])[0])


def implementation_c():
    from conftest import FALLBACK_FORCED, _decoder_c

    if FALLBACK_FORCED:
        pytest.skip("the compiled core is switched off on purpose")
    if _decoder_c is None:
        pytest.fail("the compiled core acp_transcript._decoder_c is missing")
    return _decoder_c
