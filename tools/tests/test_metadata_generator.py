"""tools/metadata/generate_metadata.py (and schema.py, regex_compiler.py, unicode_tables.py) on
three entities: Switzerland, Italy (leading zeros) and the non-geographic +800."""
from __future__ import annotations

import pytest

from conftest import check_golden

generate_metadata = pytest.importorskip("generate_metadata")  # needs phonenumbers (tools/requirements.txt)
import schema  # noqa: E402

FILES = ["Metadata.swift", "MetadataLayout.swift", "UnicodeTables.swift", "phone_number_tables.c"]


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    out = tmp_path_factory.mktemp("metadata")
    generate_metadata.main(["--regions", "CH,IT,001:800", "--out-dir", str(out)])
    return out


@pytest.mark.parametrize("name", FILES)
def test_output_matches_golden(generated, name):
    check_golden(f"metadata/{name}", generated / name)


def test_region_lines_have_the_schema_fields(generated):
    text = (generated / "Metadata.swift").read_text(encoding="utf-8")
    table = text.split('static let regionTable: StaticString = #"""\n')[1].split('\n"""#')[0]
    lines = table.split("\n")
    assert [line.split("|")[0] for line in lines] == ["=CH", "=IT", "=001"]
    assert all(len(line.split("|")) == len(schema.REGION_FIELDS) for line in lines)


def test_record_refuses_missing_and_unknown_fields():
    values = {f.name: 0 for f in schema.FORMAT_FIELDS}
    assert schema.record(schema.FORMAT_FIELDS, values) == [0] * len(schema.FORMAT_FIELDS)
    del values["pattern"]
    with pytest.raises(ValueError, match="missing \\['pattern'\\]"):
        schema.record(schema.FORMAT_FIELDS, values)
    values.update(pattern=0, extra=1)
    with pytest.raises(ValueError, match="unexpected \\['extra'\\]"):
        schema.record(schema.FORMAT_FIELDS, values)


def test_field_names_are_unique():
    for fields in (schema.REGION_FIELDS, schema.FORMAT_FIELDS):
        names = [f.name for f in fields]
        assert len(names) == len(set(names))
        assert all(f.kind in ("int", "bool", "string") for f in fields)
