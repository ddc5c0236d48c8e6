#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The latency probe's loss against what nftables dropped (issue 41), for
tests/e2e/lab_latency.sh and lab_irtt.sh.

    lab_loss.py counters NETNS          # the packet counters of table
                                        # inet xrloss, in rule order
    lab_loss.py check DROPPED LOSS.TXT RTT_T.TXT

The labs drop a random 20% of the probes numbered in a range that lies
inside xrun's loss window (probes sent from the engine's start, t = 0, to
1 s before the probe stopped) and show with counters that nothing else was
lost. Then xrun lost exactly DROPPED of the k probes of its window: the
stored latency.loss (LOSS.TXT: "VALUE|UNIT") is 100 * DROPPED / k for a
whole k, and k is the replies the stored series (RTT_T.TXT: the send times
of latency.rtt, one a line, in order) has in that window plus DROPPED,
within 2 (the window's end is known to the probe's spacing).
"""
import json
import subprocess
import sys


def counters(ns):
    out = subprocess.run(
        ["ip", "netns", "exec", ns, "nft", "-j", "list", "table", "inet",
         "xrloss"], check=True, capture_output=True, text=True).stdout
    for e in json.loads(out)["nftables"]:
        for x in e.get("rule", {}).get("expr", []):
            if "counter" in x:
                print(x["counter"]["packets"])


def check(dropped, loss_txt, t_txt):
    d = int(dropped)
    v, unit = open(loss_txt).read().strip().split("|")
    loss = float(v)
    t = [float(x) for x in open(t_txt)]
    if unit != "%":
        sys.exit("latency.loss unit %r, not %%" % unit)
    if not loss > 0:
        sys.exit("latency.loss %g with %d dropped" % (loss, d))
    got = sum(1 for x in t if 0 <= x <= t[-1] - 1)
    k = 100 * d / loss
    print("# latency.loss %.6f%%: %d of %.6f probes; %d replies in the "
          "window" % (loss, d, k, got))
    if abs(k - round(k)) > 1e-6:
        sys.exit("latency.loss %.9g%% is not %d lost of a whole number of "
                 "probes" % (loss, d))
    k = round(k)
    if not got + d - 2 <= k <= got + d + 2:
        sys.exit("latency.loss counts %d probes in its window; the series "
                 "has %d replies there and nft dropped %d" % (k, got, d))


if __name__ == "__main__":
    if sys.argv[1] == "counters":
        counters(sys.argv[2])
    else:
        check(*sys.argv[2:5])
