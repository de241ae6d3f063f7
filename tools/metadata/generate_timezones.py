#!/usr/bin/env python3
"""Generate Sources/CPhoneNumberTimeZoneTables/timezone_tables.c: libphonenumber's time zones by
E.164 prefix (PhoneNumberToTimeZonesMapper's data) as constant C arrays, read in place by the
PhoneNumberTimeZones module.

    pip install -r tools/requirements.txt
    python3 tools/metadata/generate_timezones.py            # write the C file
    python3 tools/metadata/generate_timezones.py --check    # exit 1 if the C file is stale

Input: phonenumbers.tzdata (TIMEZONE_DATA: E.164 prefix without "+" -> tuple of IANA zone names)
and phonenumberutil's geographical-mobile calling codes. The output is deterministic: zone names
sorted, zone lists sorted, the trie breadth first (see prefix_tables.py).
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import prefix_tables  # noqa: E402

import phonenumbers  # noqa: E402
from phonenumbers import phonenumberutil  # noqa: E402
from phonenumbers.tzdata import TIMEZONE_DATA, TIMEZONE_LONGEST_PREFIX  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
OUT = ROOT / "Sources" / "CPhoneNumberTimeZoneTables" / "timezone_tables.c"
LONGEST_PREFIX = 9  # what the Swift walk assumes (PhoneNumberTimeZones/_TimeZoneTable.swift)


def render(data: dict[str, tuple[str, ...]] = TIMEZONE_DATA, longest: int = TIMEZONE_LONGEST_PREFIX,
           geo_mobile_codes=phonenumberutil._GEO_MOBILE_COUNTRIES) -> str:
    """The C file for `data` (prefix -> zone names; the package's by default; the golden test
    passes a small one)."""
    prefix_tables.check_longest_prefix(data, longest, LONGEST_PREFIX)
    zones = sorted({zone for zone_list in data.values() for zone in zone_list})
    if "Etc/Unknown" in zones:
        raise SystemExit("the data names Etc/Unknown, which the Swift side reserves for 'no zone'")
    zone_index = {zone: i for i, zone in enumerate(zones)}
    lists = sorted(set(data.values()))
    list_index = {zone_list: i for i, zone_list in enumerate(lists)}

    nodes = prefix_tables.build_trie({prefix: list_index[v] for prefix, v in data.items()})
    list_offsets, list_zones = [0], []
    for zone_list in lists:
        list_zones += [zone_index[zone] for zone in zone_list]
        list_offsets.append(len(list_zones))
    pool, name_offsets = prefix_tables.c_string_pool("names", zones)
    geo_mobile = sorted(geo_mobile_codes)

    out = [prefix_tables.header("tools/metadata/generate_timezones.py", "phonenumbers.tzdata")]
    out.append(f"// {len(data)} prefixes, {len(nodes)} trie nodes, {len(lists)} zone lists, {len(zones)} zones.\n")
    out.append('\n#include "CPhoneNumberTimeZoneTables.h"\n\n')
    out.append(prefix_tables.c_nodes("smskit_tz_node", "nodes", nodes))
    out.append("\n// Zone list i is list_zones[list_offsets[i] ..< list_offsets[i + 1]], in the data's order.\n")
    out.append(prefix_tables.c_array("uint16_t", "list_offsets", list_offsets))
    out.append(prefix_tables.c_array("uint16_t", "list_zones", list_zones))
    out.append("\n// Zone i's IANA name is names[name_offsets[i] ..< name_offsets[i + 1] - 1], NUL-terminated.\n")
    out.append(prefix_tables.c_array("uint16_t", "name_offsets", name_offsets))
    out.append(pool)
    out.append("\n// Calling codes whose mobile numbers are geographical (phonenumberutil's _GEO_MOBILE_COUNTRIES).\n")
    out.append(prefix_tables.c_array("uint16_t", "geo_mobile_codes", geo_mobile))
    out.append(f"""
const struct smskit_tz_node *smskit_tz_nodes(void) {{ return nodes; }}
uint32_t smskit_tz_node_count(void) {{ return {len(nodes)}; }}
const uint16_t *smskit_tz_list_offsets(void) {{ return list_offsets; }}
const uint16_t *smskit_tz_list_zones(void) {{ return list_zones; }}
uint32_t smskit_tz_list_count(void) {{ return {len(lists)}; }}
const uint16_t *smskit_tz_name_offsets(void) {{ return name_offsets; }}
const unsigned char *smskit_tz_names(void) {{ return names; }}
uint32_t smskit_tz_zone_count(void) {{ return {len(zones)}; }}
const uint16_t *smskit_tz_geo_mobile_codes(void) {{ return geo_mobile_codes; }}
uint32_t smskit_tz_geo_mobile_code_count(void) {{ return {len(geo_mobile)}; }}
const char *smskit_tz_upstream_version(void) {{ return "{prefix_tables.upstream_version()}"; }}
""")
    return "".join(out)


if __name__ == "__main__":
    sys.exit(prefix_tables.main(OUT, render, __doc__))
