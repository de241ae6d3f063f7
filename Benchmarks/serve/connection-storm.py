#!/usr/bin/env python3
"""Connection storms against `smskit serve`: ROUNDS times, open FLOOD connections on loopback
(half silent, half sending the start of a head they never finish), then ask /healthz three
times, check the process is alive and count its descriptors, and close the flood.

The server runs under a soft open-file limit of 256 and a hard one of 1,024 (the server raises
the soft limit and keeps its connections under half of it). Prints one line a round and a
summary; exits 1 if the server died or /healthz failed in any round.

    swift build --product smskit
    Benchmarks/serve/connection-storm.py [--rounds 20] [--flood 5000] [--bin PATH]
"""
import argparse
import os
import re
import resource
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--flood", type=int, default=5000)
    parser.add_argument("--bin", default=None)
    args = parser.parse_args()
    binary = args.bin or os.path.join(
        subprocess.check_output(["swift", "build", "--show-bin-path"], text=True).strip(), "smskit")

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = args.flood + 256
    if hard != resource.RLIM_INFINITY and hard < needed:
        hard = needed  # root may raise it
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, needed), hard))

    work = tempfile.mkdtemp()
    stderr_path = os.path.join(work, "stderr")
    env = dict(os.environ, SMSKIT_API_KEYS="storm-key-" + secrets.token_hex(8), SMSKIT_VERIFY_SECRET=secrets.token_hex(32))
    with open(stderr_path, "w") as stderr:
        server = subprocess.Popen(
            ["/bin/sh", "-c", 'ulimit -S -n 256 && ulimit -H -n 1024 && exec "$0" "$@"', binary,
             "serve", "--port", "0", "--store", "memory", "--log-level", "error"],
            env=env, stderr=stderr, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    port = None
    for _ in range(600):
        match = re.search(r"listening on http://127\.0\.0\.1:(\d+)", open(stderr_path).read())
        if match:
            port = int(match.group(1))
            break
        time.sleep(0.1)
    if port is None:
        print("the server did not start:", open(stderr_path).read(), file=sys.stderr)
        return 1
    limits = [l for l in open(f"/proc/{server.pid}/limits") if l.startswith("Max open files")][0].split()[3:5]
    print(f"server pid {server.pid}, open files soft/hard {limits[0]}/{limits[1]}")

    failures = 0
    most_descriptors = 0
    for round_number in range(1, args.rounds + 1):
        start = time.monotonic()
        flood = []
        for index in range(args.flood):
            connection = socket.create_connection(("127.0.0.1", port), timeout=30)
            if index % 2:
                connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            flood.append(connection)
        opened = time.monotonic() - start
        answers = []
        for _ in range(3):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10) as response:
                    answers.append(response.status)
            except Exception as error:  # noqa: BLE001 - any failure counts
                answers.append(type(error).__name__)
        alive = server.poll() is None
        descriptors = len(os.listdir(f"/proc/{server.pid}/fd")) if alive else -1
        most_descriptors = max(most_descriptors, descriptors)
        for connection in flood:
            connection.close()
        ok = alive and answers == [200, 200, 200]
        failures += 0 if ok else 1
        print(f"round {round_number}: {args.flood} connections in {opened:.1f} s, /healthz {answers}, "
              f"alive {alive}, server descriptors {descriptors}")
        if not alive:
            break
        time.sleep(1)

    crashed = server.poll() is not None
    if not crashed:
        server.terminate()
        server.wait(30)
    print(f"{args.rounds} storms of {args.flood} connections: {failures} failed rounds, "
          f"crashes {1 if crashed else 0}, at most {most_descriptors} server descriptors, exit status {server.returncode}")
    return 1 if failures or crashed else 0


if __name__ == "__main__":
    sys.exit(main())
