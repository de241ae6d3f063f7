#!/usr/bin/env python3
"""The SMSC's own ceiling: submit_sm/s from smpp34's own client (Rust core) with the same window,
against the same SMSC, for Benchmarks/smpp-benchmark.sh.

    smpp-ceiling.py PORT COUNT WINDOW
"""
import asyncio
import os
import sys
import time

import smpp34


async def main(port, count, window):
    client = smpp34.Client(host="127.0.0.1", port=port, system_id="ceiling", password="bench",
                           bind_type="TRX", window_size=window)
    smsc = await client.connect()
    await smsc.submit_sm("905321234567", b"Your Acme code is 482913", source_addr="Acme", source_addr_ton=5)
    queue = iter(range(count))

    async def worker():
        for _ in queue:
            await smsc.submit_sm("905321234567", b"Your Acme code is 482913", source_addr="Acme", source_addr_ton=5)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(window)))
    elapsed = time.perf_counter() - start
    print("%-44s %10.0f submit_sm/s (%d in %.2f s, window %d)" % (
        "smpp34's own client (the ceiling)", count / elapsed, count, elapsed, window))
    await smsc.unbind()
    await client.stop()


asyncio.run(main(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])))
sys.stdout.flush()
os._exit(0)  # smpp34 1.5.0's runtime can abort in interpreter finalization, after the work is done
