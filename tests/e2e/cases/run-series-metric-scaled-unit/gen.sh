# SPDX-License-Identifier: MIT
# Three intervals of known values, no unit: the series engine.throughput
# holds 12, 30, 18 as printed (run-series-metric-scaled-unit).
echo "count 7"
echo "xrun-interval 0 1 12"
echo "xrun-interval 1 2 30"
echo "xrun-interval 2 3 18"
