#!/usr/bin/env python3
"""The Python batch call beside PyPI `phonenumbers` on the same corpus, in one run.

    python3 bindings/python/bench/bench.py [CORPUS] [--phonenumbers-lines N] [--spark]

CORPUS: the harness format ("input<TAB>REGION", ZZ for none), by default the 1,000,000-line
mixed corpus of Benchmarks/compare.sh (Benchmarks/.corpus/mixed-1M.txt, made by
tools/oracle/gen_corpus.py --only mixed when missing). Prints, one line each:

  smskit_batch       Engine().check_many(numbers, regions=...) and the E.164, validity and type
                     columns as Python lists: parse + valid + type + E.164, one thread.
  phonenumbers       parse + is_valid_number + number_type + format_number(E164), one thread,
                     on the same lines (all of them unless --phonenumbers-lines).
  ratio              smskit_batch / phonenumbers throughput (the issue's goal: >= 50).
  smskit_single      Engine().check(number) one at a time: ns per call, and the per-call
                     overhead = that minus the batch's ns per number (the engine's own work).
  spark_* (--spark)  the Spark example (examples/spark) on local[2] beside a phonenumbers UDF.

Rates are per second of this process's CPU time (time.process_time), and wall clock beside
them: on a loaded machine the CPU time is the fair measure. Say what else ran with the figures. Needs: smskit (this package), phonenumbers (tools/requirements.txt); pyspark for --spark.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import phonenumbers
from phonenumbers import NumberParseException, PhoneNumberFormat

import smskit

ROOT = Path(__file__).resolve().parents[3]
DEFAULT_CORPUS = ROOT / "Benchmarks" / ".corpus" / "mixed-1M.txt"


def load(path: Path) -> tuple[list[str], list[str]]:
    if not path.exists() and path == DEFAULT_CORPUS:
        print(f"bench: generating {path}", file=sys.stderr)
        subprocess.run([sys.executable, str(ROOT / "tools" / "oracle" / "gen_corpus.py"), "--only", "mixed"], check=True)
    numbers, regions = [], []
    with open(path, encoding="utf-8", newline="\n") as f:
        for line in f:
            line = line.rstrip("\n").rstrip("\r")
            text, _, region = line.partition("\t")
            numbers.append(text)
            regions.append(region or "ZZ")
    return numbers, regions


class Clock:
    """Wall time and this process's CPU time: on a loaded machine the CPU time is the fair
    measure of work done (the wall time includes waiting for a core)."""

    def __enter__(self):
        self.wall, self.cpu = time.perf_counter(), time.process_time()
        return self

    def __exit__(self, *exc):
        self.wall, self.cpu = time.perf_counter() - self.wall, time.process_time() - self.cpu


def bench_smskit(engine: smskit.Engine, numbers, regions, repeat: int = 3):
    best = None
    for _ in range(repeat):
        with Clock() as clock:
            results = engine.check_many(numbers, regions=regions)
            e164 = results.column("e164")
            valid = results.column("is_valid")
            types = results.column("type")
        best = clock if best is None or clock.cpu < best.cpu else best
    return best, sum(valid), e164, types


def bench_phonenumbers(numbers, regions):
    parse, is_valid, number_type, fmt = (phonenumbers.parse, phonenumbers.is_valid_number,
                                         phonenumbers.number_type, phonenumbers.format_number)
    e164 = PhoneNumberFormat.E164
    for text, region in zip(numbers[:20000], regions[:20000]):  # warm up: metadata loads lazily
        try:
            is_valid(parse(text, region))
        except NumberParseException:
            pass
    valid = 0
    with Clock() as clock:
        for text, region in zip(numbers, regions):
            try:
                number = parse(text, region)
            except NumberParseException:
                continue
            if is_valid(number):
                valid += 1
            number_type(number)
            fmt(number, e164)
    return clock, valid


def bench_single(engine: smskit.Engine, numbers, regions, count: int = 200_000):
    sample = list(zip(numbers[:count], regions[:count]))
    check = engine.check
    with Clock() as clock:
        for text, region in sample:
            check(text, region)
    return clock.cpu / len(sample)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("corpus", nargs="?", default=str(DEFAULT_CORPUS))
    ap.add_argument("--phonenumbers-lines", type=int, default=0, help="time phonenumbers on the first N lines only")
    ap.add_argument("--spark", action="store_true", help="also the Spark example's rows/s on local[2]")
    ap.add_argument("--spark-rows", type=int, default=1_000_000)
    args = ap.parse_args()

    numbers, regions = load(Path(args.corpus))
    cpus = os.cpu_count()
    load_avg = os.getloadavg()[0]
    print(f"corpus={args.corpus} lines={len(numbers)} cpus={cpus} loadavg_1min={load_avg:.1f} "
          f"smskit={smskit.version()} metadata={smskit.metadata_version()} phonenumbers={phonenumbers.__version__}")
    engine = smskit.Engine()

    clock, valid, _, _ = bench_smskit(engine, numbers, regions)
    smskit_rate = len(numbers) / clock.cpu
    print(f"smskit_batch numbers_per_cpu_sec={smskit_rate:.0f} cpu_ns_per_number={clock.cpu / len(numbers) * 1e9:.0f} "
          f"numbers_per_wall_sec={len(numbers) / clock.wall:.0f} valid={valid}", flush=True)

    lines = args.phonenumbers_lines or len(numbers)
    pn_clock, pn_valid = bench_phonenumbers(numbers[:lines], regions[:lines])
    pn_rate = lines / pn_clock.cpu
    print(f"phonenumbers numbers_per_cpu_sec={pn_rate:.0f} cpu_ns_per_number={pn_clock.cpu / lines * 1e9:.0f} "
          f"numbers_per_wall_sec={lines / pn_clock.wall:.0f} valid={pn_valid} lines={lines}")
    print(f"ratio smskit_batch/phonenumbers={smskit_rate / pn_rate:.1f} (CPU time) "
          f"{(len(numbers) / clock.wall) / (lines / pn_clock.wall):.1f} (wall time)")

    single = bench_single(engine, numbers, regions)
    print(f"smskit_single cpu_ns_per_call={single * 1e9:.0f} overhead_ns={(single - clock.cpu / len(numbers)) * 1e9:.0f}")
    print(f"loadavg_1min_at_end={os.getloadavg()[0]:.1f}")

    if args.spark:
        sys.path.insert(0, str(ROOT / "examples" / "spark"))
        import validate_numbers  # examples/spark/validate_numbers.py

        for line in validate_numbers.benchmark(numbers[: args.spark_rows], regions[: args.spark_rows]):
            print(line)


if __name__ == "__main__":
    main()
