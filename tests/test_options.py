"""SPEC 2.7: the Python API, options, input types, base64 chunks, reset and stats."""

from __future__ import annotations

import base64

import pytest

import acp_transcript
from acp_transcript import Base64Error
from acp_transcript._options import STAT_KEYS


@pytest.mark.parametrize(
    ("options", "error"),
    [
        ({"mode": "fancy"}, ValueError),
        ({"mode": 1}, TypeError),
        ({"tabs": "spaces"}, ValueError),
        ({"alt_screen": "show"}, ValueError),
        ({"unicode": "loose"}, ValueError),
        ({"live_lines": 0}, ValueError),
        ({"live_lines": 2.5}, TypeError),
        ({"max_line_cells": True}, TypeError),
        ({"max_jump": -1}, ValueError),
        ({"max_string_bytes": "64"}, TypeError),
    ],
)
def test_bad_options(impl, options, error):
    with pytest.raises(error):
        impl.TranscriptDecoder(**options)
    with pytest.raises(error):
        impl.sanitize(b"", **options)


def test_unknown_option(impl):
    with pytest.raises(TypeError):
        impl.TranscriptDecoder(colour=True)


def test_options_are_keyword_only(impl):
    with pytest.raises(TypeError):
        impl.TranscriptDecoder("strip")


@pytest.mark.parametrize("make", [bytes, bytearray, memoryview], ids=["bytes", "bytearray", "memoryview"])
def test_input_types(impl, make):
    assert impl.sanitize(make(b"\x1b[1mok\x1b[0m")) == "ok"
    decoder = impl.TranscriptDecoder()
    assert decoder.decode(make(b"a\n")) + decoder.decode(make(b""), final=True) == "a\n"


@pytest.mark.parametrize("bad", ["text", 12, None, [1, 2]])
def test_bad_input_types(impl, bad):
    with pytest.raises(TypeError):
        impl.TranscriptDecoder().decode(bad)


def test_memoryview_must_be_bytes(impl):
    import array

    with pytest.raises(TypeError):
        impl.sanitize(memoryview(array.array("I", [1, 2])))
    with pytest.raises(TypeError):
        impl.sanitize(memoryview(b"abcd")[::2])


def test_decode_base64_golden_vectors_from_the_rfd(impl):
    decoder = impl.TranscriptDecoder()
    out = decoder.decode_base64("cnVubmluZyAxMjMgdGVzdHMNCg==")
    out += decoder.decode_base64(b"cGFzc2VkDQo=", final=True)
    assert out == "running 123 tests\npassed\n"


def test_decode_base64_chunks_split_a_code_point(impl):
    data = "€ ok\n".encode()
    decoder = impl.TranscriptDecoder()
    out = "".join(decoder.decode_base64(base64.b64encode(data[i : i + 1]).decode()) for i in range(len(data)))
    assert out + decoder.decode(b"", final=True) == "€ ok\n"


@pytest.mark.parametrize(
    ("chunk", "offset"),
    [("cGFzc2VkDQo", 11), ("cGFz*2Vk", 4), ("QQ=A", 3), ("Q===", 1), ("cGFz c2Vk", 4), ("é", 0), ("QQ==QQ==", 4)],
)
def test_decode_base64_is_strict(impl, chunk, offset):
    decoder = impl.TranscriptDecoder()
    decoder.decode(b"kept")
    with pytest.raises(Base64Error) as info:
        decoder.decode_base64(chunk)
    assert info.value.offset == offset
    assert isinstance(info.value, ValueError)
    assert decoder.decode(b"", final=True) == "kept"  # nothing was fed


def test_decode_base64_types(impl):
    decoder = impl.TranscriptDecoder()
    assert decoder.decode_base64(memoryview(b"b2s=")) + decoder.decode_base64(bytearray(b"IQ=="), final=True) == "ok!"
    with pytest.raises(TypeError):
        decoder.decode_base64(12)


def test_reset(impl):
    decoder = impl.TranscriptDecoder()
    decoder.decode(b"abc\x1b[31")
    decoder.reset()
    assert decoder.stats == dict.fromkeys(STAT_KEYS, 0)
    assert decoder.live == ""
    assert decoder.decode(b"mX", final=True) == "mX"


def test_stats_is_a_copy(impl):
    decoder = impl.TranscriptDecoder()
    decoder.stats["sequences_removed"] = 99
    assert decoder.stats["sequences_removed"] == 0
    assert list(decoder.stats) == list(STAT_KEYS)


def test_sanitize_equals_one_shot_decoder(impl):
    data = b"x\x1b[31my\rz\n"
    for options in ({}, {"mode": "strip"}, {"tabs": "expand", "unicode": "off"}):
        assert impl.sanitize(data, **options) == impl.TranscriptDecoder(**options).decode(data, final=True)


def test_options_property(impl):
    assert impl.TranscriptDecoder(mode="strip").options["mode"] == "strip"


def test_implementation_selector():
    import os

    expected = "python" if os.environ.get("ACP_TRANSCRIPT_NO_EXTENSIONS") else "cython"
    assert acp_transcript.IMPLEMENTATION == expected
    module = "_decoder_py" if expected == "python" else "_decoder_c"
    assert acp_transcript.TranscriptDecoder.__module__ == f"acp_transcript.{module}"


def test_uninitialised_decoder_raises_instead_of_crashing(impl):
    decoder = impl.TranscriptDecoder.__new__(impl.TranscriptDecoder)
    with pytest.raises((TypeError, AttributeError)):
        decoder.decode(b"x")


def test_defaults_agree_with_the_shared_option_parser(impl):
    """The twins spell their signature out for users; the defaults must be parse_options' own."""
    import inspect

    from acp_transcript._options import parse_options

    assert impl.TranscriptDecoder().options == parse_options()._asdict()
    if impl.__name__.endswith("_py"):
        signature = inspect.signature(impl.TranscriptDecoder)
        assert {k: p.default for k, p in signature.parameters.items()} == parse_options()._asdict()


def test_defaults_live_in_one_place(impl):
    from acp_transcript._options import DEFAULTS, parse_options

    assert parse_options() == DEFAULTS
    assert impl.TranscriptDecoder().options == DEFAULTS._asdict()


def test_store_rejects_unknown_options_by_name():
    from acp_transcript import TerminalStore

    with pytest.raises(TypeError, match="TerminalStore\\(\\) got an unexpected keyword argument 'foo'"):
        TerminalStore(foo=1)
