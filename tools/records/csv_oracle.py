#!/usr/bin/env python3
"""Hostile CSV records and how Python's csv module reads them: the oracle of RecordReaderPythonTests.

Usage: csv_oracle.py --seed N --records N --delimiter CHAR OUTDIR

Writes OUTDIR/input.csv, a file of seeded random records (empty fields, plain text with quotes
in every position, quoted fields holding delimiters, doubled quotes, CR, LF and CR LF, bytes after
a closing quote, a stray quote at a field's start that swallows the next records, blank lines,
and LF, CR LF or CR line ends), and OUTDIR/expected.bin, the records csv.reader gives for it in
its default dialect with that delimiter. Each record there is
    <first line> 0x1F <field count> (0x1F <field>)* 0x1E
with the first line as Python's reader.line_num counts lines (the generator never writes 0x1E or
0x1F). The file never ends inside a quoted field and no quoted field spans more than 50 line
breaks: there the reader deliberately differs (it reports the stray quote and reads the lines
again), which its own tests cover.
"""
import argparse
import csv
import os
import random

QUOTE = '"'


def generate(rng, count, delimiter):
    others = [c for c in ",;\t|" if c != delimiter]
    plain = list("aZ7+ .-") + ["é", "中", "😀"] + others
    out = []
    # The field state as RFC 4180 readers keep it, only to keep the file inside the range where
    # Python and the reader are meant to agree (see the module's docstring).
    state = "start"
    quoted_breaks = 0

    def feed(text):
        nonlocal state, quoted_breaks
        previous = ""
        for ch in text:
            if state == "quoted":
                if ch == QUOTE:
                    state = "after"
                elif ch == "\r" or (ch == "\n" and previous != "\r"):
                    quoted_breaks += 1
            elif ch == delimiter:
                state = "start"
            elif ch in "\r\n":
                state = "start"
            elif ch == QUOTE:
                if state != "unquoted":
                    state = "quoted"
                    quoted_breaks = 0
            else:
                state = "unquoted"
            previous = ch

    def chars(alphabet, low, high):
        return "".join(rng.choice(alphabet) for _ in range(rng.randint(low, high)))

    def field():
        kind = rng.random()
        if kind < 0.10:
            return ""
        if kind < 0.35:
            return chars(plain, 1, 8)
        if kind < 0.55:
            # Quotes anywhere but first: ordinary bytes to Python.
            text = chars(plain, 1, 6)
            for _ in range(rng.randint(1, 3)):
                at = rng.randint(1, len(text))
                text = text[:at] + QUOTE * rng.randint(1, 2) + text[at:]
            return text
        if kind < 0.97:
            inside = chars(plain + [delimiter, QUOTE, "\r", "\n", "\r\n"], 0, 10)
            text = QUOTE + inside.replace(QUOTE, QUOTE * 2) + QUOTE
            if rng.random() < 0.2:
                # Bytes after the closing quote (the first one not a quote, else it is doubled).
                text += rng.choice(plain) + chars(plain + [QUOTE], 0, 3)
            return text
        # A stray quote at a field's start: a quoted field that runs into the next records.
        return QUOTE + chars(plain, 0, 5)

    for index in range(count):
        if rng.random() < 0.03:
            record = ""
        else:
            record = delimiter.join(field() for _ in range(rng.randint(1, 6)))
        feed(record)
        if state == "quoted" and quoted_breaks > 50:
            record += QUOTE
            feed(QUOTE)
        last = index == count - 1
        if last and state == "quoted":
            record += QUOTE
            feed(QUOTE)
        if not last or rng.random() < 0.5:
            end = rng.choices(["\n", "\r\n", "\r"], weights=[6, 3, 1])[0]
            record += end
            feed(end)
        out.append(record)
    return "".join(out)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--records", type=int, required=True)
    parser.add_argument("--delimiter", required=True)
    parser.add_argument("outdir")
    args = parser.parse_args()
    delimiter = "\t" if args.delimiter in ("tab", "\\t") else args.delimiter
    rng = random.Random(args.seed)
    text = generate(rng, args.records, delimiter)
    os.makedirs(args.outdir, exist_ok=True)
    source = os.path.join(args.outdir, "input.csv")
    with open(source, "w", encoding="utf-8", newline="") as handle:
        handle.write(text)
    parts = []
    with open(source, encoding="utf-8", newline="") as handle:
        reader = csv.reader(handle, delimiter=delimiter)
        line = 0
        for row in reader:
            parts.append("%d\x1f%d" % (line + 1, len(row)))
            for cell in row:
                parts.append("\x1f" + cell)
            parts.append("\x1e")
            line = reader.line_num
    with open(os.path.join(args.outdir, "expected.bin"), "w", encoding="utf-8", newline="") as handle:
        handle.write("".join(parts))


if __name__ == "__main__":
    main()
