# SPDX-License-Identifier: MIT
"""One synthetic measurement for bench/sizing.sh: argv = environment,
side, repetition; prints {"v": value} from a PRNG seeded by all three, so
a rerun gives the same values."""
import json
import random
import sys

env, side, rep = sys.argv[1], sys.argv[2], int(sys.argv[3])
spread = 0.002 if env.startswith("quiet") else 0.08
gain = 0.0
if env.endswith("faster") and side == "b":
    gain = 0.03 if env.startswith("quiet") else 0.20
r = random.Random(f"{env}/{side}/{rep}")
print(json.dumps({"v": 100.0 * (1 + gain) * (1 + spread * r.gauss(0, 1))}))
