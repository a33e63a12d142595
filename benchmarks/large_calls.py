"""Calls far larger than a stream's chunks, for one or more builds of the core timed alternately:

    python benchmarks/large_calls.py [--src OLD/src --src src] [--size MB] [--rounds N]

- ``decode(corpus, final=True)`` in one call of ``--size`` MB (default 32) of plain ASCII and of the real
  captures (benchmarks/corpora.py), MB/s, best of 5: what a log exporter that reads whole files sees;
- one ``sanitize_batch([item])`` of a 256-320 KiB item of huge REPs of ``é``, of ``x`` or of ``中`` (30 M
  characters of text each, two bytes a character for ``中``), ms, best of 5 after a warm-up.

Each build runs in its own process (``--src`` puts its directory first on ``sys.path``; without it, the
installed or in-place package). Round 28 measured with it (benchmarks/README.md).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

CHILD = r"""
import sys, time
if {src!r}:
    sys.path.insert(0, {src!r})
sys.path.insert(0, {benchmarks!r})
from corpora import CORPORA
from acp_transcript import _decoder_c as core

def best(run, times=5):
    fastest = float("inf")
    for _ in range(times):
        start = time.perf_counter()
        run()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest

row = []
for name in ("plain ASCII", "real captures"):
    data = CORPORA[name]({size})
    row.append(f"{{len(data) / best(lambda: core.TranscriptDecoder().decode(data, final=True)) / 1e6:,.0f}} MB/s")
core.sanitize_batch([b"warm"])
for char in ("\u00e9", "x", "\u4e2d"):
    item = (char + "\x1b[1023b\n").encode() * (256 * 1024 // 9)
    row.append(f"{{best(lambda: core.sanitize_batch([item])) * 1000:.1f}} ms")
print(" | ".join(row))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", action="append", default=[], help="a directory holding a built acp_transcript")
    parser.add_argument("--size", type=float, default=32, help="MB of each corpus in the one call")
    parser.add_argument("--rounds", type=int, default=2, help="alternations of the builds")
    args = parser.parse_args()
    builds = args.src or [""]
    benchmarks = str(Path(__file__).resolve().parent)
    print("| build | one call, plain ASCII | one call, real captures | batch item of é REPs | batch item of x REPs "
          "| batch item of 中 REPs |")
    print("|---|---|---|---|---|---|")
    for _ in range(args.rounds):
        for src in builds:
            code = CHILD.format(src=src, benchmarks=benchmarks, size=int(args.size * 1_000_000))
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
            print(f"| {src or 'installed'} | {out.strip()} |")


if __name__ == "__main__":
    main()
