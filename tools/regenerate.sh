#!/usr/bin/env bash
# Regenerates every generated file of the package from its input, deterministically: run it after
# changing an input or a generator, then review `git diff`. CI runs it (.ci/generated.sh) and fails
# when the committed files differ from what it makes.
#
#   pip install -r tools/requirements.txt
#   tools/regenerate.sh [--oracle] [--gsm-data DIR]
#
#   Sources/PhoneNumbers/Generated/{Metadata,MetadataLayout,UnicodeTables}.swift
#   Sources/CPhoneNumberTables/phone_number_tables.c   tools/metadata/generate_metadata.py (PyPI phonenumbers)
#   Sources/CShortNumberTables/short_number_tables.c    tools/metadata/generate_short_numbers.py (PyPI phonenumbers)
#   Sources/CPhoneNumberTimeZoneTables/timezone_tables.c  tools/metadata/generate_timezones.py (PyPI phonenumbers)
#   Sources/CPhoneNumberCarrierTables/carrier_tables.c  tools/metadata/generate_carriers.py (PyPI phonenumbers)
#   Sources/PhoneNumbers/Generated/FictionalRanges.swift  tools/generate_fictional_ranges.py (Resources/FictionalRanges)
#   Sources/SMSTemplates/Generated/BundledCatalogs.swift  tools/generate_catalogs.py (Resources/Catalogs)
#   Sources/CSMSKitICU/smskit_icu_locale_parents.h     tools/icu/generate_locale_parents.cpp (the system ICU's
#                                                      CLDR data; needs clang++ and libicu-dev)
#   Sources/SMSEncoding/Generated/_GSMTables.swift     tools/gsm/generate_tables.py (3GPP TS 23.038 CSVs, kept
#                                                      outside the repository: ../shared/data/gsm0338 by default;
#                                                      skipped with a note when absent)
#   --oracle   also the oracle's fixtures, samples and small corpora (tools/oracle/regenerate.sh; minutes)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

oracle=0
gsm_data=../shared/data/gsm0338
while [ $# -gt 0 ]; do
    case "$1" in
        --oracle) oracle=1 ;;
        --gsm-data) gsm_data="$2"; shift ;;
        *) echo "usage: tools/regenerate.sh [--oracle] [--gsm-data DIR]" >&2; exit 64 ;;
    esac
    shift
done

# The outputs depend on the pinned phonenumbers and on Python's Unicode database (UnicodeTables.swift,
# the GSM tables' NFC data): refuse to write them from other versions.
pinned=$(sed -n 's/^phonenumbers==//p' tools/requirements.txt)
python3 - "$pinned" <<'PY'
import sys, unicodedata
try:
    import phonenumbers
except ImportError:
    sys.exit("regenerate: phonenumbers is not installed; pip install -r tools/requirements.txt")
if phonenumbers.__version__ != sys.argv[1]:
    sys.exit(f"regenerate: phonenumbers {phonenumbers.__version__} installed, {sys.argv[1]} pinned; "
             "pip install -r tools/requirements.txt")
if unicodedata.unidata_version != "14.0.0":
    sys.exit(f"regenerate: Python {sys.version.split()[0]} has Unicode {unicodedata.unidata_version}; "
             "the tables were made with 14.0.0 (CPython 3.11, Debian 12's python3)")
PY

python3 tools/metadata/generate_metadata.py
python3 tools/metadata/generate_short_numbers.py
python3 tools/metadata/generate_timezones.py
python3 tools/metadata/generate_carriers.py
python3 tools/generate_fictional_ranges.py
python3 tools/generate_catalogs.py
icu_tool="$(mktemp -d)"
trap 'rm -rf "$icu_tool"' EXIT
"${CXX:-clang++}" -std=c++17 -O1 -o "$icu_tool/generate_locale_parents" tools/icu/generate_locale_parents.cpp -licui18n -licuuc
"$icu_tool/generate_locale_parents" > Sources/CSMSKitICU/smskit_icu_locale_parents.h
if [ -d "$gsm_data" ]; then
    python3 tools/gsm/generate_tables.py "$gsm_data"
else
    echo "regenerate: $gsm_data not found, GSM tables left as they are (tools/tests pins their generator)" >&2
fi
if [ "$oracle" = 1 ]; then
    tools/oracle/regenerate.sh
fi
