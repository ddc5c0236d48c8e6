# SPDX-License-Identifier: MIT
# Two intervals: the series engine.throughput of the client host (local)
echo "result: 100"
echo "xrun-interval 0 1 90"
echo "xrun-interval 1 2 110"
