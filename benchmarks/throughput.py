"""Throughput of acp-transcript against its baselines, on the same data, in one run.

    python benchmarks/throughput.py [--size MB] [--repeat N] [--thread-chunk KiB]

Prints MB/s (of input bytes; base64 rows of decoded bytes) per corpus for: the compiled core in render and
strip mode, sized rendering at 80x24 (SPEC 2.8), ``decode_base64`` on 4 KiB chunks, the Python fallback, the
common regex strip (one call on all the data, as the throughput issue's floors are stated; and in the same
4 KiB streaming loop as the core's rows), ``sanitize`` in one call, ``binascii`` strict base64 followed by
``decode``, and ``bytes.decode("utf-8", "replace")`` as the floor; the core in 1 and 2 threads, next to
``zlib.crc32`` in 1 and 2 threads on the same calls (a stdlib function that also releases the GIL: what any
such call of that size scales by here); then the ratios that the targets in benchmarks/README.md are stated
in.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import re
import sys
import threading
import time
import zlib
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpora import CORPORA  # noqa: E402

from acp_transcript import _decoder_py  # noqa: E402

try:
    from acp_transcript import _decoder_c
except ImportError:
    sys.exit("the compiled core is not built: pip install -e . (with a C compiler), then run again")

ANSI = re.compile(rb"\x1B(?:[@-Z\\-_]|\[[0-?]*[ -/]*[@-~])")  # the regex strip everybody writes
CHUNK = 4096


def regex_strip(data: bytes) -> str:
    return ANSI.sub(b"", data).decode("utf-8", "replace")


def regex_strip_streaming(data: bytes) -> str:
    """The regex in throughput.py's streaming loop (slice, call, join): not a correct strip (a sequence or
    a character cut by a chunk's end is garbled), only the loop's own cost on the same work. On this VM the
    join of the 4 KiB outputs is most of a plain byte's time (benchmarks/README.md, round 8)."""
    return "".join([ANSI.sub(b"", data[i : i + CHUNK]).decode("utf-8", "replace") for i in range(0, len(data), CHUNK)])


def streaming(module, **options) -> Callable[[bytes], str]:
    def run(data: bytes) -> str:
        decoder = module.TranscriptDecoder(**options)
        parts = [decoder.decode(data[i : i + CHUNK]) for i in range(0, len(data), CHUNK)]
        parts.append(decoder.decode(b"", final=True))
        return "".join(parts)

    return run


def run_in_threads(count: int, work: Callable[[], None]) -> None:
    threads = [threading.Thread(target=work) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def in_threads(count: int, options: dict[str, object] | None = None, step: int = 65536) -> Callable[[bytes], None]:
    """``count`` threads, each decoding its own copy of the data with its own decoder in ``step``-byte chunks
    (64 KiB by default; decode() releases the GIL from 4 KiB: SPEC 6); the rate is of all the data together."""

    def run(data: bytes) -> None:
        def work() -> None:
            decoder = _decoder_c.TranscriptDecoder(**(options or {}))
            for i in range(0, len(data), step):
                decoder.decode(data[i : i + step])
            decoder.decode(b"", final=True)

        run_in_threads(count, work)

    return run


def crc32_in_threads(count: int, step: int = 65536) -> Callable[[bytes], None]:
    """in_threads' loop with ``zlib.crc32`` for ``decode()``: it too releases the GIL for the call (above 5 KiB)
    and takes it back to return, so 2 threads against 1 here is the bound the GIL's hand-off puts on any call
    of ``step`` bytes, whatever it computes. (crc32 reads 4-5 GB/s here, the core 1-4: the core's calls are
    the longer ones, so they should scale at least as well.)"""

    def run(data: bytes) -> None:
        def work() -> None:
            crc = 0
            for i in range(0, len(data), step):
                crc = zlib.crc32(data[i : i + step], crc)

        run_in_threads(count, work)

    return run


def best_of(function: Callable[[object], object], argument: object, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        function(argument)
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=float, default=4, help="MB per corpus (default 4)")
    parser.add_argument("--repeat", type=int, default=5, help="best of N runs (default 5)")
    parser.add_argument("--thread-chunk", type=int, default=64, help="KiB per decode() call in the thread rows "
                        "(default 64; larger chunks hold the GIL for a smaller share of each call)")
    args = parser.parse_args()
    size = int(args.size * (1 << 20))

    rows = {
        "core render": (streaming(_decoder_c), False),
        "core render 80x24": (streaming(_decoder_c, columns=80, rows=24), False),
        "core strip": (streaming(_decoder_c, mode="strip"), False),
        "core decode_base64": (None, True),
        "fallback render": (streaming(_decoder_py), False),
        "fallback render 80x24": (streaming(_decoder_py, columns=80, rows=24), False),
        "fallback strip": (streaming(_decoder_py, mode="strip"), False),
        "regex strip": (regex_strip, False),
        "regex strip, 4 KiB chunks": (regex_strip_streaming, False),
        "core sanitize, one call": (lambda data: _decoder_c.sanitize(data), False),
        "binascii+decode": (None, True),
        "bytes.decode": (lambda data: data.decode("utf-8", "replace"), False),
        "core render, 1 thread": (in_threads(1, step=args.thread_chunk * 1024), False),
        "core render, 2 threads": (in_threads(2, step=args.thread_chunk * 1024), False),
        "zlib.crc32, 1 thread": (crc32_in_threads(1, step=args.thread_chunk * 1024), False),
        "zlib.crc32, 2 threads": (crc32_in_threads(2, step=args.thread_chunk * 1024), False),
    }
    results: dict[str, dict[str, float]] = {}
    for corpus, make in CORPORA.items():
        data = make(size)
        chunks = [base64.b64encode(data[i : i + CHUNK]).decode() for i in range(0, len(data), CHUNK)]

        def core_b64(chunks: list[str]) -> str:
            decoder = _decoder_c.TranscriptDecoder()
            return "".join([decoder.decode_base64(c) for c in chunks]) + decoder.decode(b"", final=True)

        def binascii_b64(chunks: list[str]) -> str:
            decoder = _decoder_c.TranscriptDecoder()
            parts = [decoder.decode(binascii.a2b_base64(c, strict_mode=True)) for c in chunks]
            return "".join(parts) + decoder.decode(b"", final=True)

        results[corpus] = {}
        for name, (function, is_base64) in rows.items():
            if is_base64:
                if sys.version_info < (3, 11) and name == "binascii+decode":
                    continue  # strict_mode is new in 3.11
                function = core_b64 if name == "core decode_base64" else binascii_b64
                seconds = best_of(function, chunks, args.repeat)
            else:
                seconds = best_of(function, data, 1 if name.startswith("fallback") else args.repeat)
            threads = int(name.split(", ")[1].split()[0]) if name.endswith(("thread", "threads")) else 1
            results[corpus][name] = threads * len(data) / seconds / 1e6

    corpora = list(CORPORA)
    width = max(map(len, rows)) + 2
    print(f"MB/s, {args.size:g} MB per corpus, Python {sys.version.split()[0]}, best of {args.repeat}")
    print("| " + "row".ljust(width) + " | " + " | ".join(c.rjust(13) for c in corpora) + " |")
    print("|" + "-" * (width + 2) + "|" + "|".join("-" * 15 for _ in corpora) + "|")
    for name in rows:
        cells = [f"{results[c][name]:13.1f}" if name in results[c] else " " * 13 for c in corpora]
        print("| " + name.ljust(width) + " | " + " | ".join(cells) + " |")
    print()
    ratios = [
        ("core render / regex strip", "core render", "regex strip"),
        ("core strip / regex strip", "core strip", "regex strip"),
        ("core render / regex, 4 KiB chunks", "core render", "regex strip, 4 KiB chunks"),
        ("core sanitize / regex, one call", "core sanitize, one call", "regex strip"),
        ("core render / bytes.decode", "core render", "bytes.decode"),
        ("core sized 80x24 / unsized", "core render 80x24", "core render"),
        ("fallback sized 80x24 / unsized", "fallback render 80x24", "fallback render"),
        ("fallback render / regex strip", "fallback render", "regex strip"),
        ("decode_base64 / binascii+decode", "core decode_base64", "binascii+decode"),
        ("core render, 2 threads / 1", "core render, 2 threads", "core render, 1 thread"),
        ("zlib.crc32, 2 threads / 1", "zlib.crc32, 2 threads", "zlib.crc32, 1 thread"),
    ]
    print("| " + "ratio".ljust(33) + " | " + " | ".join(c.rjust(13) for c in corpora) + " |")
    print("|" + "-" * 35 + "|" + "|".join("-" * 15 for _ in corpora) + "|")
    for label, top, bottom in ratios:
        cells = [
            f"{results[c][top] / results[c][bottom]:12.2f}x" if bottom in results[c] else " " * 13 for c in corpora
        ]
        print("| " + label.ljust(33) + " | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
