"""Calls whose text passes 1 MiB (round 27). The core writes a call's ASCII text to a one-byte head; past
HEAD_MALLOC_MAX bytes that head is the data of the str the call returns (Buf.hstr), grown in place and cut
to length when taken, so huge cursor moves and repeats are written once instead of twice into fresh pages.
Until round 28 ``decode()`` took each 1 MiB slice's text as a piece, so only text longer than its input got
there: moves and repeats (REP, gaps, a sized screen's repeated rows), or a batch item; now any call's head
text does, and Latin-1 on a line of bytes is head text too (tests/test_latin1_lines.py). Every way
text reaches such a head and every way it is left (taken as the str, widened into cells by a character
past ASCII, the Unicode policy, a batch item) must give the text a terminal shows, in both twins;
the str returned must be well formed, and no reference may be left behind."""

from __future__ import annotations

import base64
import ctypes
import os
import sys
import tracemalloc

import pytest

from conftest import implementation
from helpers import decode_chunks

MIB = 1 << 20

_as_utf8 = ctypes.pythonapi.PyUnicode_AsUTF8
_as_utf8.argtypes = [ctypes.py_object]
_as_utf8.restype = ctypes.c_char_p


def assert_well_formed(text: str, expected: str) -> None:
    """``text`` is ``expected`` (``==`` compares the kinds first: a str built wider than its widest character
    is never equal), says it is ASCII only if it is, is NUL-terminated at its length as the C API promises
    (PyUnicode_AsUTF8 read up to the NUL: the core may leave room after the text in the str's block)."""
    assert text == expected
    assert text.isascii() == expected.isascii()
    if text.isascii():
        assert _as_utf8(text) == expected.encode()
    else:  # a compact str's characters end its object: the last ``kind`` bytes are the NUL
        kind = _kind(text)
        assert ctypes.string_at(id(text) + sys.getsizeof(text) - kind, kind) == bytes(kind)


def _kind(text: str) -> int:
    """Bytes a character of ``text``'s str (its widest character's; C-speed, no object a character)."""
    try:
        text.encode("latin-1")
        return 1
    except UnicodeEncodeError:
        return 2 if len(text.encode("utf-16-le")) == 2 * len(text) else 4


def traced_decode(decoder, data: bytes) -> tuple[str, int, int]:
    """``decoder.decode(data, final=True)``, and the memory tracemalloc traced when it returned and at its
    peak (str blocks: the core's own buffers are malloc'd and not traced)."""
    tracemalloc.start()
    try:
        text = decoder.decode(data, final=True)
        held, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return text, held, peak


GAPS = b"x\x1b[1000Cy\n" * 1100  # lines with a gap (a cursor move past the end): 1,103 characters each
GAPS_TEXT = ("x" + " " * 1000 + "y\n") * 1100
REPEATS = b"x\x1b[1023b\n" * 1100  # REP of ASCII: 1,025 characters a line
REPEATS_TEXT = ("x" * 1024 + "\n") * 1100


@pytest.mark.parametrize(
    ("data", "expected", "options"),
    [
        (GAPS, GAPS_TEXT, {}),
        (REPEATS, REPEATS_TEXT, {}),
        # a sized screen's rows (SPEC 2.8), printable, narrowed into the head
        (b"z\x1b[78b\r\n" * 20000, ("z" * 79 + "\n") * 20000, {"columns": 80, "rows": 24}),
        # the head is a str, then a character past ASCII: the text so far becomes cells
        (GAPS + "\u00e9\u4e2d\n".encode(), GAPS_TEXT + "\u00e9\u4e2d\n", {}),
        # the Unicode policy after a head in a str (a bidi override shown as its code point, SPEC 2.5)
        (REPEATS + "\u202e!\n".encode(), REPEATS_TEXT + "<U+202E>!\n", {}),
        # lines with gaps as long as max_line_cells allows (by default): each goes through the spare head
        ((b"x" + b"\x1b[1000Cx" * 65 + b"\n") * 20, ("x" + (" " * 1000 + "x") * 65 + "\n") * 20, {}),
        # a first line longer than the spare head can be (the head has no buffer yet): straight into a str
        ((b"x" + b"\x1b[1000Cx" * 1100 + b"\n") * 2, ("x" + (" " * 1000 + "x") * 1100 + "\n") * 2,
         {"max_line_cells": 2_000_000, "max_live_cells": 4_000_000}),
    ],
    ids=["gaps", "repeats", "sized", "then-wider", "then-policy", "long-lines", "a-longer-first-line"],
)
def test_a_call_of_more_than_a_mebibyte(impl, data: bytes, expected: str, options: dict) -> None:
    assert len(expected) > MIB  # (the case reaches a head in a str)
    decoder = impl.TranscriptDecoder(**options)
    text = decoder.decode(data, final=True)
    assert_well_formed(text, expected)
    assert sys.getrefcount(text) == 2  # the name and getrefcount's argument: the core kept no reference


def test_no_large_str_outlives_its_call(impl) -> None:
    """Between calls a decoder holds no str of a call's size: neither the text it returned, nor a head in a
    str that the text left for cells or for the Unicode policy (SPEC 2.5's policy swaps the two buffers)."""
    decoder = impl.TranscriptDecoder()
    tracemalloc.start()
    try:
        for data in (REPEATS + "\u202e!\n".encode(), GAPS + "\u00e9\n".encode(), REPEATS, GAPS):
            text = decoder.decode(data, final=True)
            assert len(text) > MIB
            del text
            assert tracemalloc.get_traced_memory()[0] < MIB // 4
    finally:
        tracemalloc.stop()


def numbered_gaps(first: int, count: int) -> tuple[bytes, str]:
    """Lines with a gap, each numbered: no two calls' texts agree at any offset (a str's block reused from the
    last call's text cannot pass for this one's)."""
    data = b"".join(b"%07d\x1b[1000Cy\n" % (first + i) for i in range(count))
    return data, "".join("%07d%sy\n" % (first + i, " " * 1000) for i in range(count))


def test_calls_that_grow_and_shrink(impl) -> None:
    """Calls of 1.1 to 5.5 MB of text, then small ones, on one decoder: each str is its own call's text (a head
    in a str is sized from the calls before it, and grows past that size or is cut to the text).
    ``final=True`` leaves the decoder as new but for what the core keeps to size the next str."""
    decoder = impl.TranscriptDecoder(max_line_cells=2_000_000, max_live_cells=4_000_000)
    for first, count in ((0, 1100), (10**6, 3300), (2 * 10**6, 1100), (3 * 10**6, 5500), (4 * 10**6, 2)):
        data, expected = numbered_gaps(first, count)
        text = decoder.decode(data, final=True)
        assert_well_formed(text, expected)
        assert sys.getrefcount(text) == 2
    # after a call of 1.1 MB, lines of 1.1 M cells each: one line is more than an eighth of the str's size
    decoder = impl.TranscriptDecoder(max_line_cells=2_000_000, max_live_cells=4_000_000)
    assert decoder.decode(REPEATS, final=True) == REPEATS_TEXT
    long_line = b"x" + b"\x1b[1000Cx" * 1100 + b"\n"
    assert decoder.decode(long_line * 3, final=True) == ("x" + (" " * 1000 + "x") * 1100 + "\n") * 3


def test_a_str_block_holds_at_most_a_sixteenth_more(impl) -> None:
    """The core may leave room after a call's text in its str's block, at most a 16th of it, so that the next
    call's str is the same size (benchmarks/README.md, round 27); calls a little shorter than the last keep
    the block, and each text still ends with a NUL (PyUnicode_AsUTF8 reads up to it)."""
    decoder = impl.TranscriptDecoder()
    for first, count in ((0, 1100), (10**6, 1100), (2 * 10**6, 1098), (3 * 10**6, 1096), (4 * 10**6, 1100)):
        data, expected = numbered_gaps(first, count)
        text, held, _ = traced_decode(decoder, data)
        assert held <= len(text) * 16 // 15 + 4096  # (text >= 15/16 of the block)
        assert_well_formed(text, expected)
        del text


def test_a_large_output_in_any_chunks(impl) -> None:
    """The same text whether a call's head passes 1 MiB once, many times, or never."""
    one_call = impl.TranscriptDecoder().decode(GAPS + REPEATS, final=True)
    assert one_call == GAPS_TEXT + REPEATS_TEXT
    for size in (4096, 300_000, 1_500_000):
        data = GAPS + REPEATS
        assert decode_chunks(impl.TranscriptDecoder, [data[i : i + size] for i in range(0, len(data), size)]) == (
            one_call
        )


def test_a_batch_item_of_more_than_a_mebibyte(impl) -> None:
    assert impl.sanitize_batch([b"a\n", GAPS, b"b\n"]) == ["a\n", GAPS_TEXT, "b\n"]


@pytest.mark.parametrize("mode", ["render", "strip"])
def test_batch_items_whose_text_comes_in_pieces(impl, mode: str) -> None:
    """An item whose text passes a piece of cells is written into its own str a piece at a time (round 29),
    between items that go through the batch's shared buffers and an item handed over whole: every result is
    what ``sanitize`` gives for the item alone (there is no other decoder state to carry), and the one
    str of its text. The black flag and tag sequence after huge repeats, and text after them, end the item
    in strip mode too (held back at a piece's end, given back at the item's)."""
    wide = "\u4e2d\x1b[1023b\n".encode() * 1200
    emoji = "\U0001f600\x1b[1023b\n".encode() * 1200 + "\U0001f3f4\U000e0067\U000e0062\U000e007f end".encode()
    small = b"a\x1b[31mb\n"
    text_only = "\u4e2d".encode() * 700_000 + "\U0001f3f4\U000e0067\U000e007f".encode()  # (pieces in strip mode too)
    items = [small, wide, small, "\u00e9\x1b[1023b\n".encode() * 1100, emoji, b"", wide + REPEATS, text_only, small]
    results = impl.sanitize_batch(items, mode=mode)
    assert len(results) == len(items)
    for index, item in enumerate(items):  # (not zip: it keeps its last tuple, a reference to the str)
        text = results[index]
        expected = impl.sanitize(item, mode=mode)
        assert_well_formed(text, expected)
        if len(text) > MIB:
            assert sys.getrefcount(text) == 3  # the list, the name, getrefcount's argument
    assert len(results[7]) > 700_000
    if mode == "render":
        assert results[1] == ("\u4e2d" * 1024 + "\n") * 1200


def test_batch_items_whose_text_is_a_str_already(impl) -> None:
    """An item whose text is all head text past 1 MiB is handed over as the str the core wrote it into (round
    28), between items that go through the batch's shared buffers, over several slices of the batch (one ends
    after 256 KiB of input); each result is its own str, held by the list alone, and nothing outlives the
    batch."""
    latin1 = ("\u00e9\x1b[1023b\n".encode() * 1100, ("\u00e9" * 1024 + "\n") * 1100)
    ascii_ = (REPEATS, REPEATS_TEXT)
    wide = ("\u4e2d\x1b[1023b\n".encode() * 1100, ("\u4e2d" * 1024 + "\n") * 1100)
    small = (b"a\x1b[31mb\n", "ab\n")
    cases = [small, latin1, ascii_, small, wide, latin1, (b"", ""), ascii_, (b"\xe2\x80\xaez", "<U+202E>z"), small]
    tracemalloc.start()
    try:
        results = impl.sanitize_batch([data for data, _ in cases])
        for index, (_, expected) in enumerate(cases):
            text = results[index]
            assert_well_formed(text, expected)
            if len(text) > MIB:  # (a short str may be shared)
                assert sys.getrefcount(text) == 3  # the list, the name, getrefcount's argument
        del results, text
        left = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert left < MIB


# Text past the cells a decoder keeps between calls (1 Mi), not ASCII: cells, so feed_bounded stops a slice
# once the output holds half of them, and the call's text is taken a piece at a time (round 27: strs joined at
# the end; round 29: written into one str as they come, text_append). Since round 28
# Latin-1 on a line of bytes is head text, as ASCII is (tests/test_latin1_lines.py); wide characters and a
# sized screen's rows are still cells.
E_ACUTE_LINES = "\u00e9\x1b[1023b\n".encode() * 1200
E_ACUTE_TEXT = ("\u00e9" * 1024 + "\n") * 1200
WIDE_LINES = "\u4e2d\x1b[1023b\n".encode() * 1200
WIDE_TEXT = ("\u4e2d" * 1024 + "\n") * 1200


@pytest.mark.parametrize(
    ("data", "expected", "options"),
    [
        (E_ACUTE_LINES, E_ACUTE_TEXT, {}),
        (WIDE_LINES, WIDE_TEXT, {}),
        (b"x\x1b[1000Cy\n" * 500 + E_ACUTE_LINES, GAPS_TEXT[: 1003 * 500] + E_ACUTE_TEXT, {}),
        ("\u00e9\x1b[78b\r\n".encode() * 20000, ("\u00e9" * 79 + "\n") * 20000, {"columns": 80, "rows": 24}),
    ],
    ids=["latin-1", "wide", "ascii-then-latin-1", "sized"],
)
def test_cells_past_a_piece(impl, data: bytes, expected: str, options: dict) -> None:
    """One call, one base64 call and the same input in chunks give the same text, whichever way it is cut."""
    text = impl.TranscriptDecoder(**options).decode(data, final=True)
    assert text == expected
    assert sys.getrefcount(text) == 2
    encoded = base64.b64encode(data).decode()
    assert impl.TranscriptDecoder(**options).decode_base64(encoded, final=True) == expected
    assert decode_chunks(impl.TranscriptDecoder, [data[i : i + 70_000] for i in range(0, len(data), 70_000)],
                         **options) == expected


# Rows of a sized screen (SPEC 2.8) are cells, whatever their characters: a call of more than a piece of
# each kind of str (one-byte ASCII, one-byte Latin-1, two-byte, four-byte) takes pieces of that kind.
SIZED = {"columns": 80, "rows": 24}
KIND_ROWS = {
    "ascii": (b"z\x1b[78b\r\n", "z" * 79 + "\n"),
    "latin-1": ("\u00e9\x1b[78b\r\n".encode(), "\u00e9" * 79 + "\n"),
    "two-byte": ("\u4e2d\x1b[38b\r\n".encode(), "\u4e2d" * 39 + "\n"),  # (wide: 39 of them fill 78 columns)
    "four-byte": ("\U0001f600\x1b[38b\r\n".encode(), "\U0001f600" * 39 + "\n"),
}


@pytest.mark.parametrize(
    "kinds",
    [("ascii", "latin-1", "two-byte", "four-byte"), ("four-byte", "ascii"), ("latin-1", "ascii", "two-byte"),
     ("two-byte", "latin-1", "four-byte", "two-byte")],
    ids="-then-".join,
)
def test_pieces_of_every_kind_in_one_call(impl, kinds: tuple[str, ...]) -> None:
    """A call's text is written into one str a piece at a time (round 29): a piece of a wider kind moves the
    text so far into a str of that kind, a narrower one is widened as it is written. Each part is more than a
    piece (about 640 K characters), and the result is the text of small chunks."""
    data = b"".join(KIND_ROWS[kind][0] * 8000 for kind in kinds)
    expected = "".join(KIND_ROWS[kind][1] * 8000 for kind in kinds)
    text = impl.TranscriptDecoder(**SIZED).decode(data, final=True)
    assert_well_formed(text, expected)
    assert sys.getrefcount(text) == 2
    assert decode_chunks(impl.TranscriptDecoder, [data[i : i + 65536] for i in range(0, len(data), 65536)],
                         **SIZED) == expected


def test_texts_in_pieces_that_grow_and_shrink(impl) -> None:
    """Calls whose text comes in pieces, on one decoder, longer and shorter than the ones before: the str is
    first made the size of the longest recent text, grows past it by an eighth, keeps up to a 16th of its
    block unused or is cut to the text, and is always this call's text (each row numbered: a block reused
    from an earlier call's str cannot pass for this one's). 20,000 rows are 780 K characters, a piece and a half."""
    decoder = impl.TranscriptDecoder(**SIZED)
    first = 0
    for rows in (20000, 40000, 30000, 39500, 60000, 100, 30000):
        data = "".join(f"\u4e2d{first + i:07d}\x1b[30b\r\n" for i in range(rows)).encode()
        expected = "".join(f"\u4e2d{first + i:07d}" + str((first + i) % 10) * 30 + "\n" for i in range(rows))
        if impl.__name__.endswith("_c"):  # (the block is the core's; tracemalloc makes the fallback 10 s)
            text, held, _ = traced_decode(decoder, data)
            assert held <= 2 * len(text) * 16 // 15 + 4096  # (two bytes a character; text >= 15/16 of the block)
        else:
            text = decoder.decode(data, final=True)
        assert_well_formed(text, expected)
        assert sys.getrefcount(text) == 2
        del text
        first += rows


def _status_bytes(key: str) -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith(key))


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="peak resident size is reset through /proc")
@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer keeps freed memory resident in its quarantine (fuzz/run.sh)")
def test_a_call_stages_its_cells_in_pieces(request) -> None:
    """A memory bound the output cannot show: a call whose text is 15 M wide characters (two bytes each in
    its str) stages it as cells a piece at a time, each piece written into the str the call returns (round 29:
    the text once at peak), where until round 28 the pieces were strs of their own, joined at the end (twice the
    text), and before round 27 it staged four bytes of cells for every character (three times the text)."""
    core = implementation(request, "c")
    decoder = core.TranscriptDecoder()
    data = "\u4e2d\x1b[1023b\n".encode() * 15000
    decoder.decode(data[:100_000], final=True)
    with open("/proc/self/clear_refs", "w") as clear:  # "5": the peak resident size starts again from now
        clear.write("5")
    before = _status_bytes("VmRSS:")
    text = decoder.decode(data, final=True)
    assert len(text) == 1025 * 15000
    assert _status_bytes("VmHWM:") - before < 1.5 * 2 * len(text)


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="peak resident size is reset through /proc")
@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer keeps freed memory resident in its quarantine (fuzz/run.sh)")
def test_a_call_stops_for_a_piece_before_an_escape_sequence(request) -> None:
    """A memory bound the output cannot show: a 64 KiB call of huge REPs of a wide character (5.7 M characters)
    after a call of plain text stages its cells a piece at a time. The parser stops before the escape sequence
    that finds the output at PIECE_CELLS (round 29); until then the output was checked only after each step of
    the input, and a step was 64 KiB after text that made a cell a byte: 22 MB of cells, twice the text."""
    core = implementation(request, "c")
    plain = (b"plain text line of a log, nothing special here\n" * 1400)[:65536]
    wide = ("\u4e2d\x1b[1024b".encode() * 6554)[:65536]
    decoder = core.TranscriptDecoder()
    texts = [decoder.decode(data) for data in (wide, plain, wide, plain)]  # (memory a steady stream reuses)
    with open("/proc/self/clear_refs", "w") as clear:
        clear.write("5")
    before = _status_bytes("VmRSS:")
    text = decoder.decode(wide)
    assert len(text) > 5_000_000
    assert _status_bytes("VmHWM:") - before < 1.5 * 2 * len(text)
    stream = wide + plain + wide + plain + wide
    assert "".join(texts) + text + decoder.decode(b"", final=True) == decode_chunks(
        core.TranscriptDecoder, [stream[i : i + 4096] for i in range(0, len(stream), 4096)]
    )


@pytest.mark.parametrize("char", ["x", "\u00e9"], ids=["ascii", "latin-1"])
def test_head_text_of_many_slices_is_one_str(impl, char: str) -> None:
    """A call of several 1 MiB slices whose text is all one-byte head text is not cut at each slice: past 1 MiB
    the head is the str the call returns, grown in place, where pieces of it were joined into one more copy
    (round 28). Traced memory peaks near the text's size, not twice it."""
    line = (char * 79 + "\n").encode()
    data = line * (6 * MIB // len(line))
    expected = data.decode()
    text, _, peak = traced_decode(impl.TranscriptDecoder(), data)
    assert_well_formed(text, expected)
    if impl.__name__.endswith("_c"):  # (the fallback joins its lines: a copy of its own)
        assert peak < 1.5 * len(text)


def test_head_text_then_cells_then_head_text_in_one_call(impl) -> None:
    """Head text past 1 MiB over several slices, then a wide character (cells: the next slice's end takes a
    piece, head and cells together), then head text again: the same text as in small chunks."""
    ascii_part = b"plain line of text\n" * 150_000
    data = ascii_part + "\u4e2d wide\n".encode() + ascii_part + "caf\u00e9\n".encode() * 100_000
    expected = data.decode()
    text = impl.TranscriptDecoder().decode(data, final=True)
    assert_well_formed(text, expected)
    assert decode_chunks(impl.TranscriptDecoder, [data[i : i + 65536] for i in range(0, len(data), 65536)]) == expected


@pytest.mark.skipif(not os.path.exists("/proc/self/clear_refs"), reason="peak resident size is reset through /proc")
@pytest.mark.skipif("asan" in os.environ.get("LD_PRELOAD", ""),
                    reason="AddressSanitizer keeps freed memory resident in its quarantine (fuzz/run.sh)")
@pytest.mark.parametrize("char", ["\u00e9", "\u4e2d"], ids=["latin-1", "wide"])
def test_a_batch_item_whose_text_is_a_str_is_not_copied(request, char: str) -> None:
    """A memory bound the output cannot show: a 256 KiB batch item of huge repeats of `é` (30 M characters)
    peaks near its text, handed over as the str it was written into (round 28), where it went through the
    batch's cells, four bytes a character, and then into a str of its own (five times the text). Of `中`
    (27 M characters, two bytes each), its cells are written into its str a piece at a time (round 29),
    where they were staged whole, copied into the batch's cells and then into a str (five times the text)."""
    core = implementation(request, "c")
    line = (char + "\x1b[1023b\n").encode()
    item = line * (256 * 1024 // len(line))
    core.sanitize_batch([item[:100_000]])
    with open("/proc/self/clear_refs", "w") as clear:  # "5": the peak resident size starts again from now
        clear.write("5")
    before = _status_bytes("VmRSS:")
    (text,) = core.sanitize_batch([item])
    assert len(text) == 1025 * (256 * 1024 // len(line))
    size = len(text) * (1 if char <= "\xff" else 2)
    assert _status_bytes("VmHWM:") - before < 2 * size
