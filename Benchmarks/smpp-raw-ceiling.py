#!/usr/bin/env python3
"""The SMSC's ceiling with a client that costs next to nothing: pre-encoded submit_sm written in
pipelined batches that keep WINDOW outstanding, responses only counted by their command_length,
for Benchmarks/smpp-benchmark.sh. Whatever rate it reaches is the server's, not the client's.

    smpp-raw-ceiling.py PORT COUNT WINDOW
"""
import socket
import struct
import sys
import time


def pdu(command_id, sequence, body):
    return struct.pack(">IIII", 16 + len(body), command_id, 0, sequence) + body


def cstring(text):
    return text.encode() + b"\0"


def main(port, count, window):
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.sendall(pdu(0x00000009, 1, cstring("raw") + cstring("bench") + cstring("") + bytes([0x34, 0, 0]) + cstring("")))
    buffer = b""
    while len(buffer) < 4 or len(buffer) < struct.unpack(">I", buffer[:4])[0]:
        buffer += sock.recv(65536)
    buffer = buffer[struct.unpack(">I", buffer[:4])[0]:]
    text = b"Your Acme code is 482913"
    body = (cstring("") + bytes([5, 0]) + cstring("Acme") + bytes([1, 1]) + cstring("905321234567")
            + bytes([0, 0, 0]) + cstring("") + cstring("") + bytes([0, 0, 0, 0, len(text)]) + text)
    # One submit_sm per sequence number, encoded before the clock starts.
    pdus = [pdu(0x00000004, 2 + i, body) for i in range(count)]
    sent = answered = 0
    start = time.perf_counter()
    first = min(window, count)
    sock.sendall(b"".join(pdus[:first]))
    sent = first
    while answered < count:
        buffer += sock.recv(262144)
        done = 0
        while len(buffer) >= 4:
            length = struct.unpack(">I", buffer[:4])[0]
            if len(buffer) < length:
                break
            buffer = buffer[length:]
            done += 1
        answered += done
        more = min(done, count - sent)
        if more:
            sock.sendall(b"".join(pdus[sent:sent + more]))
            sent += more
    elapsed = time.perf_counter() - start
    print("%-44s %10.0f submit_sm/s (%d in %.2f s, window %d)" % (
        "raw pipelined client (the server's ceiling)", count / elapsed, count, elapsed, window))
    sock.sendall(pdu(0x00000006, 2 + count, b""))
    sock.close()


main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))
