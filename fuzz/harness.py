"""The fuzz target shared by the atheris fuzzer (fuzz_decoder.py) and the short run in the test suite.

``check(data)`` reads options, chunk boundaries and a payload from ``data``, runs both implementations
side by side and asserts that they agree exactly (every output, ``live`` after every chunk, ``stats``, and
the calls each parser makes on its sink), that
the output is safe (SPEC 2.5), and that ``decode_base64`` accepts and rejects the same chunks with the same
error offset. Any difference or crash is a finding.
"""

from __future__ import annotations

import re
from pathlib import Path

from acp_transcript import _decoder_py, _parser_py
from acp_transcript.errors import Base64Error

from acp_transcript import _decoder_c  # the fuzzer is pointless without the core: ImportError

UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029]")
MODES = ("render", "strip")
WIDE_COLUMNS = (250, 256, 300, 8191, 8192, 8193, 9000, 65535)
TALL_ROWS = (2050, 2066, 2113, 4200)
UNICODE = ("standard", "strict", "off")


def split_input(data: bytes) -> tuple[dict[str, object], list[bytes]]:
    """Options from the first three bytes (flags: mode, tabs, alternate screen, Unicode policy, 0x40 a
    sized screen, 0x80 small limits), then the payload cut into chunks."""
    head = data[:3].ljust(3, b"\0")
    flags, limits, cuts = head
    payload = data[3:]
    options: dict[str, object] = {
        "mode": MODES[flags & 1],
        "tabs": "expand" if flags & 2 else "keep",
        "alt_screen": "keep" if flags & 4 else "drop",
        "unicode": UNICODE[(flags >> 3) % 3],
    }
    if flags & 0x80:  # small limits, so that every bound is reached
        options.update(live_lines=1 + limits % 4, max_line_cells=1 + limits % 29, max_live_cells=1 + limits % 61,
                       max_jump=limits % 13, max_string_bytes=limits % 9)
    if flags & 0x40:  # sized rendering (SPEC 2.8): small screens, so that wrapping and scrolling happen;
        # a quarter of them 64-200 rows tall, so that line moves rotate more rows than the core keeps on the
        # stack and from either end of the screen (_screen_c.pxi, screen_rotate); an eighth of those wide
        # instead, around the widths where the fallback's rows change how they are edited (a range compared
        # whole from 256 cells, a row spliced with one copy from 8192: _screen_py, round 32), and an eighth
        # taller than 2,048 rows, where the fallback moves the rows above a line move near the top over
        # spare entries (_screen_py, Screen; round 33)
        options.update(columns=1 + (limits * 7) % 40, rows=1 + limits % 9 if limits < 0xC0 else 64 + limits % 137)
        if 0xF0 <= limits < 0xF8:
            options.update(rows=TALL_ROWS[limits % 4])
        elif limits >= 0xF8:
            options.update(columns=WIDE_COLUMNS[limits % 8], rows=3)
    size = 1 + cuts % 97 if cuts else len(payload) or 1
    return options, [payload[i : i + size] for i in range(0, len(payload), size)]


def assert_safe(text: str) -> None:
    assert UNSAFE.search(text) is None, "unsafe character in the output"


def chunk_cells(data: bytes) -> int:
    """The core's chunk size for long lines and sized rows (_chunks_c.pxi): with small limits (flag 0x80)
    1-7 cells, so that short units reach the chunked line and row code; else the default."""
    flags, limits = data[:2].ljust(2, b"\0")
    return 1 + limits % 7 if flags & 0x80 else 512


def check(data: bytes) -> None:
    options, chunks = split_input(data)
    previous = _decoder_c._set_line_chunk_cells(chunk_cells(data))
    try:
        compiled = _decoder_c.TranscriptDecoder(**options)
    finally:
        _decoder_c._set_line_chunk_cells(previous)
    python = _decoder_py.TranscriptDecoder(**options)
    for index, chunk in enumerate(chunks):
        out = compiled.decode(chunk)
        assert out == python.decode(chunk), "decode() differs"
        assert_safe(out)
        # live costs what the window holds; after every one of thousands of 2-byte chunks it would make
        # the check quadratic, so it is compared after the first chunks and then every 64th.
        if index < 16 or index % 64 == 0:
            assert compiled.live == python.live, "live differs"
    assert compiled.live == python.live, "live differs"
    out = compiled.decode(b"", final=True)
    assert out == python.decode(b"", final=True), "final decode() differs"
    assert_safe(out)
    assert compiled.stats == python.stats, "stats differ"
    # the parsers alone: the same calls on their sinks (the first 8 KB, so that a unit stays fast)
    size = max(len(chunks[0]), 1) if chunks else 1
    first = b"".join(chunks)[:8192]
    head = [first[i : i + size] for i in range(0, len(first), size)]
    c_events, c_stats = _decoder_c.parser_events(head, options.get("max_string_bytes", 65536))
    py_events, py_stats = _parser_py.parser_events(head, options.get("max_string_bytes", 65536))  # type: ignore[arg-type]
    assert _parser_py.comparable_events(c_events) == _parser_py.comparable_events(py_events), "parser events differ"
    assert c_stats == py_stats, "parser stats differ"
    # Any chunking gives the same result: the core on the first 2 KB in one call and a byte a call, where
    # the fast paths that look ahead within a call's data (frames skipped after a CR: fold_frames) never
    # apply; the twins agreeing cannot show a rule both apply wrongly (round 44)
    first = b"".join(chunks)[:2048]
    results = []
    for step in (max(len(first), 1), 1):
        decoder = _decoder_c.TranscriptDecoder(**options)
        out = "".join(decoder.decode(first[i : i + step]) for i in range(0, len(first), step))
        results.append((out + decoder.decode(b"", final=True), decoder.stats))
    assert results[0] == results[1], "one call and a byte a call differ"
    chunk = data[3:200]
    results = []
    for decoder in (_decoder_c.TranscriptDecoder(), _decoder_py.TranscriptDecoder()):
        try:
            results.append(("ok", decoder.decode_base64(chunk, final=True)))
        except Base64Error as exc:
            results.append(("error", exc.offset))
    assert results[0] == results[1], "decode_base64 differs"


def seeds() -> list[bytes]:
    """The seed corpus: the PTY captures and the test tables' inputs, behind a few option headers."""
    root = Path(__file__).resolve().parents[1]
    bodies = [path.read_bytes()[:4096] for path in sorted((root / "tests" / "captures").glob("*.bin"))]
    sized = [path.read_bytes()[:4096] for path in sorted((root / "tests" / "captures" / "sized").glob("*.bin"))]
    bodies += [
        b"A\x1b[1\n;31mB", b"\xe2\x82\x1b[31mX", b"\x1b]0;t\x07x", b"\x1bP1$r\x1b\\", b"a\tb\x1b[3D\x1b[2@c",
        b"one\ntwo\x1b[A\x1b[2D\x1b[J", b"\x1b[?1049hx\x1b[?1049ly", b"ab\x1b[65535b", "\u202e\U0001f3f4\U000e0067".encode(),
        b"cGFzc2VkDQo=", b"x\x1b[" + b"9" * 40 + b"C", b"\x1b_G" + b"A" * 50 + b"\n\n",
    ]
    small = [header + body for body in bodies for header in (b"\x00\x00\x00", b"\x81\x07\x05", b"\x9a\x11\x01")]
    sized_bodies = sized + ["\u4e2d\u6587e\u0301\U0001f600\x1b[2;3r\x1b[3;1H\n\n\x1bM\x1b[L\x1b[2P\x1b[?7lxyz".encode(),
                            # text in scripts with combining marks over marked cells, edited (round 31)
                            ("\u0932\u0949\u0917 \u0e1a\u0e31\u0e19\r\x1b[2Ce\u0301\u4e2d\u0308x\x1b[2@"
                             "\x1b[3Pa\u0301\u0302\u0303\u0304\u0305\n").encode() * 3,
                            # frames after a CR that the next covers, skipped on a sized screen (round 44): blocks
                            # and ASCII, then frames as long ending in ASCII and past it over stray padding
                            ("\r\u2588 1%\r\u2588\u2588 2%\r\u2588\u2588\u2588 3%\r\u4e2d\u4e2d\rab\n"
                             "abcde\u4e2d\x1b[6G\x1b[P\rabcde\rabcd\u00e9\x1b[?7l\x1b[8G\x1b[1@Z\n").encode() * 2]
    small += [header + body for body in sized_bodies for header in (b"\x40\x0b\x00", b"\xc2\x21\x03")]
    # Full-length lines with the default options (header 0: one chunk), then the sequences that edit a
    # whole line: the inputs whose cost the bounds are about.
    full = b"x" * 65536
    edits = [b"\x1b[65535b\r", b"\x1b[65000G\x1b[1K", b"\r\x1b[65535X", b"\r\x1b[1@", b"\r\x1b[1P", b"\x1b[2K"]
    # Text past 1 MiB in one call (round 27): huge moves and repeats, whose head is the str the call returns.
    large = [b"x\x1b[1024C" * 9000, b"x\x1b[1024b\n" * 9000, b"x\x1b[1000Cy\n" * 12000]
    # Wide sized rows (round 32: the widths of WIDE_COLUMNS, header limits 0xF8-0xFF): full rows, then ICH of
    # more and less than half the row, DCH, erases over erases and REP, at 256 and 8192 columns.
    wide_edits = (b"\x1b[1;1H\x1b[@x\r\x1b[5000@\x1b[2;1H\x1b[3P\x1b[10G\x1b[300X\x1b[309G\x1b[1Kq\x1b[1;1H"
                  b"e\xcc\x81\x1b[4000@\r\x1b[500b\x1b[2K")
    wide = [header + b"ab" * 4200 + b"\r\n" + b"wxyz" * 2100 + wide_edits * 3 for header in (b"\x40\xf9\x00", b"\x48\xfc\x07")]
    # Tall screens (round 33: TALL_ROWS, header limits 0xF0-0xF7): line feeds at the bottom one at a time, IL,
    # DL and RI near the top, a block of lines, marks on the rows that move.
    tall_moves = (b"\x1b[2050;1Hl\n\x1b7\x1b[1;1He\xcc\x81\x1b[2;1H\x1b[L\x1bM\x1b[3;1H\x1b[2M\x1b[60;1H\x1b[L"
                  b"\x1b[2050;1H" + b"line\n" * 40 + b"\x1b[1;2050r\x1b[2050;1H\n\x1b[r")
    tall = [header + tall_moves * 4 for header in (b"\x40\xf0\x00", b"\x48\xf4\x60")]
    # A region inside a tall screen (round 39: the fallback lags its line feeds there, the core rotates it):
    # line feeds on its last row, then text, erases and edits there, cursor moves away and back, text on the
    # row above, IL and DL on the last row, BS after a wrap, marks, SU/SD and the region reset.
    tall_lag = (b"\x1b[100;2000r\x1b[2000;1H" + b"x\n\x1b7" * 5 + b"y\x1b[K\n\x1b[3X\x1b[2P\x1b[4@z\n\x1b[A\x1b[B"
                + b"w\n\x1b[Aq\x1b[B\n\x1b[L\n\x1b[3M" + b"abcdefghij" * 5 + b"\r\x08e\xcc\x81\n\x1b[2S\x1bM\x1b[r")
    tall += [header + tall_lag * 2 for header in (b"\x40\xf1\x00", b"\x40\xf3\x21\x1b[?1049h")]  # (+ alternate)
    # Auto-wrap off on a wide row (round 34): text past the last column, REP of x, of a space over it and over
    # blanks, of a wide character twice over its own pairs, stray padding, with the header of a 256-column
    # screen and of a small one.
    nowrap = (b"\x1b[?7l" + b"ab cd " * 60 + b"\rx\x1b[300b\r \x1b[300b\r\x1b[5C\x1b[9X\r \x1b[300b"
              + "\r\u4e2d\x1b[300b\r\u4e2d\x1b[300b\x1b[7G\x1b[X\x1b[P\r\u4e2d\x1b[2b\x1b[?7h\n".encode())
    nowrap_seeds = [header + nowrap * 3 for header in (b"\x40\xf9\x00", b"\x40\x0b\x00")]
    # Marks on every cell of a 20x124 screen, then cells rewritten with marks of two to four UTF-8 bytes, one
    # or two a cell (round 41: the core compacts its mark pool in place, each live entry moved to its rank
    # among the live ones): the third compaction finds 700 dead entries among 2,480 live ones.
    marks = ("\u0301", "\u20d0", "\U0001d167", "\U000e0100")
    filled = "".join("\x1b[%d;1H" % (y + 1) + "e\u0301" * 20 for y in range(124))
    rewrites = "".join("\x1b[%d;%dH%s" % (1 + (k * 37 + i * 11) % 124, 1 + (k * 13 + i * 7) % 20,
                                            chr(0x61 + (k + i) % 26))
                       + marks[(k + i) % 4] * (1 + i % 2) for k in range(8) for i in range(150))
    marked = [b"\x40\xc5" + cuts + (filled + rewrites).encode() for cuts in (b"\x00", b"\x11")]
    return (small + [b"\x00\x00\x00" + full + edit * 64 for edit in edits] + [b"\x00\x00\x00" + body for body in large]
            + wide + tall + nowrap_seeds + marked)
