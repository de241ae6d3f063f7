# Writes the large-record inputs of issue 28 to stdout: digits (40,000 x 65,000) or control (4,000 x 65,000).
import sys
kind = sys.argv[1]
out = sys.stdout.buffer
if kind == "digits":
    line = (b"0123456789" * 6500) + b"\n"
    for _ in range(40000): out.write(line)
elif kind == "control":
    line = bytes((1 + i % 31) if (1 + i % 31) != 10 else 11 for i in range(65000)) + b"\n"
    for _ in range(4000): out.write(line)
