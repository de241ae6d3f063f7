"""tools/generate_fictional_ranges.py on a few rows of the real table (NANP, GB, AU)."""
from __future__ import annotations

import generate_fictional_ranges
from conftest import FIXTURES, check_golden


def test_output_matches_golden(tmp_path):
    out = tmp_path / "FictionalRanges.swift"
    assert generate_fictional_ranges.main(["--input", str(FIXTURES / "fictional_ranges.tsv"),
                                           "--output", str(out)]) == 0
    check_golden("fictional/FictionalRanges.swift", out)


def test_check_mode_reports_a_stale_file(tmp_path):
    out = tmp_path / "FictionalRanges.swift"
    out.write_text("stale\n", encoding="utf-8")
    assert generate_fictional_ranges.main(["--check", "--input", str(FIXTURES / "fictional_ranges.tsv"),
                                           "--output", str(out)]) == 1
