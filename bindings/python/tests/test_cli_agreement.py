"""The Python batch call gives exactly what `smskit validate --format jsonl` gives, field by field,
on the project's samples and oracle fixtures; and both agree with the oracle (PyPI phonenumbers
9.0.43, whose answers parse.tsv and e164.tsv record)."""

from __future__ import annotations

import csv
import json
import subprocess

import pytest

from conftest import FIXTURES, SAMPLES, read_tsv

# Python field -> CLI JSONL field.
FIELDS = {"error": "error", "e164": "e164", "possibility": "possible", "is_valid": "valid", "type": "type",
          "region": "region", "fictional": "fictional"}


def run_cli(cli: str, arguments: list[str], stdin: bytes | None = None) -> list[dict]:
    done = subprocess.run([cli, "validate", "--format", "jsonl", "--no-progress", *arguments], input=stdin,
                          capture_output=True, check=True, timeout=600)
    return [json.loads(line) for line in done.stdout.decode().splitlines()]


def compare(results, records: list[dict], numbers: list[str]) -> None:
    assert len(records) == len(numbers) == len(results)
    columns = results.to_pydict()
    mismatches = []
    for i, record in enumerate(records):
        assert record["input"] == numbers[i], f"the CLI read row {i} as {record['input']!r}"
        for ours, theirs in FIELDS.items():
            if columns[ours][i] != record[theirs]:
                mismatches.append((numbers[i], ours, columns[ours][i], record[theirs]))
    assert not mismatches, f"{len(mismatches)} differences, first: {mismatches[:5]}"


def test_samples_numbers_csv(engine, cli):
    path = SAMPLES / "numbers.csv"
    with open(path, encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    numbers = [row["number"] for row in rows]
    regions = [row["region"] or None for row in rows]
    results = engine.check_many(numbers, regions=regions)
    compare(results, run_cli(cli, [str(path)]), numbers)
    assert sum(results.column("is_valid")) > len(rows) // 2


def _representable(text: str) -> bool:
    # A TSV cell without quoting: no tab, line break or quote; no surrounding space the reader trims.
    return not any(c in text for c in "\t\n\r\"") and text == text.strip(" ")


def test_parse_fixture(engine, cli, tmp_path):
    """168k free-form inputs with per-row default regions (ZZ: none)."""
    rows = read_tsv(FIXTURES / "parse.tsv", escaped=True)
    kept = [row for row in rows if _representable(row["input"])]
    assert len(kept) > 0.9 * len(rows)
    numbers = [row["input"] for row in kept]
    regions = [row["region"] for row in kept]
    results = engine.check_many(numbers, regions=regions)
    table = tmp_path / "parse-input.tsv"
    table.write_text("number\tregion\n" + "".join(f"{x}\t{r}\n" for x, r in zip(numbers, regions)), encoding="utf-8")
    compare(results, run_cli(cli, [str(table), "--column", "number", "--region-column", "region"]), numbers)


def test_e164_fixture_through_stdin(engine, cli):
    rows = read_tsv(FIXTURES / "e164.tsv")
    numbers = [row["input"] for row in rows]
    results = engine.check_many(numbers)
    compare(results, run_cli(cli, [], stdin=("\n".join(numbers) + "\n").encode()), numbers)


@pytest.mark.parametrize("fixture", ["parse.tsv", "e164.tsv"])
def test_oracle(engine, fixture):
    """Every row of the oracle fixture, inputs with tabs and line breaks included."""
    rows = read_tsv(FIXTURES / fixture, escaped=fixture == "parse.tsv")
    numbers = [row["input"] for row in rows]
    regions = [row["region"] for row in rows] if fixture == "parse.tsv" else None
    results = engine.check_many(numbers, regions=regions)
    region_field = "number_region" if fixture == "parse.tsv" else "region"
    mismatches = []
    for row, r in zip(rows, results):
        expected = (row["error"] or None, row["e164"] or None, row["possible"] or None,
                    row["valid"] == "true", row["type"] or None, row[region_field] or None)
        actual = (r.error, r.e164, r.possibility and r.possibility.value, r.is_valid, r.type and r.type.value, r.region)
        if expected != actual:
            mismatches.append((row["input"], expected, actual))
    assert not mismatches, f"{len(mismatches)} of {len(rows)} differ, first: {mismatches[:3]}"
