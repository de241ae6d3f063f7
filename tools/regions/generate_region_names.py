#!/usr/bin/env python3
"""Generates Sources/CSMSKitRegionNames/region_names.c: region names and codes to ISO 3166-1 alpha-2.

Input: the Unicode CLDR data shipped with PyPI "babel" (tools/requirements.txt pins it): the
territory names in English, in every official language of each territory (local names:
Deutschland, España, België, Россия, 中国) and in 28 major languages; the alpha-3 codes and the
deprecated 2-letter codes (territoryAlias). A few common informal names and two common mistakes
that are not CLDR data (UK for GB, EL for GR) are listed below.

Every name is normalized as RegionNames.normalize does in Swift: lowercased, curly apostrophes
made straight, periods dropped, runs of spaces made one, trimmed. A name with accents is also
stored without them (Espana). A name that means different regions in different languages is
dropped. Output is sorted and deterministic.

Run: python3 tools/regions/generate_region_names.py
"""
import os
import sys
import unicodedata

import babel
import babel.core
from babel import Locale

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Sources", "CSMSKitRegionNames", "region_names.c")

MAJOR_LANGUAGES = ["en", "de", "fr", "es", "it", "pt", "nl", "ru", "zh", "zh_Hant", "ja", "ko", "ar", "pl", "tr",
                   "sv", "da", "nb", "fi", "cs", "el", "he", "hi", "id", "vi", "th", "uk", "ro", "hu"]
# Not regions: the world, continents and groupings, unknown, pseudo-locales.
NOT_REGIONS = {"EU", "EZ", "UN", "QO", "XA", "XB", "ZZ"}
# Informal English names people type in contact lists (not in CLDR's default names).
INFORMAL = {
    "GB": ["UK", "Great Britain", "Britain", "England", "Scotland", "Wales", "Northern Ireland", "U.K."],
    "US": ["USA", "U.S.A.", "United States of America", "America"],
    "NL": ["Holland", "The Netherlands"],
    "AE": ["UAE"],
    "CZ": ["Czech Republic"],
    "TR": ["Turkey"],
    "SZ": ["Swaziland"],
    "MK": ["Macedonia"],
    "MM": ["Burma"],
    "CI": ["Ivory Coast"],
    "HK": ["Hong Kong"],
    "MO": ["Macau", "Macao"],
    "PS": ["Palestine"],
    "TL": ["East Timor"],
    "CV": ["Cabo Verde"],
    "KR": ["Korea", "Republic of Korea"],
    "RU": ["Russian Federation"],
    "VA": ["Vatican"],
}
# Codes people use that are not ISO 3166-1: "did you mean ...?".
MISTAKES = {"UK": "GB", "EL": "GR"}


def normalize(name):
    text = name.lower().replace("\u2019", "'").replace("\u2018", "'").replace("`", "'").replace(".", "")
    return " ".join(text.split())


def folded(name):
    return "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))


def main():
    english = Locale("en").territories
    regions = sorted(code for code in english if len(code) == 2 and code.isalpha() and code not in NOT_REGIONS)
    territory_languages = babel.core.get_global("territory_languages")
    aliases = babel.core.get_global("territory_aliases")

    entries = {}      # normalized name -> set of (code, kind)
    def add(name, code, kind):
        for variant in {normalize(name), normalize(folded(name))}:
            if variant:
                entries.setdefault(variant, set()).add((code, kind))

    for code in regions:
        add(code, code, "a")
        languages = set(MAJOR_LANGUAGES)
        for language, info in territory_languages.get(code, {}).items():
            if info.get("official_status") in ("official", "de_facto_official"):
                languages.add(language)
        for language in sorted(languages):
            try:
                locale = Locale.parse(language)
            except Exception:
                continue
            name = locale.territories.get(code)
            if name:
                add(name, code, "n")
    for alias, replacements in sorted(aliases.items()):
        if len(replacements) != 1 or replacements[0] not in regions:
            continue
        if len(alias) == 3 and alias.isalpha():
            add(alias, replacements[0], "3")
        elif len(alias) == 2 and alias.isalpha() and alias not in regions:
            MISTAKES.setdefault(alias, replacements[0])
    for code, names in sorted(INFORMAL.items()):
        for name in names:
            add(name, code, "n")
    for mistake, code in sorted(MISTAKES.items()):
        entries[normalize(mistake)] = {(code, "m")}

    rows = []
    dropped = []
    for name in sorted(entries):
        found = entries[name]
        # A code beats a name that spells the same (AO is Angola, not Vietnamese "Áo", Austria).
        coded = {(code, kind) for code, kind in found if kind in "3am"}
        if coded:
            found = coded
        codes = {code for code, _ in found}
        if len(codes) != 1:
            dropped.append((name, sorted(codes)))
            continue
        kind = min(kind for _, kind in found)   # "3" < "a" < "m" < "n": a code beats a name
        rows.append((name, codes.pop(), kind))
    for name, codes in dropped:
        print(f"dropped ambiguous name {name!r}: {codes}", file=sys.stderr)

    def c_string(text):
        # UTF-8 as it is (C sources are UTF-8); quote, backslash, ? and controls escaped.
        out = []
        for char in text:
            if ord(char) < 0x20 or ord(char) == 0x7F or char in '"\\?':
                out.append("".join("\\%03o" % byte for byte in char.encode("utf-8")))
            else:
                out.append(char)
        return '"' + "".join(out) + '"'

    cldr = babel.core.get_global("cldr")["version"]
    with open(OUT, "w", encoding="utf-8") as out:
        out.write("// Generated by tools/regions/generate_region_names.py from Unicode CLDR %s (PyPI babel %s).\n" % (cldr, babel.__version__))
        out.write("// DO NOT EDIT. %d names of %d regions; kinds: a alpha-2, 3 alpha-3, n name, m mistake.\n" % (len(rows), len(regions)))
        out.write('#include "CSMSKitRegionNames.h"\n\n')
        out.write("const char *const smskit_region_names_cldr_version = \"%s\";\n\n" % cldr)
        out.write("static const smskit_region_name table[] = {\n")
        for name, code, kind in rows:
            out.write("    {%s, \"%s\", '%s'},\n" % (c_string(name), code, kind))
        out.write("};\n\nconst int smskit_region_name_count = %d;\n\n" % len(rows))
        out.write("const smskit_region_name *smskit_region_names(void) { return table; }\n")
    print(f"{len(rows)} names, {len(regions)} regions, {len(dropped)} ambiguous names dropped", file=sys.stderr)


if __name__ == "__main__":
    main()
