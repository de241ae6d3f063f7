#!/usr/bin/env bash
# Regenerates every oracle output: fixtures, sample data, committed small corpora.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
python3 tools/oracle/gen_e164_fixture.py
python3 tools/oracle/gen_parse_fixture.py
python3 tools/oracle/gen_samples.py
python3 tools/oracle/gen_corpus.py --small
python3 tools/oracle/gen_timezone_fixture.py
python3 tools/oracle/gen_carrier_fixture.py
python3 tools/oracle/gen_short_number_fixture.py
python3 tools/oracle/gen_matcher_fixture.py
python3 tools/oracle/gen_match_fixture.py
python3 tools/oracle/gen_dialling_fixture.py
python3 tools/oracle/gen_example_fixture.py
