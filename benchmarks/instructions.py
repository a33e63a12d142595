"""Instructions per input byte in the compiled core, counted by valgrind's callgrind: repeatable where
wall-clock time is not (the CI machine's timings vary by tens of percent; these counts by about 2%).

    python benchmarks/instructions.py [--size 1000000] [--modes render,strip,sized] [--src DIR] [--corpora A,B]

For each corpus (benchmarks/corpora.py) it runs the decoder over ``--size`` bytes fed in 4 KiB chunks and
prints the instructions spent inside ``TranscriptDecoder.decode`` (callgrind's ``--toggle-collect``, so the
corpus generation and the interpreter's loop are not counted) / bytes. Before round 6 the script subtracted a
run that only built the input, which moved by about 0.5 per byte between processes; this count is exact to a
few hundred instructions.
Mode ``sized`` is render mode at 80x24 (SPEC 2.8). ``--src DIR`` measures the core importable from DIR (say, a worktree of an older commit built in place),
so two versions can be compared in one sitting.

    python benchmarks/instructions.py --bounds "sized 80x1000,tabs" [--size 1000000] [--src DIR]

counts the rows of benchmarks/bounds.py whose names contain one of the comma-separated pieces instead, fed
as bounds.py feeds them (the row's start, then its block repeated to ``--size`` bytes in 64 KiB chunks, in
render mode with the row's options): the counts beside its MB/s.

    python benchmarks/instructions.py --batches 100,1000 [--src DIR]

counts the instructions a record of ``sanitize_batch`` and ``sanitize_arrow`` (the calls whole: decoding,
strings, Arrow buffers) over 20,000 records of each size cut from the real captures, as engines_bench.py
cuts them: the per-item cost the throughput issue states a floor for.

    python benchmarks/instructions.py --baselines [--size 1000000] [--corpora A,B] [--src DIR]

counts, per corpus, the throughput issue's ratios in instructions, which this VM's clock cannot move: the
core's render mode (inside decode(), as above), the regex strip as throughput.py runs it (one ``sub`` on
all the data and the ``decode``: callgrind toggled on CPython's ``_sre`` sub and ``bytes.decode``), and the
Python fallback's render mode in the same 4 KiB loop as the core's, counted as the whole process less the
same process with a decoder that does nothing (so the loop, slicing and start-up cancel; about +-0.5 an
input byte).
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r"""
import sys
sys.path.insert(0, {src!r})
sys.path.insert(0, {here!r})
import corpora
from acp_transcript import _decoder_c, _decoder_py
class Noop:  # a decoder that does nothing: the count to subtract from the fallback's (--baselines)
    def decode(self, data, final=False):
        return ""
data = {{**corpora.CORPORA, **corpora.SHAPES}}[{corpus!r}]({size})
decoder = {decoder}
for i in range(0, len(data), 4096):
    decoder.decode(data[i : i + 4096])
decoder.decode(b"", final=True)
"""


# sanitize_batch and sanitize_arrow over records cut as engines_bench.py cuts them; the count is the call's
BATCH_CHILD = r"""
import sys
sys.path.insert(0, {src!r})
sys.path.insert(0, {here!r})
from engines_bench import records
from acp_transcript import _decoder_c
rows = records({size}, {rows})
if {call!r} == "sanitize_arrow":
    import pyarrow
    rows = pyarrow.array(rows, type=pyarrow.binary())
getattr(_decoder_c, {call!r})(rows)
"""
BATCH_ROWS = 20_000

# throughput.py's regex strip, its own function, one call on all the data (what the throughput issue's ratios
# divide by)
REGEX_CHILD = r"""
import sys
sys.path.insert(0, {here!r})
import corpora
from throughput import regex_strip
regex_strip({{**corpora.CORPORA, **corpora.SHAPES}}[{corpus!r}]({size}))
"""
REGEX_TOGGLES = ("_sre_SRE_Pattern_sub*", "bytes_decode*")


def instructions(src: str, corpus: str, size: int, mode: str) -> int:
    options = {"mode": mode} if mode != "sized" else {"columns": 80, "rows": 24}
    decoder = f"_decoder_c.TranscriptDecoder(**{options!r})"
    return collected(CHILD.format(src=src, here=HERE, corpus=corpus, size=size, decoder=decoder))[0]


def bounds_instructions(src: str, start: str, block: str, size: int, options: dict) -> float:
    """bounds.py's own measuring script (bounds.CHILD), run under callgrind: the same input as its MB/s."""
    from bounds import CHILD as BOUNDS_CHILD

    code = BOUNDS_CHILD.format(module="_decoder_c", start=start, block=block, size_mb=size / 1_000_000,
                               mode="render", options=options, chunk_cells=0, call=65536)
    count, stdout = collected(code, src)
    return count / ast.literal_eval(stdout.strip().splitlines()[-1])["in"]


def batch_instructions(src: str, call: str, size: int) -> float:
    """Instructions a record inside ``call`` (sanitize_batch or sanitize_arrow: the decoding, the strings or
    the Arrow buffers it builds) over BATCH_ROWS records of ``size`` bytes."""
    code = BATCH_CHILD.format(src=src, here=HERE, size=size, rows=BATCH_ROWS, call=call)
    return collected(code, toggle=f"*{call}*")[0] / BATCH_ROWS


def baseline_instructions(src: str, corpus: str, size: int) -> tuple[int, int]:
    """The regex strip's instructions (one call on the data) and the fallback render's (its 4 KiB loop less
    the same loop around a decoder that does nothing)."""
    regex = collected(REGEX_CHILD.format(here=HERE, corpus=corpus, size=size), toggle=REGEX_TOGGLES)[0]
    runs = [collected(CHILD.format(src=src, here=HERE, corpus=corpus, size=size, decoder=decoder), toggle=())[0]
            for decoder in ("_decoder_py.TranscriptDecoder()", "Noop()")]
    return regex, runs[0] - runs[1]


def collected(code: str, src: str | None = None,
              toggle: str | tuple[str, ...] = "*TranscriptDecoder_*decode") -> tuple[int, str]:
    """Instructions inside decode() (or the functions ``toggle`` names; none: the whole process) while
    ``code`` runs (importing the core from ``src`` if given), and what it printed."""
    env = dict(os.environ, PYTHONPATH=src) if src else None
    # decode() only by default (Cython names its wrapper ..._TranscriptDecoder_<n>decode)
    toggles = [f"--toggle-collect={name}" for name in ((toggle,) if isinstance(toggle, str) else toggle)]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        result = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *toggles,
             sys.executable, "-c", code],
            capture_output=True, text=True, check=True, env=env,
        )
    match = re.search(r"Collected : (\d+)", result.stderr)
    if match is None:
        raise RuntimeError(result.stderr[-2000:])
    return int(match.group(1)), result.stdout


def main() -> None:
    sys.path.insert(0, HERE)
    import corpora

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--size", type=int, default=1_000_000)
    parser.add_argument("--modes", default="render")
    parser.add_argument("--src", default=os.path.join(os.path.dirname(HERE), "src"))
    parser.add_argument("--corpora", help="comma-separated names from corpora.CORPORA or corpora.SHAPES "
                                          "(default: every corpus of CORPORA)")
    parser.add_argument("--bounds", help="comma-separated pieces of benchmarks/bounds.py row names")
    parser.add_argument("--batches", help="comma-separated record sizes in bytes (say 100,1000): instructions a "
                                          "record in sanitize_batch and sanitize_arrow instead")
    parser.add_argument("--baselines", action="store_true", help="the core's render mode, the regex strip and "
                        "the fallback's render mode per corpus, and the throughput issue's ratios in instructions")
    args = parser.parse_args()
    names = args.corpora.split(",") if args.corpora else list(corpora.CORPORA)
    if args.baselines:
        print(f"instructions per input byte, {args.size} bytes, core and fallback from {args.src}")
        print("| corpus | core render | regex strip | fallback render | core / regex (speed, in instructions) "
              "| fallback / regex |\n|---|---|---|---|---|---|")
        for corpus in names:
            core = instructions(args.src, corpus, args.size, "render") / args.size
            regex, fallback = (count / args.size for count in baseline_instructions(args.src, corpus, args.size))
            print(f"| {corpus} | {core:.2f} | {regex:.2f} | {fallback:.1f} | {regex / core:.2f}x "
                  f"| {regex / fallback:.3f}x |", flush=True)
        return
    if args.batches:
        print(f"instructions a record, {BATCH_ROWS} records cut from the real captures, core from {args.src}")
        print("| record | call | instructions/record | instructions/byte |\n|---|---|---|---|")
        for size in (int(piece) for piece in args.batches.split(",")):
            for call in ("sanitize_batch", "sanitize_arrow"):
                per_record = batch_instructions(args.src, call, size)
                print(f"| {size} B | {call} | {per_record:.0f} | {per_record / size:.2f} |", flush=True)
        return
    if args.bounds:
        from bounds import CASES, OPTIONS

        print(f"instructions per input byte, bounds.py rows of {args.size} bytes, core from {args.src}")
        print("| row | instructions/byte |\n|---|---|")
        for name, (start, block) in CASES.items():
            if any(piece in name for piece in args.bounds.split(",")):
                per_byte = bounds_instructions(args.src, start, block, args.size, OPTIONS.get(name, {}))
                print(f"| {name} | {per_byte:.1f} |", flush=True)
        return
    print(f"instructions per input byte, {args.size} bytes in 4 KiB chunks, core from {args.src}")
    print("| corpus | mode | instructions/byte |\n|---|---|---|")
    for corpus in names:
        for mode in args.modes.split(","):
            count = instructions(args.src, corpus, args.size, mode)
            print(f"| {corpus} | {mode} | {count / args.size:.2f} |", flush=True)


if __name__ == "__main__":
    main()
