/*
 * Internals shared by the counter producers (counters.c) and the parser
 * (counters_parse.c); also used by facts.c and the tests.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_COUNTERS_INT_H
#define XR_COUNTERS_INT_H

#include <stddef.h>

struct buf;
struct counters_snap;

/*
 * Packet capture tools looked for in /proc/N/comm: one row each. TOOL(n)
 * is applied to every name, SEP between two, so one list gives both the
 * C array (counters_parse.c) and the sh case pattern of the remote script
 * (COUNTERS_CAPTURE_CASE, counters.c) at compile time.
 */
#define COUNTERS_CAPTURE_TOOLS(TOOL, SEP)                                      \
	TOOL(tcpdump)                                                          \
	SEP TOOL(dumpcap)                                                      \
	SEP TOOL(tshark)                                                       \
	SEP TOOL(wireshark)                                                    \
	SEP TOOL(termshark)                                                    \
	SEP TOOL(pktmon)
#define COUNTERS_TOOL_STR(n) #n
/* "tcpdump|dumpcap|...": a sh case pattern */
#define COUNTERS_CAPTURE_CASE COUNTERS_CAPTURE_TOOLS(COUNTERS_TOOL_STR, "|")
int counters_is_capture_tool(const char *comm);

/* Build the snapshot document of this machine (no subprocess). */
int counters_local_document(const char *iface, unsigned what, struct buf *doc);

/*
 * A producer of the same documents with sockets and open files of its
 * own, for a thread that has entered another network namespace (setns,
 * sampler.c): netns 1 reads the per-namespace files under
 * /proc/thread-self/net and never sysfs (which shows the namespace it was
 * mounted in). Its sockets and files are made on first use, so make and
 * use it on the thread, after setns. OUT: free with counters_reader_free;
 * NULL when out of memory.
 */
struct counters_reader;
struct counters_reader *counters_reader_new(int netns);
void counters_reader_free(struct counters_reader *r); /* NULL ok */
int counters_reader_document(struct counters_reader *r, const char *iface,
			     unsigned what, struct buf *doc);
/* The fixed sh script run on other hosts: sh -c SCRIPT sh IFACE LETTERS */
const char *counters_remote_script(void);
/* The remote sampler: sh -c SCRIPT sh IFACE LETTERS PERIOD_SECONDS TOKEN,
 * a framed document every period (counters_script.c says how); TOKEN the
 * host's watch token, or "". */
const char *counters_sampler_script(void);
/* The engine's processes the sampler follows, once: sh -c SCRIPT sh
 * TOKEN (counters_script.c). */
const char *counters_watch_script(void);
/* The engine command's far wrapper: sh -c WRAPPER TOKEN ARGV... leaves
 * the watch file TOKEN.PID (its own pid, which ARGV keeps by exec) in the
 * watch directory, when that is safe (counters_script.c), then execs
 * ARGV. */
const char *counters_watch_wrapper(void);
/* The session's own watch files removed: sh -c SCRIPT sh TOKEN. */
const char *counters_watch_cleanup(void);
/* The processes of a session's watch files ended: sh -c SCRIPT sh TOKEN;
 * prints "ended: PID..." when there were any. */
const char *counters_watch_reap(void);
/* The section letters of what (enum plan_counter): each group's letter
 * column of COUNTER_GROUP_MAP (n t c p), or "-". */
void counters_letters(unsigned what, char letters[8]);

/* The document said the interface does not exist ("@@ noiface"). */
int counters_snap_missing_iface(const struct counters_snap *s);
/* Capture tools seen in one snapshot as "tcpdump x2, dumpcap x1", or ""
 * when the procs section was read and none runs. Returns how many, or
 * COUNTERS_NOT_READ when the section was not read. Appends to out. */
#define COUNTERS_NOT_READ (-1)
int counters_snap_captures(const struct counters_snap *s, struct buf *out);

/* One raw counter of a snapshot (scope nic, ethtool, tcp, udp, softirq,
 * capture): 1 and *v when present, else 0. For tests and diagnostics. */
int counters_snap_get(const struct counters_snap *s, const char *scope,
		      const char *name, double *v);

#endif
