#!/usr/bin/env python3
"""Generate Sources/CShortNumberTables/short_number_tables.c: libphonenumber's short-number
metadata (ShortNumberInfo's data, `phonenumbers.shortdata`) compiled to one DFA per region, as
constant C arrays read in place by PhoneNumbers/ShortNumbers.

    pip install -r tools/requirements.txt
    python3 tools/metadata/generate_short_numbers.py            # write the C file
    python3 tools/metadata/generate_short_numbers.py --check    # exit 1 if the C file is stale

Per region one minimized DFA (regex_compiler.build_dfa) over the national significant number whose
state labels say which descriptions match the digits read so far in full: bit i for DESCS[i]; bit
EMERGENCY_PREFIX stays set once some prefix matched the emergency pattern (libphonenumber's
lookingAt, for "connects to emergency number"). Possible lengths are masks (bit n: n digits), one
per description. The region lists of the calling codes come from COUNTRY_CODE_TO_REGION_CODE, in
its order (libphonenumber tries the regions of a shared code in that order). Deterministic: regions
sorted, DFAs renumbered depth first.
"""

from __future__ import annotations

import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import prefix_tables  # noqa: E402
from regex_compiler import build_dfa  # noqa: E402

import phonenumbers  # noqa: E402
from phonenumbers import COUNTRY_CODE_TO_REGION_CODE, PhoneMetadata  # noqa: E402
from phonenumbers.shortnumberinfo import SUPPORTED_SHORT_REGIONS  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
OUT = ROOT / "Sources" / "CShortNumberTables" / "short_number_tables.c"

# Label bit i: DESCS[i] matches in full. The Swift reader names the same bits (_ShortNumberBits).
DESCS = ["general_desc", "short_code", "toll_free", "standard_rate", "premium_rate", "emergency",
         "carrier_specific", "sms_services"]
EMERGENCY_PREFIX = len(DESCS)  # bit 8
NO_SHORT_DATA = 0xFFFF


def length_mask(desc) -> int:
    """Bit n set when n digits are a possible length; all bits when the description gives none
    (libphonenumber then skips the length test)."""
    if desc is None:
        return 0
    if not desc.possible_length:
        return 0xFFFFFFFF
    mask = 0
    for n in desc.possible_length:
        if not 0 < n < 32:
            raise SystemExit(f"possible length {n} does not fit the 32-bit masks")
        mask |= 1 << n
    return mask


def render() -> str:
    regions = sorted(SUPPORTED_SHORT_REGIONS)
    index = {r: i for i, r in enumerate(regions)}
    words: list[int] = []
    records: list[str] = []
    states = 0
    for r in regions:
        m = PhoneMetadata.short_metadata_for_region(r)
        patterns = []
        for name in DESCS:
            d = getattr(m, name)
            pattern = d.national_number_pattern if d is not None and d.national_number_pattern else None
            patterns.append((pattern, False))
        patterns.append((patterns[DESCS.index("emergency")][0], True))
        dfa = build_dfa(patterns)
        offset = len(words)
        words.append(dfa.start)
        for s in range(len(dfa.trans)):
            words.extend(dfa.trans[s])
            words.append(dfa.label[s])
        states += len(dfa.trans)
        masks = ", ".join("0x%08x" % length_mask(getattr(m, name)) for name in DESCS)
        records.append(f"    {{{{'{r[0]}', '{r[1]}'}}, {offset}, {{{masks}}}}},")
    if max(words) >= 0x10000 or len(words) >= 1 << 32:
        raise SystemExit("a DFA word does not fit 16 bits")

    by_letters = [NO_SHORT_DATA] * (26 * 26)
    for r, i in index.items():
        by_letters[(ord(r[0]) - 65) * 26 + ord(r[1]) - 65] = i
    cc_start = [0] * 1000
    cc_count = [0] * 1000
    cc_regions: list[int] = []
    for code in sorted(COUNTRY_CODE_TO_REGION_CODE):
        members = COUNTRY_CODE_TO_REGION_CODE[code]
        cc_start[code] = len(cc_regions)
        cc_count[code] = len(members)
        cc_regions.extend(index.get(r, NO_SHORT_DATA) for r in members)

    out = [prefix_tables.header("tools/metadata/generate_short_numbers.py", "phonenumbers.shortdata")]
    out.append(f"// {len(regions)} regions, {states} DFA states, {len(words)} words.\n")
    out.append('\n#include "CShortNumberTables.h"\n\n')
    out.append("// Per region: start state, then per state ten transitions and one label.\n")
    out.append(prefix_tables.c_array("uint16_t", "words", words, 22))
    out.append(f"\nstatic const struct smskit_short_region regions[{len(regions)}] = {{\n")
    out.append("\n".join(records) + "\n};\n\n")
    out.append("// Short-number region index by letters ((first - 'A') * 26 + second - 'A'), 65535 when none.\n")
    out.append(prefix_tables.c_array("uint16_t", "by_letters", by_letters, 26))
    out.append("\n// The regions of calling code c: cc_regions[cc_start[c] ..< cc_start[c] + cc_count[c]],\n")
    out.append("// in libphonenumber's order, each a short-number region index or 65535 (no short data).\n")
    out.append(prefix_tables.c_array("uint16_t", "cc_start", cc_start, 20))
    out.append(prefix_tables.c_array("uint8_t", "cc_count", cc_count, 40))
    out.append(prefix_tables.c_array("uint16_t", "cc_regions", cc_regions, 20))
    out.append(f"""
const uint16_t *smskit_short_words(void) {{ return words; }}
const struct smskit_short_region *smskit_short_regions(void) {{ return regions; }}
uint32_t smskit_short_region_count(void) {{ return {len(regions)}; }}
const uint16_t *smskit_short_by_letters(void) {{ return by_letters; }}
const uint16_t *smskit_short_cc_start(void) {{ return cc_start; }}
const uint8_t *smskit_short_cc_count(void) {{ return cc_count; }}
const uint16_t *smskit_short_cc_regions(void) {{ return cc_regions; }}
const char *smskit_short_upstream_version(void) {{ return "{prefix_tables.upstream_version()}"; }}
""")
    return "".join(out)


if __name__ == "__main__":
    sys.exit(prefix_tables.main(OUT, render, __doc__))
