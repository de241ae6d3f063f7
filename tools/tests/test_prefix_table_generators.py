"""tools/metadata/generate_timezones.py and generate_carriers.py (through prefix_tables.py): their
output on a small input is the golden file, the trie they write maps every prefix of the real
data to its value and nothing else to one, and --check reports a stale file."""
from __future__ import annotations

import re

import generate_carriers
import generate_timezones
import prefix_tables
from conftest import check_golden

TIMEZONES = {
    "1": ("America/New_York", "America/Chicago"),
    "1201": ("America/New_York",),
    "41": ("Europe/Zurich",),
    "4144": ("Europe/Zurich",),
    "61": ("Australia/Sydney", "Australia/Perth"),
}

# One name per locale the Swift side knows (the generator insists on all of them).
CARRIERS = {
    "3519": {"en": "MEO"},
    "35191": {"en": "Vodafone", "ru": "Водафон"},
    "7700": {"kk": "Beeline", "ru": "Билайн"},
    "9891": {"ar": "همراه اول", "fa": "همراه اول"},
    "37529": {"be": "МТС"},
    "8210": {"ko": "SK텔레콤"},
    "38050": {"uk": "Vodafone"},
    "8613": {"zh": "中国移动", "zh_Hant": "中國移動"},
}


def test_timezones_match_golden(tmp_path):
    out = tmp_path / "timezone_tables.c"
    out.write_text(generate_timezones.render(TIMEZONES, 9, {52, 54, 55}))
    check_golden("prefix_tables/timezone_tables.c", out)


def test_carriers_match_golden(tmp_path):
    out = tmp_path / "carrier_tables.c"
    out.write_text(generate_carriers.render(CARRIERS, 9, ["GB", "PT", "US"]))
    check_golden("prefix_tables/carrier_tables.c", out)


def parse_nodes(text: str) -> list[tuple[int, int, int]]:
    body = re.search(r"nodes\[\d+\] = \{(.*?)\n\};", text, re.S).group(1)
    return [tuple(map(int, n)) for n in re.findall(r"\{(\d+), (\d+), (\d+)\}", body)]


def walk(nodes, digits: str) -> int:
    """The value + 1 stored at `digits` (0 when no prefix ends there), as the Swift side walks."""
    node = 0
    for d in map(int, digits):
        first, mask, _ = nodes[node]
        if not mask >> d & 1:
            return 0
        node = first + bin(mask & ((1 << d) - 1)).count("1")
    return nodes[node][2]


def test_trie_holds_exactly_the_real_prefixes():
    data = generate_timezones.TIMEZONE_DATA
    lists = sorted(set(data.values()))
    nodes = parse_nodes(generate_timezones.render())
    for prefix, zones in data.items():
        assert walk(nodes, prefix) == lists.index(zones) + 1, prefix
    ends = sum(1 for node in nodes if node[2])
    assert ends == len(data)


def test_string_pool_offsets_end_with_its_size():
    text, offsets = prefix_tables.c_string_pool("names", ["a", "bé", ""])
    assert offsets == [0, 2, 6, 7]
    assert "names[7]" in text


def test_check_mode_reports_a_stale_file(tmp_path):
    out = tmp_path / "timezone_tables.c"
    render = lambda: generate_timezones.render(TIMEZONES, 9, set())  # noqa: E731
    assert prefix_tables.main(out, render, generate_timezones.__doc__, []) == 0
    assert prefix_tables.main(out, render, generate_timezones.__doc__, ["--check"]) == 0
    out.write_text("stale\n")
    assert prefix_tables.main(out, render, generate_timezones.__doc__, ["--check"]) == 1
