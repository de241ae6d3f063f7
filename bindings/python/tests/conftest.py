"""Shared fixtures: the repository, the engine, the `smskit` CLI and the oracle fixtures."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import smskit

REPO = Path(__file__).resolve().parents[3]
FIXTURES = REPO / "Tests" / "PhoneNumbersTests" / "Fixtures"
SAMPLES = REPO / "Resources" / "Samples"


@pytest.fixture(scope="session")
def engine() -> smskit.Engine:
    return smskit.Engine()


@pytest.fixture(scope="session")
def cli() -> str:
    """The `smskit` executable: $SMSKIT_CLI, else .build/debug/smskit (`swift build --product smskit`).
    Missing: a failure under CI=true, else a skip."""
    path = os.environ.get("SMSKIT_CLI") or str(REPO / ".build" / "debug" / "smskit")
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        found = shutil.which("smskit")
        if found:
            return found
        message = f"the smskit CLI is not built ({path}); run `swift build --product smskit` or set SMSKIT_CLI"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
    return path


def unescape(field: str) -> str:
    """parse.tsv's escapes: \\\\, \\t, \\n, \\r."""
    if "\\" not in field:
        return field
    out, i = [], 0
    while i < len(field):
        c = field[i]
        if c == "\\" and i + 1 < len(field):
            out.append({"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}.get(field[i + 1], "\\" + field[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def read_tsv(path: Path, escaped: bool = False) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as f:
        lines = f.read().split("\n")
    header = lines[0].split("\t")
    rows = []
    for line in lines[1:]:
        if not line:
            continue
        cells = line.split("\t")
        if escaped:
            cells = [unescape(c) for c in cells]
        rows.append(dict(zip(header, cells)))
    return rows
