"""Batches and engines (SPEC 6), measured: ``sanitize_batch`` and ``sanitize_arrow`` against the per-row
loop, threads against one thread, and the DuckDB and Dask recipes with 2 workers or threads against 1.

    python benchmarks/engines_bench.py [--rows 200000] [--repeat 3]

Records are cut from the real captures corpus (terminal output of ls, git log, pytest, tqdm, vim) in three
shapes: 100 B, 1 KB and 6 KB. Every figure is the best of --repeat runs; ratios come from one run on the same
data. With another process busy on the machine, the 2-against-1 rows understate the scaling: say so.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(__file__))

import pyarrow as pa  # noqa: E402
import pyarrow.parquet as pq  # noqa: E402

from corpora import real_captures  # noqa: E402

from acp_transcript import IMPLEMENTATION, TranscriptDecoder, sanitize, sanitize_arrow, sanitize_batch  # noqa: E402


def best(function, repeat: int) -> float:
    # Called at once with a lambda over the current loop's data (ruff B023 does not apply: nothing outlives
    # the iteration).
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return min(times)


def records(size: int, rows: int) -> list[bytes]:
    corpus = real_captures(size * 997 + 1)
    return [corpus[(i * 997) % (len(corpus) - size) :][:size] for i in range(rows)]


def threaded(function, parts: list) -> float:
    threads = [threading.Thread(target=function, args=(part,)) for part in parts]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rows", type=int, default=200_000, help="rows of 100 B (fewer for larger records)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engines", action="store_true", help="also run the DuckDB and Dask recipes")
    parser.add_argument("--engine-mb", type=int, default=100, help="MB of records for the engine rows")
    args = parser.parse_args()
    print(f"{IMPLEMENTATION} core, Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    print("| record | rows | per-row, new decoder each (0.1) | per-row sanitize (cached) | sanitize_batch | "
          "sanitize_arrow | arrow / 0.1 loop | arrow / cached loop | batch / cached loop | arrow, 2 threads / 1 |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for size in (100, 1000, 6000):
        rows = max(args.rows * 100 // size, 2000)
        items = records(size, rows)
        array = pa.array(items, pa.binary())
        mb = sum(map(len, items)) / 1e6
        loop = best(lambda: [sanitize(item) for item in items], args.repeat)
        fresh = best(lambda: [TranscriptDecoder().decode(item, final=True) for item in items], args.repeat)
        batch = best(lambda: sanitize_batch(items), args.repeat)
        arrow = best(lambda: sanitize_arrow(array), args.repeat)
        halves = [array.slice(0, rows // 2), array.slice(rows // 2)]
        one = best(lambda: [sanitize_arrow(half) for half in halves], args.repeat)
        two = min(threaded(sanitize_arrow, halves) for _ in range(args.repeat))
        print(f"| {size} B | {rows} | {mb / fresh:.0f} MB/s ({fresh / rows * 1e6:.2f} us/row) | "
              f"{mb / loop:.0f} MB/s ({loop / rows * 1e6:.2f} us/row) | {mb / batch:.0f} MB/s | {mb / arrow:.0f} MB/s | "
              f"{fresh / arrow:.1f}x | {loop / arrow:.1f}x | {loop / batch:.1f}x | {one / two:.2f}x |", flush=True)
    if args.engines:
        engines(args)


def engines(args: argparse.Namespace) -> None:
    import dask.dataframe as dd
    import distributed
    import duckdb

    from acp_transcript.engines import register_duckdb, sanitize_dask

    print()
    print("| engine | record | rows | 1 worker/thread | 2 workers/threads | 2 / 1 |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as directory:
        for size in (100, 1000, 6000):
            rows = max(args.engine_mb * 1_000_000 // size, 2000)
            path = os.path.join(directory, f"r{size}.parquet")
            pq.write_table(pa.table({"id": range(rows), "log": pa.array(records(size, rows), pa.binary())}), path,
                           row_group_size=max(rows // 16, 1))
            mb = rows * size / 1e6
            times = []
            for threads in (1, 2):
                connection = register_duckdb(duckdb.connect(config={"threads": threads}))
                times.append(best(lambda: connection.sql(
                    f"SELECT count(*), sum(length(sanitize(log))) FROM '{path}'").fetchall(), args.repeat))
            print(f"| DuckDB | {size} B | {rows} | {mb / times[0]:.0f} MB/s | {mb / times[1]:.0f} MB/s | "
                  f"{times[0] / times[1]:.2f}x |", flush=True)
            times = []
            for workers in (1, 2):
                with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                                              dashboard_address=None, silence_logs=50) as cluster, \
                        distributed.Client(cluster):
                    # The data is loaded into the workers first (persist), so that the runs time the
                    # recipe, not Parquet reads; every run gets a graph of its own (a different but
                    # irrelevant option), because the cluster would otherwise hand back a result it has.
                    frame = dd.read_parquet(path, dtype_backend="pyarrow", split_row_groups=True).persist()
                    distributed.wait(frame)
                    sanitize_dask(frame, "log", "text")["text"].str.len().sum().compute()  # warm the workers up
                    runs = []
                    for run in range(args.repeat):
                        start = time.perf_counter()
                        sanitize_dask(frame, "log", "text", max_string_bytes=65536 + run)["text"].str.len().sum().compute()
                        runs.append(time.perf_counter() - start)
                    times.append(min(runs))
            print(f"| Dask | {size} B | {rows} | {mb / times[0]:.0f} MB/s | {mb / times[1]:.0f} MB/s | "
                  f"{times[0] / times[1]:.2f}x |", flush=True)


if __name__ == "__main__":
    main()
