// Which mode the machine is in before a benchmark run: times three loops in 2,000 chunks of equal
// work and prints each one's p0 / p50 / p90 and p50 over p0.
//   alu    six independent chains of arithmetic: as wide as the core allows (like the engine's
//          hot paths, about 2.7 instructions a cycle)
//   chain  one chain of dependent multiplies: latency-bound, one operation at a time
//   table  dependent loads from a 256 KiB table
// When another tenant runs on this core's sibling hyperthread, `alu` and `table` slow down by
// 1.4-1.8x at p50 and `chain` does not: the core's execution units are shared, not only its
// caches. Usage: Benchmarks/machine-mode.sh
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { CHUNKS = 2000, STEPS = 20000, TABLE = 1 << 16 };

static uint64_t now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int ascending(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static uint32_t table[TABLE];
static volatile uint64_t sink;

static uint64_t chunk(int loop, uint64_t seed) {
    uint64_t a = seed, b = seed + 1, c = seed + 2, d = seed + 3, e = seed + 4, f = seed + 5;
    uint32_t x = (uint32_t)seed;
    uint64_t start = now();
    for (int i = 0; i < STEPS; i++) {
        if (loop == 0) {
            a = a * 3 + 1; b ^= b >> 3; c += c << 1; d = d * 5 + 7; e ^= e << 2; f += f >> 1;
        } else if (loop == 1) {
            a = a * 6364136223846793005u + 1;
        } else {
            x = table[(x ^ (uint32_t)i) & (TABLE - 1)] ^ table[((uint32_t)i * 7) & (TABLE - 1)];
            a += x;
        }
    }
    uint64_t elapsed = now() - start;
    sink += a + b + c + d + e + f;
    return elapsed;
}

int main(void) {
    static const char *names[] = {"alu", "chain", "table"};
    static uint64_t times[CHUNKS];
    for (uint32_t i = 0; i < TABLE; i++) table[i] = (i * 2654435761u) >> 16;
    for (int loop = 0; loop < 3; loop++) {
        for (int r = 0; r < CHUNKS; r++) times[r] = chunk(loop, (uint64_t)r);
        qsort(times, CHUNKS, sizeof times[0], ascending);
        printf("%-5s p0 %6.1f us  p50 %6.1f us  p90 %6.1f us  p50/p0 %.2f\n", names[loop],
               times[0] / 1e3, times[CHUNKS / 2] / 1e3, times[CHUNKS * 9 / 10] / 1e3,
               (double)times[CHUNKS / 2] / (double)times[0]);
    }
    return 0;
}
