"""decode() alone, for two or more builds of the core (or of the fallback, ``--impl py``) compared in one sitting: wall clock on a shared VM
moves by 20-50% between runs, so builds are timed alternately, each in its own process, and the best
of each is kept.

    python benchmarks/ab.py --src OLD/src --src src [--mode render|strip|sized] [--size MB] [--rounds 2]
                            [--impl c|py] [--corpora NAME,...]

OLD is a worktree of another commit built in place (``git worktree add OLD <commit>`` and
``python setup.py build_ext --inplace`` there). Each process decodes ``--size`` MB of every corpus
(benchmarks/corpora.py) in 4 KiB chunks cut beforehand, best of 7, outputs dropped: ``throughput.py``'s
loop without its slicing and join, so that only ``decode()`` differs between the builds. Mode ``sized`` is
render mode on an 80x24 screen (SPEC 2.8), as in instructions.py. The fallback needs no build
(``git archive <commit> src | tar -x -C OLD`` is enough); instructions.py counts only the core, so this is
where a change to the fallback is measured (``--impl py --size 1``: best of 3).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

CHILD = r"""
import sys, time
sys.path.insert(0, {src!r})
sys.path.insert(0, {here!r})
import corpora
from acp_transcript import {module} as implementation
everything = {{**corpora.CORPORA, **corpora.SHAPES}}
for name in {names!r}:
    data = everything[name]({size})
    chunks = [data[i : i + 4096] for i in range(0, len(data), 4096)]
    best = float("inf")
    for _ in range({repeat}):
        decoder = implementation.TranscriptDecoder(**{options!r})
        start = time.perf_counter()
        for chunk in chunks:
            decoder.decode(chunk)
        decoder.decode(b"", final=True)
        best = min(best, time.perf_counter() - start)
    print(name, len(data) / best / 1e6)
"""


def main() -> None:
    sys.path.insert(0, HERE)
    import corpora

    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--src", action="append", required=True, help="a directory acp_transcript imports from")
    parser.add_argument("--mode", default="render", choices=["render", "strip", "sized"])
    parser.add_argument("--size", type=int, default=8, help="MB of each corpus")
    parser.add_argument("--rounds", type=int, default=2, help="times each build runs, alternating")
    parser.add_argument("--impl", default="c", choices=["c", "py"],
                        help="the compiled core (best of 7) or the fallback (best of 3)")
    parser.add_argument("--corpora", help="comma-separated names from corpora.CORPORA and corpora.SHAPES "
                        "(default: every corpus of CORPORA)")
    args = parser.parse_args()
    names = args.corpora.split(",") if args.corpora else list(corpora.CORPORA)
    module, repeat = ("_decoder_c", 7) if args.impl == "c" else ("_decoder_py", 3)
    options = {"mode": args.mode} if args.mode != "sized" else {"columns": 80, "rows": 24}
    best: dict[str, dict[str, float]] = {src: {} for src in args.src}
    for _ in range(args.rounds):
        for src in args.src:
            code = CHILD.format(src=os.path.abspath(src), here=HERE, size=args.size * 1_000_000, options=options,
                                module=module, repeat=repeat, names=names)
            result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            for line in result.stdout.splitlines():
                name, rate = line.rsplit(" ", 1)
                best[src][name] = max(best[src].get(name, 0.0), float(rate))
    print(f"{module}: decode() MB/s, mode {args.mode}, {args.size} MB per corpus in 4 KiB chunks, best of {repeat} x "
          f"{args.rounds} rounds")
    print("| build | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for src in args.src:
        print(f"| {src} | " + " | ".join(f"{best[src][name]:,.{0 if args.impl == 'c' else 1}f}" for name in names) + " |")


if __name__ == "__main__":
    main()
