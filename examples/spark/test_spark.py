"""The Spark example gives the same results as `smskit validate` on the same rows (local[2]).

Run by examples/spark/run-test.sh (and .ci/python.sh with SMSKIT_SPARK=1). Needs pyspark, pyarrow,
Java 17 and the smskit package; the CLI from $SMSKIT_CLI or .build/debug/smskit.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))

pyspark = pytest.importorskip("pyspark") if os.environ.get("CI") != "true" else __import__("pyspark")
import pyarrow.parquet as pq  # noqa: E402

import validate_numbers  # noqa: E402

CLI = os.environ.get("SMSKIT_CLI") or str(REPO / ".build" / "debug" / "smskit")
FIELDS = {"error": "error", "e164": "e164", "possibility": "possible", "is_valid": "valid", "type": "type",
          "region_of_number": "region", "fictional": "fictional"}


@pytest.fixture(scope="module")
def spark():
    session = validate_numbers.spark_session("local[2]", "smskit-test")
    yield session
    session.stop()


def cli_records(arguments: list[str], stdin: bytes | None = None) -> list[dict]:
    if not os.access(CLI, os.X_OK):
        pytest.fail(f"the smskit CLI is not built ({CLI}): swift build --product smskit")
    out = subprocess.run([CLI, "validate", "--format", "jsonl", "--no-progress", *arguments], input=stdin,
                         capture_output=True, check=True).stdout
    return [json.loads(line) for line in out.decode().splitlines()]


def compare(rows: list[dict], records: list[dict], column: str) -> None:
    assert len(rows) == len(records)
    differences = [(row[column], field, row[field], record[theirs])
                   for row, record in zip(rows, records) for field, theirs in FIELDS.items()
                   # Spark reads an empty CSV cell as null; the CLI's input field is "" then.
                   if row[field] != record[theirs] or (row[column] or "") != record["input"]]
    assert not differences, f"{len(differences)} differences, first: {differences[:5]}"


def test_csv_to_parquet_matches_cli(spark, tmp_path):
    from pyspark.sql import functions as F

    samples = REPO / "Resources" / "Samples" / "numbers.csv"
    output = tmp_path / "checked.parquet"
    df = (spark.read.option("header", True).csv(str(samples))
          .withColumn("row", F.monotonically_increasing_id()).repartition(3))  # shuffled: order comes from "row"
    validate_numbers.validate(df, "number", "region").write.parquet(str(output))
    rows = sorted(pq.read_table(output).to_pylist(), key=lambda r: r["row"])
    compare(rows, cli_records([str(samples)]), "number")


def test_command_line_example(tmp_path):
    samples = REPO / "Resources" / "Samples" / "numbers.csv"
    output = tmp_path / "out.parquet"
    subprocess.run([sys.executable, str(HERE / "validate_numbers.py"), str(samples), str(output),
                    "--region-column", "region"], check=True, capture_output=True)
    table = pq.read_table(output)
    assert table.num_rows == 1000
    assert {"number", "region", "e164", "is_valid", "type", "region_of_number"} <= set(table.column_names)


def test_many_partitions_fixture_rows(spark):
    """68k E.164 fixture rows over 8 partitions, no region column."""
    from pyspark.sql import functions as F

    lines = (REPO / "Tests" / "PhoneNumbersTests" / "Fixtures" / "e164.tsv").read_text(encoding="utf-8").split("\n")[1:]
    numbers = [line.split("\t")[0] for line in lines if line]
    df = spark.createDataFrame([(n,) for n in numbers], "number string").withColumn("row", F.monotonically_increasing_id())
    rows = sorted((r.asDict() for r in validate_numbers.validate(df.repartition(8)).collect()), key=lambda r: r["row"])
    compare(rows, cli_records([], stdin=("\n".join(numbers) + "\n").encode()), "number")
