#!/usr/bin/env python3
"""Verifications and delivery reports a second through `smskit serve`, beside the database's own.

    Benchmarks/serve/verify-load.py BINARY STORE [--seconds 10] [--clients 1,8] [--modes pairs]
                                    [--messages 200]

STORE is `sqlite` (a fresh file), `memory` or a postgres:// URL (its verification tables are
dropped first). The script starts `BINARY serve` with an outbox sender and a trusted API key, then
runs CLIENTS workers for SECONDS each: every worker starts a verification for a number of its own
(GB mobile numbers, each used once and spread over the number ranges, so no per-number limit is hit
and concurrent starts do not queue on one range counter; a random client key each,
as a gateway passes its end users' IPs), reads the code from the outbox line the server appended
(by verification ID), checks it, and expects "approved". Each pair is two HTTP/1.1 requests on a
keep-alive connection; every SMS really goes through the outbox file.

MODES (comma-separated, each run at every client count):
- `pairs`: start + check, as above.
- `triples`: start + check + the message's delivered report (GET /v1/delivery-reports/kannel with
  the token from the outbox line, `type=1` and an SMPP receipt text, as Kannel sends it): the
  verification's whole life with its events (started, sent, approved, delivered).
- `reports`: report intake alone. MESSAGES verifications are started first (one SMS each); then
  every worker sends reports for random ones, type 8 (accepted) or 1 (delivered): after the first
  seconds most are replays (duplicate or stale), each still a token hash, the verification's event
  lock, the message's row lock and a read of its parts in one transaction. Every answer must be 200.

The database's own figure, on the same machine and in the same run: one-row INSERT transactions
a second (SQLite: Python's sqlite3 on a WAL file with synchronous=NORMAL, the store's setting;
PostgreSQL: `pgbench -N` at the same client counts, scale 1).

PostgreSQL only: `--waits` samples what the service's backends wait on (pg_stat_activity, every
0.5 s) during each measure; `--commits` gives each measure's committed transactions per unit
(pg_stat_database.xact_commit before and after, read once the backends have flushed their
statistics, which idle backends do within 10 s; the read's own transaction is taken off; not
with `--waits`, whose samples are transactions too).
"""
import argparse
import asyncio
import json
import os
import random
import re
import secrets
import sqlite3
import subprocess
import sys
import tempfile
import time
import urllib.parse

KEY = "bench-key-" + secrets.token_hex(16)


class Connection:
    """One keep-alive HTTP/1.1 connection; JSON in, (status, JSON) out."""

    def __init__(self, port):
        self.port = port

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def post(self, path, body):
        return await self.request("POST", path, body)

    async def get(self, path):
        return await self.request("GET", path)

    async def request(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.writer.write(
            method.encode() + b" " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Authorization: Bearer " + KEY.encode() + b"\r\nContent-Length: " + str(len(data)).encode()
            + b"\r\n\r\n" + data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        match = re.search(rb"(?i)content-length: *(\d+)", head)
        body = await self.reader.readexactly(int(match.group(1))) if match else b""
        return status, json.loads(body) if body else None


RECEIPT = urllib.parse.quote(
    "id:1000 sub:001 dlvrd:001 submit date:2611280900 done date:2611280901 stat:DELIVRD err:000 text:x")


def report_path(token, kind):
    """A Kannel report as Kannel sends it: type 1 with the SMPP receipt text, type 8 with ACK/."""
    return f"/v1/delivery-reports/kannel?token={token}&part=1&type={kind}" + (
        f"&status={RECEIPT}" if kind == 1 else "&status=ACK%2F")


class Outbox:
    """Follows the outbox file; the code and delivery token of each verification ID as its line arrives."""

    def __init__(self, path):
        self.path, self.offset, self.waiting, self.codes = path, 0, {}, {}

    async def follow(self):
        buffered = b""
        while True:
            try:
                with open(self.path, "rb") as file:
                    file.seek(self.offset)
                    chunk = file.read()
            except FileNotFoundError:
                chunk = b""
            if chunk:
                self.offset += len(chunk)
                buffered += chunk
                *lines, buffered = buffered.split(b"\n")
                for line in lines:
                    sms = json.loads(line)
                    code = (re.search(r"\d{6}", sms["text"]).group(0), sms.get("delivery_token"))
                    future = self.waiting.pop(sms["verification_id"], None)
                    if future:
                        future.set_result(code)
                    else:
                        self.codes[sms["verification_id"]] = code
            else:
                await asyncio.sleep(0.0005)

    async def code(self, verification_id):
        if verification_id in self.codes:
            return self.codes.pop(verification_id)
        future = asyncio.get_running_loop().create_future()
        self.waiting[verification_id] = future
        return await asyncio.wait_for(future, 10)


async def start(connection, outbox, number, failures):
    """Starts a verification; its (ID, code, delivery token), or None after noting a failure."""
    status, started = await connection.post("/v1/verifications", {"number": number, "client_key": secrets.token_hex(8)})
    if status != 200:
        failures.append((status, started))
        return None
    code, token = await outbox.code(started["id"])
    return started["id"], code, token


async def run_clients(port, outbox, clients, seconds, numbers, mode, tokens=None):
    """CLIENTS workers for SECONDS: one unit of MODE after another; units a second and latencies."""
    deadline = time.monotonic() + seconds
    latencies, failures, outcomes = [], [], {}

    async def unit(connection):
        if mode == "reports":
            status, answer = await connection.get(report_path(random.choice(tokens), random.choice([8, 1])))
            if status != 200:
                failures.append((status, answer))
                return False
            outcomes[answer["status"]] = outcomes.get(answer["status"], 0) + 1
            return True
        started = await start(connection, outbox, next(numbers), failures)
        if started is None:
            return False
        verification, code, token = started
        status, checked = await connection.post(f"/v1/verifications/{verification}/check", {"code": code})
        if status != 200 or checked.get("status") != "approved":
            failures.append((status, checked))
            return False
        if mode == "triples":
            status, answer = await connection.get(report_path(token, 1))
            if status != 200 or answer.get("status") != "applied":
                failures.append((status, answer))
                return False
        return True

    async def worker():
        connection = Connection(port)
        await connection.open()
        while time.monotonic() < deadline:
            began = time.perf_counter()
            if await unit(connection):
                latencies.append(time.perf_counter() - began)
        connection.writer.close()

    began = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(clients)))
    elapsed = time.perf_counter() - began
    latencies.sort()
    result = {
        "mode": mode, "clients": clients, "count": len(latencies), "per_second": len(latencies) / elapsed,
        "p50_ms": 1000 * latencies[len(latencies) // 2] if latencies else None,
        "p99_ms": 1000 * latencies[int(len(latencies) * 0.99)] if latencies else None,
        "failures": len(failures), "first_failure": failures[0] if failures else None,
    }
    if outcomes:
        result["outcomes"] = outcomes
    return result


def sqlite_baseline(directory, seconds):
    """One-row INSERT transactions a second on a WAL file, synchronous=NORMAL."""
    connection = sqlite3.connect(os.path.join(directory, "baseline.sqlite"), isolation_level=None)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute("PRAGMA synchronous=NORMAL")
    connection.execute("CREATE TABLE IF NOT EXISTS t (id TEXT PRIMARY KEY, value BLOB)")
    count, deadline = 0, time.monotonic() + seconds
    began = time.perf_counter()
    while time.monotonic() < deadline:
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("INSERT INTO t VALUES (?, ?)", (secrets.token_hex(11), secrets.token_bytes(32)))
        connection.execute("COMMIT")
        count += 1
    return count / (time.perf_counter() - began)


def psql(url, sql):
    return subprocess.run(["psql", url, "-Atq", "-c", sql], check=True, capture_output=True, text=True).stdout.split()


def xact_commit(url):
    """The database's committed transactions, after the backends flushed their statistics."""
    time.sleep(11)
    return int(psql(url, "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")[0])


async def sample_waits(url, counts):
    """Counts what the service's active backends wait on (CPU when nothing), every 0.5 s, until cancelled."""
    sql = ("SELECT coalesce(wait_event_type || ':' || wait_event, 'CPU') FROM pg_stat_activity "
           "WHERE datname = current_database() AND pid <> pg_backend_pid() AND state = 'active' "
           "AND application_name NOT IN ('pgbench', 'psql')")
    while True:
        process = await asyncio.create_subprocess_exec("psql", url, "-Atq", "-c", sql, stdout=subprocess.PIPE)
        out, _ = await process.communicate()
        for line in out.decode().split():
            counts[line] = counts.get(line, 0) + 1
        await asyncio.sleep(0.5)


def pgbench_baseline(url, clients, seconds):
    match = re.match(r"postgres://([^@]+)@([^:/]+):(\d+)/(\w+)", url)
    user, host, port, database = match.groups()
    common = ["-h", host, "-p", port, "-U", user, database]
    subprocess.run(["pgbench", "-i", "-s", "1", "-q", *common], check=True, capture_output=True)
    out = subprocess.run(["pgbench", "-N", "-c", str(clients), "-j", str(min(clients, 2)), "-T", str(max(1, int(seconds))), *common],
                         check=True, capture_output=True, text=True).stdout
    return float(re.search(r"tps = ([\d.]+)", out).group(1))


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("store")
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", default="1,8")
    parser.add_argument("--modes", default="pairs", help="pairs, triples, reports (comma-separated)")
    parser.add_argument("--messages", type=int, default=200, help="verifications whose reports `reports` replays")
    parser.add_argument("--waits", action="store_true", help="sample the backends' wait events (PostgreSQL)")
    parser.add_argument("--commits", action="store_true", help="committed transactions per unit (PostgreSQL)")
    args = parser.parse_args()
    if args.waits and args.commits:
        sys.exit("verify-load: --waits and --commits go in separate runs (the samples are transactions too)")
    modes = args.modes.split(",")
    if not set(modes) <= {"pairs", "triples", "reports"}:
        sys.exit("verify-load: --modes takes pairs, triples and reports")
    work = tempfile.mkdtemp(prefix="smskit-verify-load-")
    store = args.store
    if store == "sqlite":
        store = "sqlite:" + os.path.join(work, "verify.sqlite")
    elif store.startswith("postgres://"):
        # A clean schema: drop the store's tables so earlier runs' counters do not interfere.
        subprocess.run(["psql", store, "-q", "-c", "DROP SCHEMA public CASCADE; CREATE SCHEMA public;"],
                       check=True, capture_output=True)
    keys = os.path.join(work, "keys")
    with open(keys, "w") as file:
        file.write(KEY + " trusted\n")
    os.chmod(keys, 0o600)
    outbox_path = os.path.join(work, "outbox.jsonl")
    environment = dict(os.environ, SMSKIT_VERIFY_SECRET=secrets.token_hex(32))
    server = subprocess.Popen(
        [args.binary, "serve", "--port", "0", "--keys-file", keys, "--rate-limit", "0", "--log-level", "error",
         # GB's daily cap (counted on every start, as in production) set above what a run sends.
         "--region-caps", "1000000",
         "--store", store, "--sender", "outbox:" + outbox_path],
        env=environment, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        for line in server.stderr:
            found = re.search(r"127\.0\.0\.1:(\d+)", line)
            if found:
                port = int(found.group(1))
                break
        if port is None:
            sys.exit("verify-load: the server did not say its port")
        outbox = Outbox(outbox_path)
        follower = asyncio.create_task(outbox.follow())
        # Numbers spread over the ranges (consecutive ones 1,000,003 apart: another 6-digit prefix, so
        # concurrent starts do not all update one range counter, as real traffic would not).
        numbers = iter("+4474%08d" % (10_000_000 + i * 1_000_003 % 90_000_000) for i in range(90_000_000))
        tokens = None
        if "reports" in modes:
            connection = Connection(port)
            await connection.open()
            failures = []
            started = [await start(connection, outbox, next(numbers), failures) for _ in range(args.messages)]
            connection.writer.close()
            if failures:
                sys.exit(f"verify-load: starting the report messages failed: {failures[0]}")
            tokens = [token for _, _, token in started]
        for clients in [int(c) for c in args.clients.split(",")]:
            row = {"store": args.store.split(":")[0], "clients": clients}
            postgres = args.store.startswith("postgres://")
            for mode in modes:
                before = xact_commit(args.store) if postgres and args.commits else None
                waits = {}
                sampler = asyncio.create_task(sample_waits(args.store, waits)) if postgres and args.waits else None
                result = await run_clients(port, outbox, clients, args.seconds, numbers, mode, tokens)
                if sampler:
                    sampler.cancel()
                    total = sum(waits.values()) or 1
                    result["waits_percent"] = {k: round(100 * v / total) for k, v in
                                               sorted(waits.items(), key=lambda kv: -kv[1])}
                if before is not None and result["count"]:
                    # Less the first read's own transaction (the second's commits after it reads).
                    result["commits_per_unit"] = (xact_commit(args.store) - before - 1) / result["count"]
                print(json.dumps(result), flush=True)
                row[mode] = result["per_second"]
            # The database's own figure between the service's, in the same run.
            if args.store == "sqlite":
                row["database"] = "sqlite3 INSERT tx/s (WAL, synchronous=NORMAL, 1 connection)"
                row["database_per_second"] = sqlite_baseline(work, args.seconds)
            elif args.store.startswith("postgres://"):
                row["database"] = f"pgbench -N -c {clients} tx/s"
                row["database_per_second"] = pgbench_baseline(args.store, clients, args.seconds)
            for mode in modes:
                if "database_per_second" in row:
                    row[mode + "_ratio"] = row[mode] / row["database_per_second"]
            row["load_average"] = os.getloadavg()
            print(json.dumps(row), flush=True)
        follower.cancel()
        server.terminate()
        server.wait(10)
        if server.returncode != 0:
            sys.exit(f"verify-load: the server exited {server.returncode} after SIGTERM")
    finally:
        if server.poll() is None:
            server.kill()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    asyncio.run(main())
