#!/usr/bin/env python3
"""Generate Sources/CPhoneNumberCarrierTables/carrier_tables.c: libphonenumber's original carrier
names by E.164 prefix and language (PhoneNumberToCarrierMapper's data), and the regions whose
metadata sets mobileNumberPortableRegion, as constant C arrays read in place by the
PhoneNumberCarriers module.

    pip install -r tools/requirements.txt
    python3 tools/metadata/generate_carriers.py            # write the C file
    python3 tools/metadata/generate_carriers.py --check    # exit 1 if the C file is stale

Input: phonenumbers.carrierdata (CARRIER_DATA: E.164 prefix without "+" -> {locale: name}) and
the region metadata of the same package. The output is deterministic: locales, names and
entries sorted, the trie breadth first (see prefix_tables.py).
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import prefix_tables  # noqa: E402

import phonenumbers  # noqa: E402
from phonenumbers import PhoneMetadata  # noqa: E402
from phonenumbers.carrierdata import CARRIER_DATA, CARRIER_LONGEST_PREFIX  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
OUT = ROOT / "Sources" / "CPhoneNumberCarrierTables" / "carrier_tables.c"
LONGEST_PREFIX = 9  # what the Swift walk assumes (PhoneNumberCarriers/_CarrierTable.swift)
# The locales the Swift side knows by name (CarrierLocale's resolution); the data must use no other.
KNOWN_LOCALES = ["ar", "be", "en", "fa", "kk", "ko", "ru", "uk", "zh", "zh_Hant"]


def render(data: dict[str, dict[str, str]] = CARRIER_DATA, longest: int = CARRIER_LONGEST_PREFIX,
           regions=phonenumbers.SUPPORTED_REGIONS) -> str:
    """The C file for `data` (prefix -> {locale: name}) and the portable `regions` (the package's
    by default; the golden test passes small ones)."""
    prefix_tables.check_longest_prefix(data, longest, LONGEST_PREFIX)
    locales = sorted({locale for names in data.values() for locale in names})
    if locales != KNOWN_LOCALES:
        raise SystemExit(f"the data's locales {locales} are not {KNOWN_LOCALES}: update the Swift side and this list")
    locale_index = {locale: i for i, locale in enumerate(locales)}
    names = sorted({name for by_locale in data.values() for name in by_locale.values()})
    name_index = {name: i for i, name in enumerate(names)}
    entries = sorted({tuple(sorted((locale_index[l], name_index[n]) for l, n in d.items())) for d in data.values()})
    entry_index = {entry: i for i, entry in enumerate(entries)}

    def entry_of(by_locale: dict[str, str]) -> int:
        return entry_index[tuple(sorted((locale_index[l], name_index[n]) for l, n in by_locale.items()))]

    nodes = prefix_tables.build_trie({prefix: entry_of(d) for prefix, d in data.items()})
    entry_offsets, entry_locales, entry_names = [0], [], []
    for entry in entries:
        entry_locales += [l for l, _ in entry]
        entry_names += [n for _, n in entry]
        entry_offsets.append(len(entry_locales))
    pool, name_offsets = prefix_tables.c_string_pool("names", names)
    if name_offsets[-1] > 0xFFFFFFFF or len(names) > 0xFFFF:
        raise SystemExit("names do not fit the table's integer widths")

    portable = [0] * 85  # bit (a * 26 + b) for region "AB"
    portable_regions = []
    for region in sorted(regions):
        metadata = PhoneMetadata.metadata_for_region(region, None)
        if metadata is not None and metadata.mobile_number_portable_region:
            if len(region) != 2 or not region.isalpha():
                raise SystemExit(f"unexpected portable region {region!r}")
            bit = (ord(region[0]) - 65) * 26 + ord(region[1]) - 65
            portable[bit >> 3] |= 1 << (bit & 7)
            portable_regions.append(region)

    out = [prefix_tables.header("tools/metadata/generate_carriers.py", "phonenumbers.carrierdata and the regions' mobileNumberPortableRegion")]
    out.append(f"// {len(data)} prefixes, {len(nodes)} trie nodes, {len(entries)} entries, {len(names)} names, {len(locales)} locales.\n")
    out.append('\n#include "CPhoneNumberCarrierTables.h"\n\n')
    out.append(prefix_tables.c_nodes("smskit_carrier_node", "nodes", nodes))
    out.append("\n// Entry i is the pairs (entry_locales[k], entry_names[k]) for k in entry_offsets[i] ..< entry_offsets[i + 1],\n// sorted by locale index.\n")
    out.append(prefix_tables.c_array("uint16_t", "entry_offsets", entry_offsets))
    out.append(prefix_tables.c_array("uint8_t", "entry_locales", entry_locales))
    out.append(prefix_tables.c_array("uint16_t", "entry_names", entry_names))
    out.append("\n// Name i is names[name_offsets[i] ..< name_offsets[i + 1] - 1], UTF-8, NUL-terminated.\n")
    out.append(prefix_tables.c_array("uint32_t", "name_offsets", name_offsets))
    out.append(pool)
    out.append(f"\n// Regions with mobileNumberPortableRegion, bit (a - 'A') * 26 + (b - 'A') for region \"ab\":\n")
    for i in range(0, len(portable_regions), 24):
        out.append("// " + " ".join(portable_regions[i : i + 24]) + "\n")
    out.append(prefix_tables.c_array("uint8_t", "portable", portable))
    locale_list = ", ".join(f'"{l}"' for l in locales)
    out.append(f"""
const struct smskit_carrier_node *smskit_carrier_nodes(void) {{ return nodes; }}
uint32_t smskit_carrier_node_count(void) {{ return {len(nodes)}; }}
const uint16_t *smskit_carrier_entry_offsets(void) {{ return entry_offsets; }}
const uint8_t *smskit_carrier_entry_locales(void) {{ return entry_locales; }}
const uint16_t *smskit_carrier_entry_names(void) {{ return entry_names; }}
uint32_t smskit_carrier_entry_count(void) {{ return {len(entries)}; }}
const uint32_t *smskit_carrier_name_offsets(void) {{ return name_offsets; }}
const unsigned char *smskit_carrier_names(void) {{ return names; }}
uint32_t smskit_carrier_name_count(void) {{ return {len(names)}; }}
const uint8_t *smskit_carrier_portable_regions(void) {{ return portable; }}
uint32_t smskit_carrier_portable_region_count(void) {{ return {len(portable_regions)}; }}
const char *smskit_carrier_upstream_version(void) {{ return "{prefix_tables.upstream_version()}"; }}
// The locales in index order: {locale_list}.
""")
    return "".join(out)


if __name__ == "__main__":
    sys.exit(prefix_tables.main(OUT, render, __doc__))
