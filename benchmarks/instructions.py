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

    python benchmarks/instructions.py --functions 12 [--corpora A,B] [--modes render] [--src DIR]

prints, per corpus and mode, the functions the same run spends its instructions in, each a line of
instructions per input byte (callgrind_annotate's self cost, with what GCC inlined from a header, such as
the SSE2 intrinsics, counted in the function it was inlined into; Cython's names shortened to
``Class.method``): where the time goes, which round 62 took the CJK and vim figures from.

    python benchmarks/instructions.py --events "80x24: x,insert mode" [--src OLD/src,src]

counts the fallback's instructions an iteration of one event (a character and a control, repeated after a
set-up, as sweep.py's classes are built; EVENTS), the whole process at 6,000 iterations less at 2,000, with
its ``feed`` warmed up first (CPython 3.11 specializes a function's bytecode only after 8 calls or loops) and
PYTHONHASHSEED fixed: two builds side by side, where the clock cannot tell a few percent apart (round 49).
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


# (round 49) The fallback's cost of one event: a character and a control repeated, after a set-up, the way
# sweep.py's classes are built. The count is the whole process at EVENT_RUNS[1] iterations less the same at
# EVENT_RUNS[0], so start-up, imports and set-up cancel; the decoder is fed in 64 KiB calls, as sweep.py and
# bounds.py feed it. CPython 3.11 specializes a function's bytecode only after 8 entries or backward jumps:
# ``feed`` called once on a stream whose bytes never take its ``continue`` (BS alone) would run unspecialized
# (BS alone: 7,306 instructions an iteration that way, 4,714 warmed), so another decoder of the same options
# takes the block 20 times first. PYTHONHASHSEED is fixed (a hash seed moves such counts by about 1%).
EVENT_CHILD = r"""
import sys
sys.path.insert(0, {src!r})
from acp_transcript import _decoder_py
warm = _decoder_py.TranscriptDecoder(**{options!r})
warm.decode({start!r})
for _ in range(20):
    warm.decode({block!r} * 4)
decoder = _decoder_py.TranscriptDecoder(**{options!r})
decoder.decode({start!r})
data = {block!r} * {count}
for i in range(0, len(data), 65536):
    decoder.decode(data[i : i + 65536])
"""
EVENT_RUNS = (2000, 6000)
_SCREEN = {"columns": 80, "rows": 24}
EVENTS = {  # name: (options, set-up, block)
    "80x24: x then BS": (_SCREEN, "", "x\b"),
    "80x24: x then IND": (_SCREEN, "", "x\x1bD"),
    "80x24: x then HT": (_SCREEN, "", "x\t"),
    "80x24: x then CR": (_SCREEN, "", "x\r"),
    "80x24: x, ED 2, CR": (_SCREEN, "", "x\x1b[2J\r"),
    "80x24: x, ED 1, LF": (_SCREEN, "", "x\x1b[1J\n"),
    "80x24: x, DL, CR": (_SCREEN, "", "x\x1b[M\r"),
    "80x24: e and a combining acute": (_SCREEN, "", "e\u0301"),
    "80x24: e and a combining acute, then IND": (_SCREEN, "", "e\u0301\x1bD"),
    "80x24: e and a combining acute, then CR": (_SCREEN, "", "e\u0301\r"),
    "80x24: e and a combining acute, then BS": (_SCREEN, "", "e\u0301\b"),
    "80x24: e and a combining acute, then EL 1": (_SCREEN, "", "e\u0301\x1b[1K"),
    "80x24: a CJK character then BS": (_SCREEN, "", "\u4e2d\b"),
    "80x24: a CJK character then CR": (_SCREEN, "", "\u4e2d\r"),
    "80x24: an emoji then IND": (_SCREEN, "", "\U0001f600\x1bD"),
    "80x24 in insert mode: x then CR": (_SCREEN, "\x1b[4h", "x\r"),
    "80x24 in insert mode: a CJK character then CR": (_SCREEN, "\x1b[4h", "\u4e2d\r"),
    "80x24 in insert mode: an emoji then IND": (_SCREEN, "\x1b[4h", "\U0001f600\x1bD"),
    "80x24 in insert mode: e and a combining acute, then CR": (_SCREEN, "\x1b[4h", "e\u0301\r"),
    "80x24 with auto-wrap off: x then IND": (_SCREEN, "\x1b[?7l", "x\x1bD"),
    "80x24 with auto-wrap off: x then LF": (_SCREEN, "\x1b[?7l", "x\n"),
    "80x24 with auto-wrap off: e and a combining acute, then CR": (_SCREEN, "\x1b[?7l", "e\u0301\r"),
    "80x24 with auto-wrap off: e and a combining acute, then IND": (_SCREEN, "\x1b[?7l", "e\u0301\x1bD"),
    "80x24 on the alternate screen: x then SU": (_SCREEN, "\x1b[?1049h", "x\x1b[S"),
    # (round 50) lines through the bottom row on the alternate screen and in insert mode, and a control, LF
    # and the next character
    "80x24 on the alternate screen: x then LF": (_SCREEN, "\x1b[?1049h", "x\n"),
    "80x24 on the alternate screen: x then IND": (_SCREEN, "\x1b[?1049h", "x\x1bD"),
    "80x24 in insert mode: x then LF": (_SCREEN, "\x1b[4h", "x\n"),
    "80x24 in insert mode: e and a combining acute, then LF": (_SCREEN, "\x1b[4h", "e\u0301\n"),
    "80x24: x, SD, LF": (_SCREEN, "", "x\x1b[T\n"),
    "80x24: e and a combining acute, IND, LF": (_SCREEN, "", "e\u0301\x1bD\n"),
    "80x24: CR alone": (_SCREEN, "", "\r"),
    "80x24: BS alone": (_SCREEN, "", "\b"),
    "80x24: IND alone": (_SCREEN, "", "\x1bD"),
    "80x24: CUU alone": (_SCREEN, "", "\x1b[A"),
    "80x24: DL alone": (_SCREEN, "", "\x1b[M"),
    "80x24: ED 2 alone": (_SCREEN, "", "\x1b[2J"),
    "80x24: SU alone": (_SCREEN, "", "\x1b[S"),
    "unsized: a tab then CR": ({}, "", "\t\r"),
    "unsized: x, a tab, CR": ({}, "", "x\t\r"),
    "unsized: x then BS": ({}, "", "x\b"),
    # (round 51) lines a full window commits one at a time, a lone LF, controls' clamps, stuck text, short trims
    "unsized: a tab, BS, LF": ({}, "", "\t\b\n"),
    "unsized: e-acute, a tab, LF": ({}, "", "\u00e9\t\n"),
    "unsized: a tab, IND, LF": ({}, "", "\t\x1bD\n"),
    "unsized: CUU alone": ({}, "", "\x1b[A"),
    "unsized: x then CUB": ({}, "", "x\x1b[D"),
    "80x24: x then CUP 1;1": (_SCREEN, "", "x\x1b[H"),
    "80x24 with auto-wrap off: e-acute": (_SCREEN, "\x1b[?7l", "\u00e9"),
    "80x24 in insert mode: x, ICH, CR": (_SCREEN, "\x1b[4h", "x\x1b[@\r"),
    "80x24 in insert mode: e and a combining acute, ICH, CR": (_SCREEN, "\x1b[4h", "e\u0301\x1b[@\r"),
    "80x24 in insert mode: a CJK character then BS": (_SCREEN, "\x1b[4h", "\u4e2d\b"),
    # (round 52) a tall screen's scroll at either end, frames of wide characters, a wide character over
    # padding in insert mode, marks at a stuck cursor, a zero-width character at column 0
    "80x1000: x then IND": ({"columns": 80, "rows": 1000}, "", "x\x1bD"),
    "80x1000: x then RI": ({"columns": 80, "rows": 1000}, "", "x\x1bM"),
    "80x24: CJK text and a count, then CR": (_SCREEN, "", "\u4e2d\u6587 50%\r"),
    "80x24: e-acute, a block and a count, then CR": (_SCREEN, "", "ab\u00e9\u2588 5%\r"),
    "80x24 in insert mode: an emoji then BS": (_SCREEN, "\x1b[4h", "\U0001f600\b"),
    "80x24 with auto-wrap off: e and a combining acute, then DL": (_SCREEN, "\x1b[?7l", "e\u0301\x1b[M"),
    "80x24 with auto-wrap off: e and a combining acute, then RI": (_SCREEN, "\x1b[?7l", "e\u0301\x1bM"),
    "1000x24 with auto-wrap off: e and a combining acute, then DL": ({"columns": 1000, "rows": 24}, "\x1b[?7l",
                                                                     "e\u0301\x1b[M"),
    "80x24: U+202E then CR": (_SCREEN, "", "\u202e\r"),
    # (round 53) a tab walked out by erases, text with marks at a stuck cursor, ICH and runs in insert mode at
    # 1000 columns, IL and DL of one row
    "unsized: a tab then EL 1": ({}, "", "\t\x1b[1K"),
    "80x24 with auto-wrap off: e and a combining acute": (_SCREEN, "\x1b[?7l", "e\u0301"),
    "1000x24 with auto-wrap off: e and a combining acute": ({"columns": 1000, "rows": 24}, "\x1b[?7l", "e\u0301"),
    "80x24: ICH alone": (_SCREEN, "", "\x1b[@"),
    "1000x24 in insert mode: x, ICH, CR": ({"columns": 1000, "rows": 24}, "\x1b[4h", "x\x1b[@\r"),
    "1000x24 in insert mode: x, REP 79, CR": ({"columns": 1000, "rows": 24}, "\x1b[4h", "x\x1b[79b\r"),
    "1000x24 in insert mode: a CJK character, REP 79, CR": ({"columns": 1000, "rows": 24}, "\x1b[4h",
                                                           "\u4e2d\x1b[79b\r"),
    "1000x24 in insert mode: x then CR": ({"columns": 1000, "rows": 24}, "\x1b[4h", "x\r"),
    "1000x24: x then IL": ({"columns": 1000, "rows": 24}, "", "x\x1b[L"),
    "1000x24: x then DL": ({"columns": 1000, "rows": 24}, "", "x\x1b[M"),
    # (round 54) a row pushed off a region's edge counted, tabbed runs past ASCII, a wide character over itself,
    # marked runs in insert mode
    "1000x24: x then RI": ({"columns": 1000, "rows": 24}, "", "x\x1bM"),
    "unsized: e and a combining acute, a tab, LF": ({}, "", "e\u0301\t\n"),
    "80x24: a CJK character, REP 79, CR": (_SCREEN, "", "\u4e2d\x1b[79b\r"),
    "80x24 on the alternate screen: a CJK character, REP 79, CR": (_SCREEN, "\x1b[?1049h", "\u4e2d\x1b[79b\r"),
    "80x24 in insert mode: e and a combining acute": (_SCREEN, "\x1b[4h", "e\u0301"),
    "80x24 in insert mode: Devanagari KA and vowel sign I": (_SCREEN, "\x1b[4h", "\u0915\u093f"),
    # (round 55) a lone wide character in a run typed in insert mode
    "80x24 in insert mode: a CJK character, REP 1, CR": (_SCREEN, "\x1b[4h", "\u4e2d\x1b[1b\r"),
    "80x24 in insert mode: a, a CJK character, b, a CJK character, CR": (_SCREEN, "\x1b[4h", "a\u4e2db\u4e2d\r"),
    # (round 56) a character typed at the last column in insert mode (CUU keeps the cursor there)
    "80x24 in insert mode: x then CUU": (_SCREEN, "\x1b[4h", "x\x1b[A"),
    "80x24 in insert mode: e and a combining acute then CUU": (_SCREEN, "\x1b[4h", "e\u0301\x1b[A"),
}


def event_instructions(src: str, name: str) -> float:
    """The fallback's instructions an iteration of EVENTS[name] (EVENT_CHILD)."""
    options, start, block = EVENTS[name]
    counts = []
    for count in EVENT_RUNS:
        code = EVENT_CHILD.format(src=src, options=options, start=start.encode(), block=block.encode(), count=count)
        counts.append(collected(code, toggle=(), hash_seed="0")[0])
    return (counts[1] - counts[0]) / (EVENT_RUNS[1] - EVENT_RUNS[0])


def core_code(src: str, corpus: str, size: int, mode: str) -> str:
    """CHILD for the core in ``mode`` (``sized``: render mode at 80x24)."""
    options = {"mode": mode} if mode != "sized" else {"columns": 80, "rows": 24}
    decoder = f"_decoder_c.TranscriptDecoder(**{options!r})"
    return CHILD.format(src=src, here=HERE, corpus=corpus, size=size, decoder=decoder)


def instructions(src: str, corpus: str, size: int, mode: str) -> int:
    return collected(core_code(src, corpus, size, mode))[0]


def function_instructions(src: str, corpus: str, size: int, mode: str) -> tuple[int, list[tuple[str, int]]]:
    """instructions(), and the same count per function (self cost), most first."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        total = parsed_count(callgrind(core_code(src, corpus, size, mode), out))
        annotated = subprocess.run(["callgrind_annotate", "--threshold=100", out], capture_output=True, text=True,
                                   check=True).stdout
    per_function: dict[str, int] = {}
    for line in annotated.splitlines():
        match = FUNCTION_LINE.match(line)
        if match:
            name = function_name(match.group(2))
            per_function[name] = per_function.get(name, 0) + int(match.group(1).replace(",", ""))
    return total, sorted(per_function.items(), key=lambda item: -item[1])


# callgrind_annotate's lines "1,234 (5.67%)  file:function [object]" (or without the share)
FUNCTION_LINE = re.compile(r"\s*([\d,]+)\s+(?:\(\s*[\d.]+%\)\s+)?\S*?:(\S+)(?:\s+\[.*\])?\s*$")


def function_name(symbol: str) -> str:
    """A symbol as the source names it: Cython's __pyx_f_<len>acp_transcript_<len>_decoder_c_<len>Class_method
    as Class.method (a module function as its name), GCC's clones (.part.0, .constprop.0) as the function."""
    symbol = re.sub(r"\.(?:part|constprop|isra|cold|lto_priv)\.\d+", "", symbol)
    match = re.match(r"__pyx_f_\d+acp_transcript_\d+_decoder_c_(.*)", symbol)
    if not match:
        return symbol
    rest = match.group(1)
    length = re.match(r"(\d+)", rest)
    if length:
        digits = length.group(1)
        start = len(digits)
        return rest[start:start + int(digits)] + "." + rest[start + int(digits) + 1:]
    return rest


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


def collected(code: str, src: str | None = None, toggle: str | tuple[str, ...] = "*TranscriptDecoder_*decode",
              hash_seed: str | None = None) -> tuple[int, str]:
    """Instructions inside decode() (or the functions ``toggle`` names; none: the whole process) while
    ``code`` runs (importing the core from ``src`` if given, with PYTHONHASHSEED ``hash_seed`` if given), and
    what it printed."""
    with tempfile.TemporaryDirectory() as tmp:
        result = callgrind(code, os.path.join(tmp, "callgrind.out"), src, toggle, hash_seed)
    return parsed_count(result), result.stdout


def callgrind(code: str, out: str, src: str | None = None,
              toggle: str | tuple[str, ...] = "*TranscriptDecoder_*decode",
              hash_seed: str | None = None) -> subprocess.CompletedProcess[str]:
    """``code`` run under callgrind, its profile written to ``out`` (collected() says what the rest means)."""
    env = dict(os.environ)
    if src:
        env["PYTHONPATH"] = src
    if hash_seed is not None:
        env["PYTHONHASHSEED"] = hash_seed
    # decode() only by default (Cython names its wrapper ..._TranscriptDecoder_<n>decode)
    toggles = [f"--toggle-collect={name}" for name in ((toggle,) if isinstance(toggle, str) else toggle)]
    return subprocess.run(
        ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *toggles, sys.executable, "-c", code],
        capture_output=True, text=True, check=True, env=env,
    )


def parsed_count(result: subprocess.CompletedProcess[str]) -> int:
    """The instructions callgrind says it collected."""
    match = re.search(r"Collected : (\d+)", result.stderr)
    if match is None:
        raise RuntimeError(result.stderr[-2000:])
    return int(match.group(1))


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
    parser.add_argument("--events", help="comma-separated pieces of EVENTS names (\"all\": every one): the "
                        "fallback's instructions an iteration; --src may name two builds, comma-separated")
    parser.add_argument("--functions", type=int, metavar="N", help="the N functions each corpus spends the most "
                        "instructions in, per input byte")
    args = parser.parse_args()
    if args.events:
        sources = args.src.split(",")
        print(f"the fallback's instructions an iteration (callgrind, the process at {EVENT_RUNS[1]} less at "
              f"{EVENT_RUNS[0]} iterations), from {', '.join(sources)}")
        ratio = len(sources) == 2
        print("| input | " + " | ".join(sources) + (" | ratio |\n|---|---|---|---|" if ratio else " |\n|---|---|"))
        for name in EVENTS:
            if args.events == "all" or any(piece in name for piece in args.events.split(",")):
                counts = [event_instructions(src, name) for src in sources]
                ratio = f" | {counts[0] / counts[1]:.2f}x" if len(counts) == 2 else ""
                print(f"| {name} | " + " | ".join(f"{count:,.0f}" for count in counts) + ratio + " |", flush=True)
        return
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
    if args.functions:
        print(f"instructions per input byte by function (self cost), {args.size} bytes in 4 KiB chunks, core from "
              f"{args.src}")
        print("| corpus | mode | function | instructions/byte | share |\n|---|---|---|---|---|")
        for corpus in names:
            for mode in args.modes.split(","):
                total, functions = function_instructions(args.src, corpus, args.size, mode)
                for name, count in functions[: args.functions]:
                    print(f"| {corpus} | {mode} | {name} | {count / args.size:.2f} | {count / total:.1%} |")
                rest = sum(count for _, count in functions[args.functions :])
                print(f"| {corpus} | {mode} | (the rest) | {rest / args.size:.2f} | {rest / total:.1%} |")
                print(f"| {corpus} | {mode} | (all) | {total / args.size:.2f} | 100% |", flush=True)
        return
    print(f"instructions per input byte, {args.size} bytes in 4 KiB chunks, core from {args.src}")
    print("| corpus | mode | instructions/byte |\n|---|---|---|")
    for corpus in names:
        for mode in args.modes.split(","):
            count = instructions(args.src, corpus, args.size, mode)
            print(f"| {corpus} | {mode} | {count / args.size:.2f} |", flush=True)


if __name__ == "__main__":
    main()
