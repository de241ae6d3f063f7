#!/usr/bin/env python3
"""Validate a column of phone numbers in a Spark DataFrame with SMSKit, and write Parquet.

    python3 examples/spark/validate_numbers.py INPUT.csv OUTPUT.parquet \
        [--column number] [--region-column region] [--region US] [--master local[2]]

Each partition goes through `mapInArrow`: its Arrow batches are handed to
`smskit.Engine().check_many` whole (the string column's buffers, no Python object per row), and the
result columns are appended: error, e164, possibility, is_valid, type, region_of_number,
fictional: the fields of `smskit validate --format jsonl` ("possible" is `possibility`, "valid"
is `is_valid`, "region" is `region_of_number` so it does not clash with an input column).

In code:

    from validate_numbers import validate
    checked = validate(df, column="number", region_column="region")
    checked.write.parquet("checked.parquet")
"""

from __future__ import annotations

import argparse
import time
from typing import Iterator, Optional

_ENGINE = None  # one per Python worker process, made on first use: engines are immutable, thread-safe


def _engine():
    global _ENGINE
    if _ENGINE is None:
        import smskit

        _ENGINE = smskit.Engine()
    return _ENGINE


RESULT_FIELDS = [
    ("error", "string"),
    ("e164", "string"),
    ("possibility", "string"),
    ("is_valid", "boolean"),
    ("type", "string"),
    ("region_of_number", "string"),
    ("fictional", "string"),
]


def _check_batches(column: str, region_column: Optional[str], default_region: Optional[str]):
    def run(batches: Iterator["pyarrow.RecordBatch"]) -> Iterator["pyarrow.RecordBatch"]:  # noqa: F821
        import pyarrow as pa

        engine = _engine()
        for batch in batches:
            numbers = batch.column(column)
            regions = None
            if region_column is not None:
                # Empty or null cells: the default region (None here, as `smskit validate`).
                regions = [r or None for r in batch.column(region_column).to_pylist()]
            results = engine.check_many(numbers, default_region=default_region, regions=regions)
            columns = results.to_pydict()
            out = list(batch.columns) + [
                pa.array(columns["error"], pa.string()),
                pa.array(columns["e164"], pa.string()),
                pa.array(columns["possibility"], pa.string()),
                pa.array(columns["is_valid"], pa.bool_()),
                pa.array(columns["type"], pa.string()),
                pa.array(columns["region"], pa.string()),
                pa.array(columns["fictional"], pa.string()),
            ]
            yield pa.RecordBatch.from_arrays(out, names=batch.schema.names + [name for name, _ in RESULT_FIELDS])

    return run


def validate(df, column: str = "number", region_column: Optional[str] = None, default_region: Optional[str] = None):
    """`df` with the check's columns appended (one output row per input row, in order)."""
    from pyspark.sql.types import BooleanType, StringType, StructField, StructType

    types = {"string": StringType(), "boolean": BooleanType()}
    schema = StructType(list(df.schema.fields) + [StructField(name, types[kind], True) for name, kind in RESULT_FIELDS])
    return df.mapInArrow(_check_batches(column, region_column, default_region), schema)


def spark_session(master: str = "local[2]", app: str = "smskit-validate"):
    """A session whose Python workers can import this file (as `spark-submit --py-files` would)."""
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master(master)
        .appName(app)
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "65536")
        .getOrCreate()
    )
    spark.sparkContext.addPyFile(__file__)
    return spark


def benchmark(numbers: list, regions: list, master: str = "local[2]") -> list:
    """Rows/s of `validate` and of a plain Python `phonenumbers` UDF (parse, is_valid_number,
    number_type, format E.164) over the same DataFrame, in one Spark session; lines to print."""
    import phonenumbers
    from pyspark.sql import functions as F
    from pyspark.sql.types import BooleanType, StringType, StructField, StructType

    import tempfile

    import pyarrow as pa
    import pyarrow.parquet as pq

    spark = spark_session(master, "smskit-bench")
    rows = len(numbers)
    scratch = tempfile.mkdtemp(prefix="smskit-spark-bench-")
    pq.write_table(pa.table({"number": numbers, "region": regions}), f"{scratch}/input.parquet")
    df = spark.read.parquet(f"{scratch}/input.parquet").repartition(4).cache()
    df.count()

    def timed(frame) -> float:
        start = time.perf_counter()
        frame.write.mode("overwrite").format("noop").save()
        return time.perf_counter() - start

    def check_phonenumbers(text, region):
        try:
            number = phonenumbers.parse(text, region)
        except phonenumbers.NumberParseException:
            return (None, False, None)
        return (phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.E164),
                phonenumbers.is_valid_number(number), str(phonenumbers.number_type(number)))

    result = StructType([StructField("e164", StringType()), StructField("is_valid", BooleanType()),
                         StructField("type", StringType())])
    pn_udf = F.udf(check_phonenumbers, result)

    lines = []
    timed(validate(df, region_column="region"))  # warm up: workers start, engines load
    smskit_seconds = min(timed(validate(df, region_column="region")) for _ in range(2))
    lines.append(f"spark_smskit_mapInArrow rows={rows} rows_per_sec={rows / smskit_seconds:.0f} master={master}")
    timed(df.limit(20000).select(pn_udf("number", "region")))  # warm up the workers' metadata
    pn_seconds = timed(df.select("*", pn_udf("number", "region").alias("checked")))
    lines.append(f"spark_phonenumbers_udf rows={rows} rows_per_sec={rows / pn_seconds:.0f} master={master}")
    lines.append(f"ratio spark_smskit/spark_phonenumbers={pn_seconds / smskit_seconds:.1f}")
    spark.stop()
    import shutil

    shutil.rmtree(scratch, ignore_errors=True)
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("input", help="a CSV file with a header row")
    ap.add_argument("output", help="the Parquet directory to write")
    ap.add_argument("--column", default="number")
    ap.add_argument("--region-column", default=None)
    ap.add_argument("--region", default=None, help="default region for national numbers")
    ap.add_argument("--master", default="local[2]")
    args = ap.parse_args()
    spark = spark_session(args.master)
    # All columns as text: a number is never an integer (leading zeros, "+").
    df = spark.read.option("header", True).option("inferSchema", False).csv(args.input)
    validate(df, args.column, args.region_column, args.region).write.mode("overwrite").parquet(args.output)
    spark.stop()


if __name__ == "__main__":
    main()
