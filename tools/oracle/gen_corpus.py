#!/usr/bin/env python3
"""Writes the benchmark corpora from the committed oracle fixtures.

    python3 tools/oracle/gen_corpus.py            # 1,000,000 lines each into Benchmarks/.corpus/
    python3 tools/oracle/gen_corpus.py --small    # 10,000 lines each into Benchmarks/corpus/ (committed)
    python3 tools/oracle/gen_corpus.py --lines N --out DIR

Needs only Python 3 (no `phonenumbers`): it samples the inputs of
Tests/PhoneNumbersTests/Fixtures/e164.tsv and parse.tsv with a fixed seed.

  e164-<N>.txt   one "+digits" input per line, drawn from e164.tsv's inputs (the fixture's
                 mix of valid numbers, near misses and errors); half of the lines have their
                 last one to three digits replaced at random, so lines rarely repeat.
  mixed-<N>.txt  "input<TAB>REGION" per line (REGION "ZZ" for none), drawn from parse.tsv:
                 85% from inputs the oracle finds valid, 15% from the rest (invalid numbers and
                 parse errors); inputs in scripts other than ASCII are drawn less often than
                 in the fixture, so the mix looks like a real contact list. Inputs with a tab,
                 newline or carriage return are left out (the corpus is line-based).
"""

import argparse
import os
import random

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
FIXTURES = os.path.join(ROOT, "Tests", "PhoneNumbersTests", "Fixtures")
SEED = 1_000_000


def unescape(field):
    if "\\" not in field:
        return field
    out = []
    i = 0
    while i < len(field):
        ch = field[i]
        if ch == "\\" and i + 1 < len(field):
            nxt = field[i + 1]
            out.append({"\\": "\\", "t": "\t", "n": "\n", "r": "\r"}.get(nxt, "\\" + nxt))
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def read_tsv(name):
    with open(os.path.join(FIXTURES, name), encoding="utf-8", newline="\n") as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [[unescape(x) for x in line.rstrip("\n").split("\t")] for line in f]
    return header, rows


def e164_corpus(rng, lines):
    _, rows = read_tsv("e164.tsv")
    inputs = [r[0] for r in rows if len(r[0]) <= 40]
    out = []
    for _ in range(lines):
        s = rng.choice(inputs)
        if rng.random() < 0.5 and len(s) > 6:
            k = rng.randint(1, 3)
            s = s[:-k] + "".join(rng.choice("0123456789") for _ in range(k))
        out.append(s)
    return out


def mixed_corpus(rng, lines):
    header, rows = read_tsv("parse.tsv")
    col = {name: i for i, name in enumerate(header)}
    valid, rest = [], []
    for r in rows:
        text = r[col["input"]]
        if any(c in text for c in "\t\n\r") or len(text) > 120:
            continue
        entry = "%s\t%s" % (text, r[col["region"]])
        ascii_only = all(ord(c) < 128 for c in text)
        weight = 1 if ascii_only else 0
        if not ascii_only and rng.random() < 0.15:
            weight = 1
        if not weight:
            continue
        (valid if r[col["valid"]] == "true" else rest).append(entry)
    out = []
    for _ in range(lines):
        out.append(rng.choice(valid) if rng.random() < 0.85 else rng.choice(rest))
    return out


def write(path, lines):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            f.write(line)
            f.write("\n")


def label(n):
    if n % 1_000_000 == 0:
        return "%dM" % (n // 1_000_000)
    if n % 1000 == 0:
        return "%dk" % (n // 1000)
    return str(n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lines", type=int, default=None)
    ap.add_argument("--out", default=None)
    ap.add_argument("--small", action="store_true", help="10,000 lines into Benchmarks/corpus/")
    ap.add_argument("--only", choices=["e164", "mixed"], default=None)
    args = ap.parse_args()
    lines = args.lines or (10_000 if args.small else 1_000_000)
    out = args.out or os.path.join(ROOT, "Benchmarks", "corpus" if args.small else ".corpus")
    if args.only in (None, "e164"):
        path = os.path.join(out, "e164-%s.txt" % label(lines))
        write(path, e164_corpus(random.Random(SEED), lines))
        print(path)
    if args.only in (None, "mixed"):
        path = os.path.join(out, "mixed-%s.txt" % label(lines))
        write(path, mixed_corpus(random.Random(SEED + 1), lines))
        print(path)


if __name__ == "__main__":
    main()
