"""Recipes for running acp-transcript inside engines that users already operate (SPEC 6).

Each function imports its engine only when called (install the matching extra: ``acp-transcript[dask]``,
``[duckdb]``, ``[spark]``); every one hands the engine whole Arrow batches, which ``sanitize_arrow`` decodes
with one decoder and the GIL released, so the engine's threads or workers scale with cores.

DuckDB (one machine, the cheapest per core)::

    con = duckdb.connect()
    register_duckdb(con)                     # SQL function sanitize(BLOB or VARCHAR) -> VARCHAR
    con.sql("COPY (SELECT id, sanitize(log) AS text FROM 'logs.parquet') TO 'clean.parquet'")

Dask (a cluster)::

    df = dask.dataframe.read_parquet("logs/*.parquet", dtype_backend="pyarrow")
    sanitize_dask(df, "log", "text").to_parquet("clean/")

Spark (the executors' Python, ``PYSPARK_PYTHON``, needs acp-transcript and pyarrow installed)::

    sanitize_spark(spark.read.parquet("logs/"), "log", "text").write.parquet("clean/")
"""

from __future__ import annotations

from typing import Any

from ._decoder import sanitize_arrow

__all__ = ["register_duckdb", "sanitize_dask", "sanitize_pandas_column", "sanitize_spark"]


def _pyarrow_strings(values: Any, **options: Any) -> Any:
    """``sanitize_arrow`` as a pyarrow ``large_string`` array (the compiled core returns a capsule object)."""
    import pyarrow as pa

    result = sanitize_arrow(values, **options)
    return result if isinstance(result, pa.Array) else pa.array(result)


# ---------------------------------------------------------------------- DuckDB


def register_duckdb(connection: Any, name: str = "sanitize", **options: Any) -> Any:
    """Register ``name(BLOB)`` and ``name(VARCHAR)`` -> ``VARCHAR`` on a DuckDB connection as an Arrow UDF:
    DuckDB passes whole vectors as Arrow arrays (``type="arrow"``), so there is no per-row Python call, and
    nulls stay null. Returns the connection."""
    import duckdb

    def udf(values: Any) -> Any:
        return _pyarrow_strings(values, **options)

    for suffix, parameter in (("", duckdb.sqltype("BLOB")), ("_text", duckdb.sqltype("VARCHAR"))):
        connection.create_function(
            name + suffix, udf, [parameter], duckdb.sqltype("VARCHAR"), type="arrow", null_handling="special",
            side_effects=False,
        )
    return connection


# ---------------------------------------------------------------------- pandas / Dask


def sanitize_pandas_column(frame: Any, column: str, output: str | None = None, **options: Any) -> Any:
    """A pandas DataFrame with ``column`` (bytes or str values, or an Arrow-backed column) sanitized into
    ``output`` (default: in place) as an Arrow-backed ``large_string`` column; nulls stay null."""
    import pandas as pd
    import pyarrow as pa

    series = frame[column]
    values = pa.array(series.array) if hasattr(series.array, "__arrow_array__") else pa.array(series.tolist())
    if pa.types.is_null(values.type):  # an all-null partition
        values = values.cast(pa.large_binary())
    result = _pyarrow_strings(values, **options)
    frame = frame.copy()
    frame[output or column] = pd.Series(pd.arrays.ArrowExtensionArray(result), index=frame.index)
    return frame


def sanitize_dask(frame: Any, column: str, output: str | None = None, **options: Any) -> Any:
    """A Dask DataFrame with ``column`` sanitized, partition by partition (``map_partitions``): each
    partition is one ``sanitize_arrow`` call on its Arrow buffers, on whatever worker holds it."""
    import pandas as pd
    import pyarrow as pa

    meta = frame._meta.copy()
    meta[output or column] = pd.Series([], dtype=pd.ArrowDtype(pa.large_string()))
    return frame.map_partitions(sanitize_pandas_column, column, output, meta=meta, **options)


# ---------------------------------------------------------------------- Spark


def sanitize_spark(frame: Any, column: str, output: str | None = None, **options: Any) -> Any:
    """A Spark DataFrame with ``column`` (binary or string) sanitized into ``output`` (default: in place),
    with ``mapInArrow``: every executor task gets Arrow record batches and returns them with the column
    sanitized, so there is no per-row Python call."""
    import pyarrow as pa
    from pyspark.sql.types import StringType, StructField, StructType

    target = output or column
    fields = [f for f in frame.schema.fields if f.name != target] + [StructField(target, StringType(), True)]
    schema = StructType(fields)
    names = [f.name for f in fields]

    def batches(iterator: Any) -> Any:
        for batch in iterator:
            columns = {name: batch.column(name) for name in batch.schema.names}
            # Spark's Arrow string type is "string" (int32 offsets): cast the large_string result back.
            columns[target] = _pyarrow_strings(batch.column(column), **options).cast(pa.string())
            yield pa.RecordBatch.from_arrays([columns[name] for name in names], names=names)

    return frame.mapInArrow(batches, schema)
