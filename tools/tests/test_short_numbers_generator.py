"""tools/metadata/generate_short_numbers.py: the C tables it writes, walked in Python, say for
every short-number region's example numbers (and a digit more and less) exactly which
descriptions' patterns match in full and whether a prefix matches the emergency pattern, as
Python's `re` does; the length masks are the possible lengths."""
from __future__ import annotations

import re

import generate_short_numbers as g
from phonenumbers import PhoneMetadata


def parse_tables(text: str):
    words = [int(v) for v in re.search(r"words\[\d+\] = \{(.*?)\};", text, re.S).group(1).replace("\n", " ").split(",") if v.strip()]
    regions = {}
    for a, b, offset, masks in re.findall(r"\{\{'(.)', '(.)'\}, (\d+), \{([^}]*)\}\}", text):
        regions[a + b] = (int(offset), [int(m, 16) for m in masks.split(",")])
    return words, regions


def label(words: list[int], offset: int, digits: str) -> int:
    state = words[offset]
    rows = offset + 1
    for d in digits:
        state = words[rows + state * 11 + int(d)]
        if state == 0:
            return 0
    return words[rows + state * 11 + 10]


def test_tables_agree_with_re():
    words, regions = parse_tables(g.render())
    assert len(regions) == len(g.SUPPORTED_SHORT_REGIONS)
    checked = 0
    for code, (offset, masks) in regions.items():
        m = PhoneMetadata.short_metadata_for_region(code)
        descs = [getattr(m, name) for name in g.DESCS]
        samples = {d.example_number for d in descs if d is not None and d.example_number}
        for nsn in list(samples):
            samples |= {nsn + "0", nsn[:-1], "1" + nsn}
        for nsn in sorted(s for s in samples if s):
            got = label(words, offset, nsn)
            for bit, d in enumerate(descs):
                want = d is not None and bool(d.national_number_pattern) and re.fullmatch(d.national_number_pattern, nsn) is not None
                assert bool(got >> bit & 1) == want, (code, nsn, g.DESCS[bit])
            e = m.emergency
            prefix = e is not None and re.match(e.national_number_pattern, nsn) is not None
            assert bool(got >> g.EMERGENCY_PREFIX & 1) == prefix, (code, nsn)
            checked += 1
        for bit, d in enumerate(descs):
            assert masks[bit] == g.length_mask(d)
            if d is not None:
                assert all(masks[bit] >> n & 1 for n in d.possible_length)
    assert checked > 1500
