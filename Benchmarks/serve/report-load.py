#!/usr/bin/env python3
"""Delivery report intake through `smskit serve`: Kannel reports a second on PostgreSQL (issue 38).

    Benchmarks/serve/report-load.py BINARY POSTGRES_URL [--messages 200] [--seconds 10] [--clients 1,8]

The script drops the store's tables, starts `BINARY serve --store POSTGRES_URL` with an outbox
sender, starts MESSAGES verifications (each one SMS; its delivery token read from the outbox line),
then runs CLIENTS workers for SECONDS each, every worker sending GET /v1/delivery-reports/kannel
on a keep-alive connection for a random message: type 8 (accepted) or type 1 (delivered) with an
SMPP receipt text in `status`, as Kannel sends them. Most reports after the first seconds are
replays (duplicate or stale): each is still a token hash, a row lock, a read of the message's
parts and, when it changes something, a write, in one transaction. Every answer must be 200.
"""
import argparse
import asyncio
import json
import os
import random
import re
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.parse

KEY = "bench-key-" + secrets.token_hex(16)


class Connection:
    def __init__(self, port):
        self.port = port

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)

    async def request(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else b""
        self.writer.write(
            method.encode() + b" " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Authorization: Bearer " + KEY.encode() + b"\r\nContent-Length: " + str(len(data)).encode()
            + b"\r\n\r\n" + data)
        head = await self.reader.readuntil(b"\r\n\r\n")
        status = int(head.split(b" ", 2)[1])
        match = re.search(rb"(?i)content-length: *(\d+)", head)
        answer = await self.reader.readexactly(int(match.group(1))) if match else b""
        return status, json.loads(answer) if answer else None


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("binary")
    parser.add_argument("postgres_url")
    parser.add_argument("--messages", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--clients", default="1,8")
    args = parser.parse_args()
    subprocess.run(["psql", args.postgres_url, "-q", "-c",
                    "DROP TABLE IF EXISTS smskit_message_parts, smskit_messages, smskit_verifications, smskit_windows CASCADE"],
                   check=True, stderr=subprocess.DEVNULL)
    work = tempfile.mkdtemp()
    outbox = os.path.join(work, "outbox.jsonl")
    env = dict(os.environ, SMSKIT_API_KEYS=KEY + " trusted", SMSKIT_VERIFY_SECRET=secrets.token_hex(32))
    server = subprocess.Popen([args.binary, "serve", "--port", "0", "--rate-limit", "0", "--log-level", "error",
                               "--store", args.postgres_url, "--sender", "outbox:" + outbox],
                              env=env, stderr=subprocess.PIPE, text=True)
    try:
        port = None
        for line in server.stderr:
            found = re.search(r"listening on http://127\.0\.0\.1:(\d+)", line)
            if found:
                port = int(found.group(1))
                break
        connection = Connection(port)
        await connection.open()
        for index in range(args.messages):
            number = "+447%d%06d" % (400 + index % 500, index)
            status, started = await connection.request("POST", "/v1/verifications",
                                                       {"number": number, "client_key": secrets.token_hex(8)})
            assert status == 200, started
        tokens = [json.loads(line)["delivery_token"] for line in open(outbox)]
        print(f"{len(tokens)} messages recorded")
        receipt = urllib.parse.quote("id:1000 sub:001 dlvrd:001 submit date:2611280900 done date:2611280901 stat:DELIVRD err:000 text:x")
        for clients in [int(c) for c in args.clients.split(",")]:
            deadline = time.monotonic() + args.seconds
            counts, failures = {}, []

            async def worker():
                worker_connection = Connection(port)
                await worker_connection.open()
                while time.monotonic() < deadline:
                    token = random.choice(tokens)
                    kind = random.choice([8, 1])
                    path = f"/v1/delivery-reports/kannel?token={token}&part=1&type={kind}" + (
                        f"&status={receipt}" if kind == 1 else "&status=ACK%2F")
                    status, answer = await worker_connection.request("GET", path)
                    if status != 200:
                        failures.append((status, answer))
                        continue
                    counts[answer["status"]] = counts.get(answer["status"], 0) + 1
                worker_connection.writer.close()

            began = time.perf_counter()
            await asyncio.gather(*(worker() for _ in range(clients)))
            elapsed = time.perf_counter() - began
            total = sum(counts.values())
            print(f"clients={clients}: {total / elapsed:.0f} reports/s over {elapsed:.1f} s {counts}"
                  + (f", {len(failures)} failures: {failures[:3]}" if failures else ""))
    finally:
        server.terminate()
        server.wait()


asyncio.run(main())
