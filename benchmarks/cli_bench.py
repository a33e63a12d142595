"""Command-line benchmarks: peak memory of `sanitize` on a large stream, `replay` throughput, and
`sanitize` against ansi2txt (colorized-logs) and ansifilter when they are installed.

    python benchmarks/cli_bench.py [--stream-mb 300] [--log-mb 50]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from corpora import real_captures  # noqa: E402

CLI = [sys.executable, "-m", "acp_transcript"]


def peak_rss_mb_of_children() -> float:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # KiB on Linux


def timed(argv: list[str], stdin_path: Path | None = None, stdout=subprocess.DEVNULL) -> float:
    start = time.perf_counter()
    with open(stdin_path, "rb") if stdin_path else open(os.devnull, "rb") as stdin:
        subprocess.run(argv, stdin=stdin, stdout=stdout, check=True)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--stream-mb", type=int, default=300)
    parser.add_argument("--log-mb", type=int, default=50)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        stream = Path(tmp) / "stream.bin"
        block = real_captures(1 << 20)
        with open(stream, "wb") as out:
            for _ in range(args.stream_mb):
                out.write(block)
        size = stream.stat().st_size / 1e6

        # Peak memory: one child process per measurement, so RUSAGE_CHILDREN's max is that child's.
        seconds = timed([*CLI, "sanitize"], stream)
        print(f"sanitize (render, pipe) {size:.0f} MB: {size / seconds:.1f} MB/s, "
              f"peak RSS of the children so far {peak_rss_mb_of_children():.1f} MB")
        seconds = timed([*CLI, "sanitize", str(stream)])
        print(f"sanitize (render, file) {size:.0f} MB: {size / seconds:.1f} MB/s, "
              f"peak RSS {peak_rss_mb_of_children():.1f} MB")
        seconds = timed([*CLI, "sanitize", "--mode", "strip", str(stream)])
        print(f"sanitize (strip, file)  {size:.0f} MB: {size / seconds:.1f} MB/s, "
              f"peak RSS {peak_rss_mb_of_children():.1f} MB")

        for name, argv in [("ansi2txt", ["ansi2txt"]), ("ansifilter", ["ansifilter"])]:
            if shutil.which(argv[0]) is None:
                print(f"{name}: not installed, skipped")
                continue
            seconds = timed(argv, stream)
            print(f"{name:10s} {size:.0f} MB: {size / seconds:.1f} MB/s")

        log = Path(tmp) / "log.jsonl"
        chunk = 4096
        with open(log, "w") as out:
            written = 0
            index = 0
            while written < args.log_mb * 1_000_000:
                data = block[(index * chunk) % len(block) :][:chunk]
                line = json.dumps({"jsonrpc": "2.0", "method": "session/update", "params": {
                    "sessionId": "s", "update": {"sessionUpdate": "terminal_output_chunk",
                                                 "terminalId": f"t{index % 8}",
                                                 "data": base64.b64encode(data).decode()}}}) + "\n"
                out.write(line)
                written += len(line)
                index += 1
        size = log.stat().st_size / 1e6
        seconds = timed([*CLI, "replay", "--format", "json", str(log)])
        print(f"replay {size:.0f} MB of JSONL: {size / seconds:.1f} MB/s")


if __name__ == "__main__":
    main()
