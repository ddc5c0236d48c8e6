#!/bin/sh
# SPDX-License-Identifier: MIT
# Fault-injection command for the runner's end-to-end tests (a FAKE engine,
# used only to inject faults and known values; real measurements use real
# iperf3). Modes:
#   values             print known values as JSON: 123.5 MB/s, 12.25 ms
#   fail               print an error on stderr and exit 1
#   hang PIDFILE       start a grandchild, record both pids, sleep forever
#   garbage            print bytes that are no metric at all
#   crash              kill itself with SIGSEGV
#   write FILE VALUE   store VALUE in FILE (an apply hook); the value
#                      "broken" stores "nope" so that verify must fail
#   slow SECONDS       sleep, then print values (a run long enough to kill)
mode=$1
shift || true
case $mode in
values)
	echo '{"rate_MBps": 123.5, "latency_ms": 12.25, "ops": 4096}'
	;;
fail)
	echo "fault_engine: simulated failure: disk full" >&2
	exit 1
	;;
hang)
	sleep 1000 &
	echo "$$ $!" >"$1"
	sleep 1000
	;;
garbage)
	printf 'no metric here \001\002 {"broken": \n'
	;;
crash)
	kill -SEGV $$
	;;
write)
	if [ "$2" = broken ]; then echo nope >"$1"; else echo "$2" >"$1"; fi
	;;
slow)
	sleep "$1"
	echo '{"rate_MBps": 100, "latency_ms": 1}'
	;;
*)
	echo "fault_engine: unknown mode '$mode'" >&2
	exit 2
	;;
esac
