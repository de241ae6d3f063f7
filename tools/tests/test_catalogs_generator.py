"""tools/generate_catalogs.py on two small catalogs (escaping of quotes, backslashes, tabs and
invisible characters)."""
from __future__ import annotations

import generate_catalogs
from conftest import FIXTURES, check_golden


def test_output_matches_golden(tmp_path):
    out = tmp_path / "BundledCatalogs.swift"
    out.write_text(generate_catalogs.render(FIXTURES / "catalogs"), encoding="utf-8")
    check_golden("catalogs/BundledCatalogs.swift", out)
