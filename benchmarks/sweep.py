"""Look for input classes under the bounded-cost targets (the compiled core >= 50 MB/s, the fallback >= 1 MB/s),
instead of timing only the classes someone thought of (benchmarks/README.md, round 43):

    python benchmarks/sweep.py [--impl c|py] [--shapes unsized,80x24,...] [--states ...] [--size KB]
                               [--below MB/s] [--src DIR]

Every combination of a character, an operation and a terminator (a CR, a LF or nothing), repeated, after a
state set up once (a scroll region in the middle of the screen, the alternate screen, insert mode, auto-wrap
off, or none), on each screen shape, each in a new decoder fed 64 KiB calls as bounds.py feeds them. A case
under ``--below`` (default: the target of the implementation) is timed twice more and printed if its best
run stays under it, with the output characters each input byte bought: a class that writes a hundred
characters a byte is output-bound, one that writes none and is slow is what this looks for. Round 35 ran
such a sweep once by hand (eight characters, 25 operations, four shapes, the core); this is it kept, with the
states and the fallback added.

The core takes about a minute for the default set; the fallback is slower per byte, so ``--impl py`` runs
smaller inputs (``--size``, 16 KB by default) and is best given a few shapes or states at a time. Wall clock
on a shared VM moves by up to 2x between sittings: a case found here goes into bounds.py (sizes 1/10/100 MB)
and instructions.py (callgrind) before anything is concluded from it.
"""
from __future__ import annotations

import argparse
import itertools
import os
import sys
import time

CHARACTERS = {
    "x": "x",
    "space": " ",
    "é": "\u00e9",
    "U+2500": "\u2500",
    "中": "\u4e2d",
    "क + vowel sign": "\u0915\u093f",
    "e + combining acute": "e\u0301",
    "😀": "\U0001f600",
    "U+202E": "\u202e",
    "tab": "\t",
}

OPERATIONS = {
    "nothing": "",
    "REP 79": "\x1b[79b",
    "REP 1024": "\x1b[1024b",
    "CUF 1024": "\x1b[1024C",
    "CHA 65000": "\x1b[65000G",
    "ECH 1024": "\x1b[1024X",
    "ICH": "\x1b[@",
    "ICH 1024": "\x1b[1024@",
    "DCH 1024": "\x1b[1024P",
    "EL 0": "\x1b[K",
    "EL 1": "\x1b[1K",
    "EL 2": "\x1b[2K",
    "ED 0": "\x1b[J",
    "ED 1": "\x1b[1J",
    "ED 2": "\x1b[2J",
    "IL": "\x1b[L",
    "DL": "\x1b[M",
    "IL 999": "\x1b[999L",
    "SU": "\x1b[S",
    "SD": "\x1b[T",
    "SU 999": "\x1b[999S",
    "SD 999": "\x1b[999T",
    "RI": "\x1bM",
    "IND": "\x1bD",
    "NEL": "\x1bE",
    "ESC 7": "\x1b7",
    "ESC 8": "\x1b8",
    "HT": "\t",
    "BS": "\b",
    "CUP 1;1": "\x1b[H",
    "CUP 999;999": "\x1b[999;999H",
    "CUU": "\x1b[A",
    "CUD": "\x1b[B",
    "TBC 3 then HTS": "\x1b[3g\x1bH",
}

TERMINATORS = {"": "", "CR": "\r", "LF": "\n"}

SHAPES = {
    "unsized": {},
    "80x24": {"columns": 80, "rows": 24},
    "1000x24": {"columns": 1000, "rows": 24},
    "80x1000": {"columns": 80, "rows": 1000},
    # (round 45, not in the default set: --shapes 80x65535 --states region) the tallest screen the API allows,
    # where each settle of a region's lagged line feeds is a rotation of 32,767 row slots: a line of e-acute
    # at the bottom of the region read 1.8 MB/s there and 41 at 80x1000
    "80x65535": {"columns": 80, "rows": 65535},
}
DEFAULT_SHAPES = ["unsized", "80x24", "1000x24", "80x1000"]

STATES = {  # set up once; {middle} and {bottom} are the rows of a region in the middle half of the screen
    "plain": "",
    "region": "\x1b[{middle};{bottom}r\x1b[{bottom};1H",
    "alternate screen": "\x1b[?1049h",
    "insert mode": "\x1b[4h",
    "auto-wrap off": "\x1b[?7l",
}

TARGETS = {"c": 50.0, "py": 1.0}


def state_bytes(state: str, options: dict) -> bytes:
    rows = options.get("rows", 24)
    return STATES[state].format(middle=rows // 4 + 1, bottom=rows - rows // 4).encode()


def run(impl, options: dict, start: bytes, block: bytes, size: int) -> tuple[float, int]:
    """Seconds for ``size`` bytes of ``block`` repeated after ``start``, in 64 KiB calls, and the characters
    out."""
    repeated = block * (size // len(block) + 1)
    repeated = repeated[:size]
    decoder = impl.TranscriptDecoder(**options)
    out = len(decoder.decode(start))
    t = time.perf_counter()
    for i in range(0, len(repeated), 65536):
        out += len(decoder.decode(repeated[i : i + 65536]))
    out += len(decoder.decode(b"", final=True))
    return time.perf_counter() - t, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--impl", choices=("c", "py"), default="c")
    parser.add_argument("--shapes", default=",".join(DEFAULT_SHAPES), help=f"of {', '.join(SHAPES)}")
    parser.add_argument("--states", default=",".join(STATES))
    parser.add_argument("--characters", default=",".join(CHARACTERS))
    parser.add_argument("--operations", default=",".join(OPERATIONS))
    parser.add_argument("--size", type=int, help="KB of input a case (default: 256 for the core, 16 for the fallback)")
    parser.add_argument("--below", type=float, help="MB/s under which a case is printed (default: the target)")
    parser.add_argument("--src", help="import the package from this directory (an older build, say)")
    args = parser.parse_args()
    if args.src:
        sys.path.insert(0, args.src)
    if args.impl == "py":
        os.environ["ACP_TRANSCRIPT_NO_EXTENSIONS"] = "1"
        from acp_transcript import _decoder_py as impl
    else:
        from acp_transcript import _decoder_c as impl
    size = (args.size or (256 if args.impl == "c" else 16)) * 1000
    below = args.below if args.below is not None else TARGETS[args.impl]
    shapes, states = args.shapes.split(","), args.states.split(",")
    characters, operations = args.characters.split(","), args.operations.split(",")
    # (a region and the alternate screen are a sized screen's)
    cases = [case for case in itertools.product(shapes, states, characters, operations, TERMINATORS)
             if not (case[0] == "unsized" and case[1] in ("region", "alternate screen"))]
    print(f"{impl.__name__}: {len(cases)} cases of {size // 1000} KB; printed: under {below} MB/s in the best of "
          "three runs (MB/s, output characters an input byte)", flush=True)
    print("| shape | state | character | operation | then | MB/s | characters a byte |")
    print("|---|---|---|---|---|---|---|")
    began, found = time.perf_counter(), 0
    for shape, state, character, operation, terminator in cases:
        options = SHAPES[shape]
        block = (CHARACTERS[character] + OPERATIONS[operation] + TERMINATORS[terminator]).encode()
        start = state_bytes(state, options)
        seconds, out = run(impl, options, start, block, size)
        if size / seconds / 1e6 >= below:
            continue
        seconds = min([seconds] + [run(impl, options, start, block, size)[0] for _ in range(2)])
        speed = size / seconds / 1e6
        if speed < below:
            found += 1
            print(f"| {shape} | {state} | {character} | {operation} | {terminator or '-'} | {speed:.3g} | "
                  f"{out / size:.2f} |", flush=True)
    print(f"\n{found} of {len(cases)} cases under {below} MB/s ({time.perf_counter() - began:.0f} s)")


if __name__ == "__main__":
    main()
