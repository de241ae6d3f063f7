"""tools/gsm/generate_tables.py on a small synthetic CSV set (the real one lives outside the
repository, ../shared/data/gsm0338): a few cells per table, one precomposed letter (so NFC pairs
are derived) and one letter with a singleton canonical equivalent (U+212B ANGSTROM SIGN)."""
from __future__ import annotations

import generate_tables
from conftest import check_golden

DEFAULT = {0x00: "@", 0x05: "00E9", 0x0A: "LF", 0x0D: "CR", 0x0E: "00C5", 0x1B: "SP", 0x20: "SP",
           0x22: "QM", 0x30: "0", 0x41: "A", 0x61: "a"}


def write_csv(path, cells):
    rows = ['"6.2.1","0","1","2","3","4","5","6","7"']
    for low in range(16):
        row = [f'"{low:X}"'] + [f'"{cells.get(high * 16 + low, "")}"' for high in range(8)]
        rows.append(",".join(row))
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")


def test_output_matches_golden(tmp_path):
    data = tmp_path / "gsm0338"
    data.mkdir()
    for nli, _, lock, shift in generate_tables.LANGUAGES:
        if lock:
            write_csv(data / lock, DEFAULT if nli == 0 else {0x00: "@", 0x41: f"{0x0900 + nli:04X}"})
        write_csv(data / shift, {0x14: "^", 0x65: "20AC" if nli == 0 else ""})
    out = tmp_path / "_GSMTables.swift"
    generate_tables.main([str(data), "--output", str(out)])
    check_golden("gsm/_GSMTables.swift", out)
