"""Golden tests of the generators: each runs on a small input and its output must equal the
committed file under tools/tests/golden/ byte for byte.

Run:     python3 -m pytest tools/tests            (from the repository root; CI runs it in .ci/generated.sh)
Update:  SMSKIT_UPDATE_GOLDEN=1 python3 -m pytest tools/tests   (then review the diff of golden/)
"""
from __future__ import annotations

import os
import pathlib
import sys

import pytest

TOOLS = pathlib.Path(__file__).resolve().parent.parent
ROOT = TOOLS.parent
GOLDEN = pathlib.Path(__file__).resolve().parent / "golden"
FIXTURES = pathlib.Path(__file__).resolve().parent / "fixtures"

for sub in (TOOLS, TOOLS / "metadata", TOOLS / "gsm"):
    if str(sub) not in sys.path:
        sys.path.insert(0, str(sub))


def check_golden(name: str, produced: pathlib.Path) -> None:
    """`produced` must equal golden/`name`; with SMSKIT_UPDATE_GOLDEN=1 it becomes the golden file."""
    golden = GOLDEN / name
    data = produced.read_bytes()
    if os.environ.get("SMSKIT_UPDATE_GOLDEN") == "1":
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_bytes(data)
        return
    if not golden.exists():
        pytest.fail(f"no golden file {golden.relative_to(ROOT)}; run with SMSKIT_UPDATE_GOLDEN=1 and review it")
    assert data.decode("utf-8") == golden.read_text(encoding="utf-8"), \
        f"{name} differs from its golden file; if the change is intended, rerun with SMSKIT_UPDATE_GOLDEN=1"
