#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes top_l0_s1.txt: what `top -l 0 -s 1 -n 0` prints for four
samples, built from Apple's top (apple-oss-distributions/top, tag top-144,
commit 1e3b6cace1cbca04536cf325da9adc7389a27e8f): the global lines in
globalstats.c's order (GLOBALSTAT_PROCESSES, _TIME, _LOAD, _CPU, ...),
each CPU usage line from tick deltas by cpu_percent() and update_cpu()
(user = USER + NICE ticks; the hundredths printed unpadded), then a blank
line, the column header and a blank line (logging.c log_print_all with
-n 0: no process rows). With --expect it prints instead the busy values
(user + sys, as the reader computes them from the printed text) of the
samples after the first, which test_mactop.c holds."""
import sys

# (user, nice, sys, idle) tick deltas of each sample; the first covers
# only top's start-up (libtop_init to the first libtop_sample).
TICKS = [(3, 0, 6, 15), (40, 1, 26, 745), (311, 4, 170, 167), (0, 0, 8, 808)]
LOAD = [(1.84, 1.62, 1.55), (1.84, 1.62, 1.55), (2.01, 1.66, 1.56),
        (2.01, 1.66, 1.56)]


def cpu_percent(ticks, total):
    whole = 100 * ticks // total
    part = ((100 * ticks) - whole * total) * 100 // total
    return whole, part


def cpu_line(user, nice, sys_, idle):
    total = user + nice + sys_ + idle
    u = cpu_percent(user + nice, total)
    s = cpu_percent(sys_, total)
    i = cpu_percent(idle, total)
    text = "CPU usage: %d.%d%% user, %d.%d%% sys, %d.%d%% idle " % (u + s + i)
    busy = u[0] + u[1] / 100 + s[0] + s[1] / 100
    return text, busy


def main():
    out = []
    busy = []
    for k, (t, la) in enumerate(zip(TICKS, LOAD)):
        line, b = cpu_line(*t)
        busy.append(b)
        out += ["Processes: 512 total, 3 running, 509 sleeping, 2417 threads ",
                "2026/12/02 15:50:%02d" % (1 + k),
                "Load Avg: %.2f, %.2f, %.2f " % la,
                line,
                "SharedLibs: 395M resident, 72M data, 33M linkedit.",
                "MemRegions: 201436 total, 3589M resident, 160M private, "
                "1406M shared.",
                "PhysMem: 15G used (1830M wired, 412M compressor), 880M unused.",
                "VM: 215T vsize, 4923M framework vsize, 0(0) swapins, "
                "0(0) swapouts.",
                "Networks: packets: 10432221/12G in, 7301442/2218M out.",
                "Disks: 5127349/88G read, 2801663/51G written.",
                "",
                "PID    COMMAND      %CPU TIME     #TH   #WQ  #PORT MEM",
                ""]
    if sys.argv[1:] == ["--expect"]:
        print(" ".join("%.2f" % b for b in busy[1:]))
    else:
        sys.stdout.write("\n".join(out) + "\n")


main()
