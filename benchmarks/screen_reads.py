"""What a read of ``live`` and a narrower ``resize`` cost on sized screens (benchmarks/README.md, round 42):

    python benchmarks/screen_reads.py [--impl c|py] [--src DIR]

For each screen (a few rows written once), microseconds per ``decoder.live`` read in a loop for half a second,
and per ``decoder.resize`` alternating 79 and 78 columns. ``--src DIR`` imports the package from there (an
older build, say a ``git archive`` of the last round built in place), to compare two builds in one sitting.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys

SCREENS = {  # name: (rows, what is written first)
    "80x65535, the bottom row only": (65535, b"\x1b[65535;1Hbottom"),
    "80x1000, the bottom row only": (1000, b"\x1b[1000;1Hbottom"),
    "80x1000, rows 10 and 990": (1000, b"\x1b[10;1Hx\x1b[990;1Hy"),
    "80x65535, row 1, and the bottom row erased (EL 2: used, no text)": (65535, b"x\x1b[65535;1Hy\x1b[2K"),
    "80x24, every row": (24, b"x\n" * 23 + b"last"),
}

CHILD = r"""
import time
from acp_transcript import {module} as impl
def per_call(call):
    n, t = 0, time.perf_counter()
    while time.perf_counter() - t < 0.5:
        call(n)
        n += 1
    return (time.perf_counter() - t) / n * 1e6
decoder = impl.TranscriptDecoder(columns=80, rows={rows})
decoder.decode({data!r})
live = per_call(lambda n: decoder.live)
resize = per_call(lambda n: decoder.resize(79 - n % 2, {rows}))
print(f"{{live:.1f}} {{resize:.1f}}")
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--impl", choices=("c", "py"), default="c")
    parser.add_argument("--src", help="import the package from this directory")
    args = parser.parse_args()
    module = "_decoder_c" if args.impl == "c" else "_decoder_py"
    env = {**os.environ, "PYTHONPATH": args.src} if args.src else None
    print(f"{module}{' from ' + args.src if args.src else ''}: us per call")
    print("| screen | live | resize (79 <-> 78 columns) |")
    print("|---|---|---|")
    for name, (rows, data) in SCREENS.items():
        code = CHILD.format(module=module, rows=rows, data=data)
        live, resize = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                                      env=env).stdout.split()
        print(f"| {name} | {live} | {resize} |", flush=True)


if __name__ == "__main__":
    main()
