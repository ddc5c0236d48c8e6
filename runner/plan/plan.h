/*
 * The plan model: what a YAML plan (schema/plan.md, format version 1) means
 * once loaded and validated. plan_load() builds it; everything else reads
 * it. All memory belongs to the plan's arena and is freed by plan_free().
 * Fields are read-only for every module but the loader (plan_load.c and
 * the builders of plan_build.h). This header is the model alone: the
 * loader, the lookups (plan_query.c) and the rest define what it declares.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PLAN_H
#define XR_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "xr_err.h"
#include "counter_group.h"

struct arena;

struct plan_pos {
	int line, col; /* 1-based; 0 when synthesised */
};

/* An argv template: words may hold {{placeholders}}. */
struct plan_argv {
	const char **argv; /* NULL-terminated; NULL when absent */
	int argc;
	struct plan_pos pos;
};

struct plan_kv {
	const char *key;
	const char *value; /* scalar text (may hold placeholders) */
	struct plan_pos pos;
};

enum plan_shell { PLAN_SHELL_SH = 0, PLAN_SHELL_POWERSHELL };
/* The host's operating system: which commands probes, counters and facts
 * run there (runner/host/hostos.c). */
enum plan_os { PLAN_OS_LINUX = 0, PLAN_OS_WINDOWS, PLAN_OS_MACOS };

struct plan_host {
	const char *name; /* "local" is always hosts[0] */
	const char *ssh;  /* "user@host" or NULL */
	int port;	  /* ssh port, 0 = default */
	const char *identity;
	struct plan_argv ssh_options; /* extra ssh arguments */
	/* Directories put before the far side's PATH on an ssh sh host
	 * (path:); none given: macOS hosts get HOST_MACOS_PATH. */
	struct plan_argv path;
	const char *netns;   /* network namespace name or NULL */
	const char *address; /* address engines connect to, or NULL */
	const char *iface;   /* interface for counters/probes, or NULL */
	enum plan_shell shell;
	enum plan_os os; /* os:, else windows for shell: powershell */
	int os_given;	 /* os or shell said it; else ssh hosts detect it */
	double wait; /* seconds to wait for it after a manual step; 0 = none */
	/* session: false: host readings start a process each instead of
	 * using one persistent shell (runner/host/host_session.c). */
	int no_session;
	struct plan_pos pos;
};

enum plan_verify_match {
	PLAN_MATCH_EXACT = 0,
	PLAN_MATCH_CONTAINS,
	PLAN_MATCH_PREFIX
};

struct plan_verify {
	const char *probe; /* built-in probe ("nic.mtu", ...) or NULL */
	struct plan_argv
	    run; /* or a command whose trimmed stdout is the value */
	/* Expected value: one template for all levels (expect: "{{cc}}") or
	 * one per level (expect: {level: value}); exactly one is set. When
	 * neither is given the level itself is expected. */
	const char *expect;
	const char **expect_by_level; /* [nlevels] or NULL */
	enum plan_verify_match match;
	struct plan_pos pos;
};

/*
 * A factor's `hosts:` entry: which host plays a role at each level. The
 * role is "client", "server" or a name used in some factor's `on:`.
 */
struct plan_binding {
	const char *role;
	const char **host; /* [nlevels] host name per level, as written */
	struct plan_pos *host_pos; /* [nlevels] */
	struct plan_pos pos;	   /* of the role key */
	/* A host name may hold other factors' levels ("x570-{{os}}", for a
	 * host that is one machine booted into one OS). Resolved at load:
	 * table[l * nways + k] is the host of level l in the k-th combination
	 * (mixed radix, ref[0] slowest) of the levels of factors ref[]. A
	 * plain binding has nref 0, nways 1 and table == host. */
	int *ref;
	int nref;
	size_t nways;
	const char **table;
};

struct plan_factor {
	const char *name;
	const char **levels; /* [nlevels], as strings */
	struct plan_pos *level_pos;
	int nlevels;
	const char *param; /* engine parameter set by this factor, or NULL */
	/* params: engine parameters set by each level, or NULL. When set,
	 * level_params[i] holds nlevel_params[i] entries for levels[i] (an
	 * empty mapping sets nothing); values may hold placeholders. A
	 * factor has param or level_params, never both. */
	struct plan_kv **level_params;
	int *nlevel_params;
	const char *manual;	/* instruction template, or NULL (automatic) */
	struct plan_argv apply; /* hook run when the level changes */
	/* verify: one mapping or a list of them, each checked before every
	 * run; the factor is verified when all pass. verify[0] is the one
	 * that reads the setting's value (restore: true's original). */
	struct plan_verify *verify; /* [nverify] or NULL */
	int nverify;
	/* restore: true -> restore_original; restore: [argv] -> restore */
	int restore_original;
	struct plan_argv restore;
	const char **on; /* host names the hooks run on; default {"client"} */
	int non;
	struct plan_binding *bind; /* hosts: roles bound per level, or NULL */
	int nbind;
	double wait; /* manual: seconds to wait for its hosts; 0 = host's */
	struct plan_pos pos;
};

/* The statistics a series metric takes of its points (`stat:`), one row
 * each: the plan's word. */
#define PLAN_SERIES_STATS(X)                                                   \
	X(MEDIAN, "median")                                                    \
	X(P95, "p95")                                                          \
	X(MAX, "max")                                                          \
	X(MIN, "min")                                                          \
	X(MEAN, "mean")                                                        \
	X(DELTA, "delta")
#define PLAN_STAT_ENUM(e, word) PLAN_STAT_##e,
enum plan_series_stat { PLAN_SERIES_STATS(PLAN_STAT_ENUM) PLAN_STAT_COUNT };
#undef PLAN_STAT_ENUM
/* The word of stat, "" for none. */
const char *plan_series_stat_name(int stat);

struct plan_metric {
	const char *name; /* "throughput", "latency", ... */
	/* A series metric (`series:`, any engine): a statistic of one series
	 * observed during the run (runner/exec/series_metric.c); the engine
	 * ignores it. NULL: a metric the engine extracts (command). */
	const char *series; /* series name, e.g. engine.throughput */
	const char *host;   /* host or role (client, server); NULL: any */
	int stat;	    /* enum plan_series_stat */
	int rate;	   /* rate: true: values per second of their interval */
	const char *json;  /* JSON pointer into stdout, or NULL */
	const char *regex; /* POSIX ERE with one capture group, or NULL */
	/* How the extracted text writes a number: the thousands separator
	 * ("" none, ",", ".", " ", "'") and the decimal mark ("." or ","). */
	const char *thousands, *decimal;
	double bytes;	  /* > 0: value = bytes / elapsed seconds */
	const char *unit; /* declared unit of the extracted value (a series
			     metric: of the series' values; NULL: the
			     series' own) */
	int better;	  /* better: higher -> 1, lower -> -1, unset 0
			     (the report's default for the name) */
	struct plan_pos pos;
};

struct plan_engine {
	const char *type;	 /* an engine's name (runner/engine) */
	const char *client;	 /* host the engine (client side) runs on */
	const char *server_host; /* iperf3: server host name or NULL */
	int server_start;	 /* iperf3: xrun starts/stops iperf3 -s */
	const char *target;	 /* iperf3: address to connect to (template);
				    default: server host's address */
	double duration;	 /* seconds; iperf3 -t (default 10) */
	double omit;		 /* seconds; iperf3 -O (default 0) */
	double timeout;		 /* seconds; 0 = duration + omit + margin */
	/* Remaining engine parameters (parallel, reverse, udp, bitrate, ...)
	 * as written; checked by the engine's check(). */
	struct plan_kv *params;
	int nparams;
	struct plan_argv run; /* command: argv template */
	struct plan_metric *metrics;
	int nmetrics;
	struct plan_pos pos;
};

struct plan_exclude {
	/* A conjunction: the cells where every listed factor has one of the
	 * listed levels. */
	int nterms;
	int *factor; /* [nterms] factor index */
	int *nlv;    /* [nterms] how many levels listed */
	int **lv;    /* [nterms][nlv] level indices */
	struct plan_pos pos;
};

/* The run orders (schema/plan.md, "Scheduling"): X(id, name), the first
 * the default. The loader, its message of valid values, `xrun plan` and
 * the session's description read the names from here. */
#define PLAN_ORDER_MAP(X)                                                      \
	X(ABBA, "abba")                                                        \
	X(RANDOM, "random")                                                    \
	X(SEQUENTIAL, "sequential")

enum plan_order {
#define PLAN_ORDER_ENUM(id, name) PLAN_ORDER_##id,
	PLAN_ORDER_MAP(PLAN_ORDER_ENUM)
#undef PLAN_ORDER_ENUM
	    PLAN_ORDER_COUNT
};

/* The names in the table's order, NULL-terminated. */
extern const char *const plan_order_names[];
/* "abba", ...; the default's name outside the table. */
const char *plan_order_name(enum plan_order o);
/* The order named name, or -1. */
int plan_order_find(const char *name);

/* A plan's counter groups as bits: PLAN_COUNTER_<id> = 1 << its row of
 * COUNTER_GROUP_MAP (runner/desc/counter_group.h), which says what each
 * reads. */
enum plan_counter {
#define PLAN_COUNTER_BIT(id, name, letter, os, doc)                            \
	PLAN_COUNTER_##id = 1u << COUNTER_GROUP_##id,
	COUNTER_GROUP_MAP(PLAN_COUNTER_BIT)
#undef PLAN_COUNTER_BIT
};

/* `counters:` takes a group's name or one of these (schema/plan.md). */
#define PLAN_COUNTERS_ALL "all"
#define PLAN_COUNTERS_NONE "none"
/* The words `counters:` takes: the groups, then all and none;
 * NULL-terminated. */
extern const char *const plan_counters_choices[];
/* The bits of one word of `counters:` into *bits: 0, or -1 when it names
 * none of plan_counters_choices. */
int plan_counters_word(const char *word, unsigned *bits);

struct plan_table {
	const char *rows;     /* factor name */
	const char **columns; /* factor names */
	int ncolumns;
	const char *metric; /* or NULL = report default */
	struct plan_pos pos;
};

struct plan_compare {
	const char *factor;    /* factor name, or NULL for an explicit pair */
	const char *baseline;  /* level, or NULL */
	struct plan_kv *a, *b; /* explicit pair: factor -> level */
	int na, nb;
	/* accept: sequential: the plan accepts sides that were not
	 * interleaved (a hardware swap done once); the verdict then stands
	 * with the warning in the verdict cell. */
	int accept_sequential;
	struct plan_pos pos;
};

struct plan_report {
	struct plan_table *tables;
	int ntables;
	struct plan_compare *compare;
	int ncompare;
	const char **outputs; /* files written at the end of a run */
	int noutputs;
	const char *lang; /* "en" | "ja" or NULL */
	double threshold; /* noise threshold theta, fraction (0.01) */
	const char *unit; /* display unit override or NULL */
};

/* `reconnect:` (schema/plan.md, "Lost connections"): after a run lost
 * its host (ssh could not reach it), try again up to `tries` times, the
 * first after `wait` seconds, each wait doubled up to `max_wait`; then
 * stop the session (exit 3), its runs left pending. tries 0: `off` (stop
 * at once). */
struct plan_reconnect {
	int tries;
	double wait, max_wait;
};
#define PLAN_RECONNECT_TRIES 8
#define PLAN_RECONNECT_WAIT 2.0
#define PLAN_RECONNECT_MAX_WAIT 60.0

/* `latency: { probe: ping, from: HOST, to: HOST, interval: 100ms,
 * idle: 2s }` (schema/plan.md, "Latency under load"): a probe beside the
 * engine on every run. probe NULL: none. from, to: a host of the plan
 * or a role (client, server); to may be an IP address instead. */
struct plan_latency {
	const char *probe; /* a name of the catalog's latency_probe_names */
	const char *from;  /* default "client" */
	const char *to;	   /* default "server" */
	double interval;   /* seconds between probes, default 0.1 */
	double idle;	   /* seconds probed before the engine, default 2 */
	struct plan_pos pos, probe_pos, to_pos;
};

/* `search:` (schema/plan.md, "Rate search"): each run of a cell is an
 * RFC 9971 search of the offered load that param sets, its trials stored
 * as runs of their own. param NULL: no search. */
struct plan_search_goal {
	const char *name; /* ndr, pdr ... */
	double loss;	  /* Goal Loss Ratio, fraction */
	double trial;	  /* Goal Final Trial Duration, s */
	double sum;	  /* Goal Duration Sum, s */
	double exceed;	  /* Goal Exceed Ratio, fraction */
	struct plan_pos pos;
};
struct plan_search {
	const char *param; /* engine parameter or run placeholder */
	double min, max;   /* loads, in param's unit (bit/s for bitrate) */
	double width;	   /* relative Goal Width, fraction */
	/* the metric holding each trial's loss ratio; NULL: from
	 * lost_packets, packets and bytes (iperf3 UDP, with the sender's
	 * shortfall) */
	const char *loss;
	int max_trials; /* per search; default PLAN_SEARCH_MAX_TRIALS */
	/* the sender's shortfall not counted as loss (iperf3 UDP): this
	 * much time of the load, at least one datagram; default 1 ms */
	double unsent;
	struct plan_search_goal *goals;
	int ngoals;
	struct plan_pos pos, param_pos;
};
#define PLAN_SEARCH_MAX_TRIALS 100
extern const char *const plan_search_keys[];

/* The keys the loader takes at the top of a plan and in `latency:`
 * (NULL-terminated): schema/plan.schema.json's properties match them
 * (tests/unit/plan/test_plan_latency.c). */
extern const char *const plan_top_keys[];
extern const char *const plan_latency_keys[];

struct plan {
	struct arena *arena;
	const char *path; /* file it was read from */
	char hash[65];	  /* sha256 hex of the file bytes */
	int version;	  /* xrun: */
	const char *name;
	const char *title;
	const char *description;
	struct plan_host *hosts; /* hosts[0] is "local" */
	int nhosts;
	struct plan_kv *vars;
	int nvars;
	struct plan_engine engine;
	struct plan_factor *factors; /* in file order */
	int nfactors;
	struct plan_exclude *excludes;
	int nexcludes;
	int repeat;		    /* 1..10000, default 1; the pilot's
				       count (`min`) when sized */
	struct plan_pos repeat_pos; /* of its value; 0:0 when not written */
	/* `repeat: { min, max, precision }` (schema/plan.md, "Sized
	 * repetitions"): the first `repeat` runs of each cell are a pilot,
	 * then each cell gets the runs its precision needs, at most
	 * repeat_max. precision 0: a fixed count (repeat_max == repeat). */
	int repeat_max;
	double precision; /* target half-width of the 95% interval, as a
			     fraction of the estimate (0.01 for 1%) */
	enum plan_order order;
	uint64_t seed; /* default 1 */
	int warmup;    /* warm-up runs at each block start, default 0 */
	double settle; /* seconds before each run, default 0 */
	/* how many times one `xrun run` runs again, in its place, a run that
	 * had failed or timed out before it started; default 1, 0 never */
	int retry;
	double sample; /* seconds between counter samples during a run
			  (`sample:`), default 1, at least 0.1; 0 = off */
	unsigned
	    counters; /* enum plan_counter bits; default nic|tcp|cpu|capture */
	struct plan_reconnect reconnect;
	struct plan_argv on_finish;
	struct plan_report report;
	struct plan_latency latency;
	struct plan_search search;
};

/* What the loader is told of the engines and probes (plan_catalog.h). */
#include "plan_catalog.h"

/*
 * Load and validate a plan. On success returns 0 and *out. On failure
 * returns -XR_EPLAN (or -XR_EIO for an unreadable file), every problem
 * having been added to diag as "line:col: message" (diag->file is set to
 * path). Warnings may be added on success too.
 */
int plan_load(const char *path, const struct plan_catalog *cat,
	      struct plan **out, struct xr_diag *diag);
/* The same from memory; name is used in messages. */
int plan_load_mem(const char *name, const char *text, size_t len,
		  const struct plan_catalog *cat, struct plan **out,
		  struct xr_diag *diag);
void plan_free(struct plan *p);

/* The lookups over a loaded plan (plan_query.c, plan_pair.c). */
#include "plan_query.h"

#endif
