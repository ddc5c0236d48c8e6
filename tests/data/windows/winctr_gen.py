#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Build the Get-Counter loop recordings of runner/host/winctr.c and print
what the sampler must make of them (--expect). Constructed from the
documented output (see README.md, "Get-Counter loop"), not captured on a
Windows host: instance names as Get-Counter gives them (lowercase
"_total", "G,N" of Processor Information, "N" of Processor), values in
the invariant culture's "R" form of a double (repr() here prints the
same shortest round-trip digits, "1E-05" written as .NET writes it)."""
import sys

NIC = "Realtek Gaming 10GbE Family Controller"


def r(v):
    """.NET Core 3.0+ "R": shortest round-trip; exponent as E-05."""
    s = repr(float(v))
    if s.endswith(".0"):
        s = s[:-2]
    if "e" in s:
        m, e = s.split("e")
        s = "%sE%s%02d" % (m, "-" if e[0] == "-" else "+", abs(int(e)))
    return s


# group,number -> (busy, dpc, irq) per set; listed "1,0" first (groups are
# not in order in a sample set); seed 000: one core 100% busy, DPC 70%.
SETS = [
    {"1,0": (100, 70.125, 10), "0,1": (10.25, 1, 0.5), "0,0": (70.5, 40, 2)},
    {"1,0": (99.5, 69.75, 9.5), "0,1": (12, 1.5, 1e-05), "0,0": (65, 38, 2.25)},
    {"1,0": (100.00000000000001, 71, 11), "0,1": (8, 0.75, 0.25),
     "0,0": (72.25, 41.5, 1.75)},
]
DISC = [1000, 1400, 2200]
ERRS = [5, 5, 7]


def total(s, k):
    return sum(v[k] for v in s.values()) / len(s)


def groups(nl):
    out = ["@@ xrun-winctr-paths \\Processor Information(*)\\% Processor Time"
           "|\\Processor Information(*)\\% DPC Time|\\Processor Information"
           "(*)\\% Interrupt Time|\\Network Interface(*)\\Packets Received "
           "Discarded|\\Network Interface(*)\\Packets Received Errors "
           + NIC.replace("(", "[").replace(")", "]")]
    for i, s in enumerate(SETS):
        out.append("@@ xrun-winctr %.3f" % (81234.5 + i))
        for key, k in (("p", 0), ("d", 1), ("i", 2)):
            for inst, v in s.items():
                out.append("%s %s %s" % (key, r(v[k]), inst))
            # the groups' own totals (read and left) and the machine's
            out.append("%s %s 0,_total" % (key, r((s["0,0"][k] + s["0,1"][k]) / 2)))
            out.append("%s %s 1,_total" % (key, r(s["1,0"][k])))
            out.append("%s %s _total" % (key, r(total(s, k))))
        out.append("nd %d -" % DISC[i])
        out.append("ne %d -" % ERRS[i])
        out.append("@@ xrun-winctr-end")
    return nl.join(out) + nl


def processor():
    """The older Processor set (instances "N"), no adapter, LF lines."""
    out = ["@@ xrun-winctr-paths \\Processor(*)\\% Processor Time|"
           "\\Processor(*)\\% DPC Time|\\Processor(*)\\% Interrupt Time "]
    for i, (b0, b1) in enumerate(((25.5, 75.25), (30, 80))):
        out.append("@@ xrun-winctr %.3f" % (500.25 + 2 * i))
        out += ["p %s 1" % r(b1), "p %s 0" % r(b0),
                "p %s _total" % r((b0 + b1) / 2)]
        out += ["d 3 0", "d 20 1", "i 1 0", "i 2 1"]
        out.append("@@ xrun-winctr-end")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    if "--expect" in sys.argv:
        order = ["0,0", "0,1", "1,0"]
        for k, name in ((0, "busy"), (1, "softirq"), (2, "irq")):
            for i, inst in enumerate(order):
                print("cpu.%d.%s" % (i, name),
                      [min(100.0, s[inst][k]) for s in SETS])
            print("cpu.all.%s" % name, [total(s, k) for s in SETS])
        print("nic.rx_dropped", [b - a for a, b in zip(DISC, DISC[1:])])
        print("nic.rx_errors", [b - a for a, b in zip(ERRS, ERRS[1:])])
    else:
        with open("winctr_groups.txt", "w", newline="") as f:
            f.write(groups("\r\n"))
        with open("winctr_processor.txt", "w", newline="") as f:
            f.write(processor())
