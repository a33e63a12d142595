"""SPEC 6: the engine recipes, each run locally end to end: Parquet in, Parquet out, equal to sanitize row by
row. DuckDB and Dask run in the default suite; Spark (10-30 s of JVM start) runs with ``-m spark``."""

from __future__ import annotations

import sys

import pytest

from acp_transcript import sanitize
from acp_transcript.engines import register_duckdb, sanitize_dask, sanitize_spark

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

LOGS = [b"\x1b[31mred %d\x1b[0m\r\n" % i if i % 7 else None for i in range(300)]
LOGS[1] = b"before\r\n\x1b[?1049hUI\r\nKilled\r\n"
LOGS[2] = "\u202e\U000e0041 10%\r100%".encode()
EXPECTED = [None if value is None else sanitize(value) for value in LOGS]


@pytest.fixture
def parquet_in(tmp_path):
    path = tmp_path / "logs.parquet"
    pq.write_table(pa.table({"id": list(range(len(LOGS))), "log": pa.array(LOGS, pa.binary())}), path,
                   row_group_size=50)
    return path


def test_duckdb_recipe_parquet_to_parquet(parquet_in, tmp_path):
    duckdb = pytest.importorskip("duckdb")
    out = tmp_path / "clean.parquet"
    connection = register_duckdb(duckdb.connect())
    connection.sql(f"COPY (SELECT id, sanitize(log) AS text FROM '{parquet_in}' ORDER BY id) TO '{out}'")
    table = pq.read_table(out)
    assert table.column("text").to_pylist() == EXPECTED
    texts = [None if v is None else v.decode("utf-8", "replace") for v in LOGS]
    strings = pa.table({"t": pa.array(texts, pa.string())})  # noqa: F841 (DuckDB reads it by name: FROM strings)
    assert connection.sql("SELECT sanitize_text(t) FROM strings").fetchall() == [
        (None if v is None else sanitize(v.encode()),) for v in texts]


def test_dask_recipe_on_a_two_worker_cluster(parquet_in, tmp_path):
    dd = pytest.importorskip("dask.dataframe")
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster):
        frame = dd.read_parquet(parquet_in, dtype_backend="pyarrow", split_row_groups=True)
        assert frame.npartitions > 1
        sanitize_dask(frame, "log", "text").to_parquet(tmp_path / "clean", write_index=False)
    table = pq.read_table(tmp_path / "clean").sort_by("id")
    assert table.column("text").to_pylist() == EXPECTED
    assert table.column("log").to_pylist() == LOGS  # the input column is kept


@pytest.mark.spark
# PySpark 4.3 warns about pandas 3 at start-up; mapInArrow uses no pandas.
@pytest.mark.filterwarnings("ignore:PySpark does not yet fully support pandas:FutureWarning")
def test_spark_recipe_map_in_arrow(parquet_in, tmp_path, monkeypatch):
    pyspark_sql = pytest.importorskip("pyspark.sql")
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)  # workers need acp-transcript and pyarrow too
    spark = (pyspark_sql.SparkSession.builder.master("local[2]").appName("acp-transcript-test")
             .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1").getOrCreate())
    try:
        frame = spark.read.parquet(str(parquet_in))
        sanitize_spark(frame, "log", "text").write.parquet(str(tmp_path / "clean"))
    finally:
        spark.stop()
    table = pq.read_table(tmp_path / "clean").sort_by("id")
    assert table.column("text").to_pylist() == EXPECTED
