"""A decode() call larger than a slice (the core decodes base64 about 1 MiB at a time, and takes its output
as pieces once their cells reach half a million, so staging stays bounded; until round 28 it also took a
piece every 1 MiB of input): the text is the same as for any other chunking, in both modes and for base64
chunks, and a bad base64 chunk is refused before any of it is fed."""

from __future__ import annotations

import base64
from pathlib import Path

import pytest

from acp_transcript import Base64Error

SLICE = 1 << 20
CAPTURES = sorted((Path(__file__).parent / "captures").glob("*.bin"))


def big_stream() -> bytes:
    sample = b"".join(path.read_bytes() for path in CAPTURES)
    # a flag sequence and a wide character straddling the first slice boundary, an SGR across the second
    data = (sample * (SLICE // len(sample) + 1))[: SLICE - 3]
    flag = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f".encode()
    data += flag + "é日".encode() + b"x" * (SLICE - len(flag) - 10) + b"\x1b[1;31mred\x1b[0m\n"
    return data + sample[:100_000]


@pytest.mark.parametrize("mode", ["render", "strip"])
def test_a_call_larger_than_a_slice_gives_the_same_text(impl, mode):
    data = big_stream()
    whole = impl.TranscriptDecoder(mode=mode).decode(data, final=True)
    decoder = impl.TranscriptDecoder(mode=mode)
    pieces = [decoder.decode(data[i : i + 4096]) for i in range(0, len(data), 4096)]
    assert whole == "".join(pieces) + decoder.decode(b"", final=True)
    assert "\U0001f3f4\U000e0067" in whole or mode == "render"


def test_a_large_base64_chunk_gives_the_same_text(impl):
    data = big_stream()
    encoded = base64.b64encode(data + b"!")  # padded: the last group ends the chunk
    assert impl.TranscriptDecoder().decode_base64(encoded, final=True) == impl.sanitize(data + b"!")
    assert impl.TranscriptDecoder().decode_base64(encoded.decode(), final=True) == impl.sanitize(data + b"!")


@pytest.mark.parametrize("where", ["end", "slice boundary", "padding inside"])
def test_a_bad_large_base64_chunk_is_refused_before_anything_is_fed(impl, where):
    encoded = bytearray(base64.b64encode(b"line\n" * 400_000))  # 2.6 MB of base64: several slices
    cut = (SLICE // 3 * 4) - 1  # the last character of the first slice
    if where == "end":
        encoded[-1:] = b"*"
        offset = len(encoded) - 1
    elif where == "slice boundary":
        encoded[cut] = ord("-")
        offset = cut
    else:
        encoded[cut - 1 : cut + 1] = b"=="
        offset = cut + 1  # "data after padding": the first character after it
    decoder = impl.TranscriptDecoder()
    decoder.decode(b"before ")
    with pytest.raises(Base64Error) as raised:
        decoder.decode_base64(bytes(encoded))
    assert raised.value.offset == offset
    assert decoder.decode(b"after", final=True) == "before after"
