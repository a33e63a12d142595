"""Memory a decoder keeps, measured (the memory rows of the bounded-cost audit):

    python benchmarks/memory.py [--impl c|py]

Each case runs in its own process and prints the peak RSS during the run and the RSS after it (the decoder
still alive, garbage collected): what one decoder costs between calls.

- lines that grew and shrank: 200 lines each grown to 65 536 cells by REP, then cut back to one cell;
- one 60 MB chunk: a single decode() call of 60 MB (then final=True);
- 50 MB of LF with live_lines=2**40: the window is bounded by max_live_cells lines whatever live_lines says;
- one 1 MB call of huge REPs of é: 114 M characters of text, staged as cells a piece at a time in round 27,
  written as bytes straight into the str the call returns since round 28;
- one sanitize_batch item of 256 KiB of huge REPs of é: 30 M characters, handed over as the str they were
  written into since round 28 (before: copied through the batch's cells into a str of its own);
- one 1 MB call of huge REPs of 中: 102 M characters of text (two bytes each in the str), cells a piece at a
  time, each piece a str joined at the end until round 28 (the text twice at peak), written into the str
  the call returns since round 29;
- one sanitize_batch item of 256 KiB of huge REPs of 中: 27 M characters, staged whole as cells, copied into
  the batch's cells and then into a str until round 28, written into its str a piece at a time since round 29;
- one sanitize_arrow value of the same (77 MB of UTF-8), staged the same way until round 28, its UTF-8 written
  a piece at a time since round 29 (needs pyarrow, whose import is in the peak: the same case with an empty
  value reads about 108 MB);
- the alternate screen left after 300 lines of 3,000 cells, three times: the line buffers a window keeps for
  its next lines are at most SPARE_CELLS cells (256 KiB) however many lines it had (round 60).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import gc, json, resource
from acp_transcript import {module} as impl
case = {case!r}
decoder = impl.TranscriptDecoder(**({{"live_lines": 2**40}} if case == "lf" else {{}}))
if case == "grow":
    line = b"x" + b"\x1b[1024b" * 64 + b"\r\x1b[1C\x1b[K\n"
    for _ in range(2):
        decoder.decode(line * 200)
elif case == "chunk":
    decoder.decode(b"y\xc3\xa9" * (20 << 20))
    decoder.decode(b"", final=True)
elif case == "lf":
    for _ in range(50):
        decoder.decode(b"\n" * (1 << 20))
elif case == "batch":
    (text,) = impl.sanitize_batch(["\u00e9\x1b[1023b\n".encode() * (256 * 1024 // 9)])  # 30 M characters out
    del text
elif case == "amplified":
    text = decoder.decode("\u00e9\x1b[1023b\n".encode() * 111111, final=True)  # 1 MB in: 114 M characters out
    del text
elif case == "batch-wide":
    (text,) = impl.sanitize_batch(["\u4e2d\x1b[1023b\n".encode() * (256 * 1024 // 10)])  # 27 M characters out
    del text
elif case == "arrow-wide":
    import pyarrow
    values = impl.sanitize_arrow(pyarrow.array(["\u4e2d\x1b[1023b\n".encode() * (256 * 1024 // 10)]))
    del values
elif case == "spares":
    for _ in range(3):  # the alternate screen: 300 lines of 3,000 cells, then left (their buffers go to the spares)
        decoder.decode(b"\x1b[?1049h" + (b"z" * 3000 + b"\r\n") * 300 + b"\x1b[?1049l")
elif case == "wide":
    text = decoder.decode("\u4e2d\x1b[1023b\n".encode() * 100000, final=True)  # 1 MB in: 102 M characters out
    del text
gc.collect()
print(json.dumps({{"peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "after": int(open("/proc/self/statm").read().split()[1]) * 4096 / (1 << 20)}}))
"""

CASES = {"grow": "lines that grew and shrank", "chunk": "one 60 MB chunk", "lf": "50 MB of LF, live_lines=2**40",
         "amplified": "one 1 MB call of huge REPs of é (114 M characters of text)",
         "batch": "one sanitize_batch item of 256 KiB of huge REPs of é (30 M characters)",
         "wide": "one 1 MB call of huge REPs of 中 (102 M characters of text)",
         "batch-wide": "one sanitize_batch item of 256 KiB of huge REPs of 中 (27 M characters)",
         "arrow-wide": "one sanitize_arrow value of 256 KiB of huge REPs of 中 (77 MB of UTF-8)",
         "spares": "the alternate screen left after 300 lines of 3,000 cells, three times"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--impl", choices=("c", "py"), default="c")
    args = parser.parse_args()
    module = "_decoder_c" if args.impl == "c" else "_decoder_py"
    print(f"{module}: | case | peak RSS | RSS after, decoder alive |")
    print("|---|---|---|")
    for case, title in CASES.items():
        out = subprocess.run([sys.executable, "-c", CHILD.format(module=module, case=case)],
                             capture_output=True, text=True, check=True).stdout
        r = json.loads(out)
        print(f"| {title} | {r['peak']:.0f} MB | {r['after']:.0f} MB |", flush=True)


if __name__ == "__main__":
    main()
