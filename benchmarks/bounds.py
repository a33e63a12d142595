"""Bounds on hostile input, measured (SPEC 2.2/2.3; tests/test_limits.py pins the same inputs small):
time linear in the input (MB/s does not fall with size), peak memory independent of the input size
(strip mode) or bounded by the live-window limits (render mode), output within a constant factor.

    python benchmarks/bounds.py [--sizes 1,10,100] [--impl c|py]

Each measurement runs in its own process, so its peak RSS is its own; input is generated block by block
and fed in 64 KiB chunks, so the input itself never sits in memory.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CASES = {
    "unterminated OSC": ("b'\\x1b]0;'", "b'x' * 65536"),
    "5000-digit CSIs": ("b''", "(b'\\x1b[' + b'9' * 5000 + b'm') * 13"),
    "5000-param CSIs": ("b''", "(b'\\x1b[' + b'1;' * 5000 + b'm') * 6"),
    "one endless line": ("b''", "b'y' * 65536"),
    "cursor-up loops": ("b'a\\nb\\nc\\n'", "b'\\x1b[A\\x1b[Bx\\r' * 5461"),
    "huge moves (CUF)": ("b''", "b'x\\x1b[65535C' * 6553"),
    "huge repeats (REP)": ("b''", "b'x\\x1b[65535b' * 6553"),
    "huge inserts (ICH)": ("b''", "b'x\\x1b[65535@' * 6553"),
    "tabs": ("b''", "b'x\\t' * 32768"),
}

CHILD = r"""
import resource, sys, time
from acp_transcript import {module} as impl
start, block, size_mb, mode = {start}, {block}, {size_mb}, {mode!r}
decoder = impl.TranscriptDecoder(mode=mode)
total_in = total_out = 0
target = size_mb * 1_000_000
t0 = time.perf_counter()
total_out += len(decoder.decode(start)); total_in += len(start)
while total_in < target:
    for i in range(0, len(block), 65536):
        total_out += len(decoder.decode(block[i : i + 65536]))
    total_in += len(block)
total_out += len(decoder.decode(b"", final=True))
seconds = time.perf_counter() - t0
print({{"seconds": seconds, "in": total_in, "out": total_out,
        "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}})
"""


def measure(module: str, start: str, block: str, size_mb: int, mode: str) -> dict:
    code = CHILD.format(module=module, start=start, block=block, size_mb=size_mb, mode=mode)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    return json.loads(out.replace("'", '"'))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1,10,100")
    parser.add_argument("--impl", choices=("c", "py"), default="c")
    args = parser.parse_args()
    module = "_decoder_c" if args.impl == "c" else "_decoder_py"
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{module}: MB/s | peak RSS MB | output chars per input byte, for inputs of {sizes} MB")
    print("| case | mode | " + " | ".join(f"{s} MB" for s in sizes) + " |")
    print("|---|---|" + "---|" * len(sizes))
    for name, (start, block) in CASES.items():
        for mode in ("render", "strip"):
            cells = []
            for size in sizes:
                r = measure(module, start, block, size, mode)
                cells.append(f"{r['in'] / r['seconds'] / 1e6:.0f} MB/s, {r['rss_mb']:.0f} MB, {r['out'] / r['in']:.2f}")
            print(f"| {name} | {mode} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
