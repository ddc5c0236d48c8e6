/*
 * Load engines behind one table of operations (like iperf3's struct
 * protocol). Adding an engine is one file defining its engine_ops (the
 * descriptor below) plus one line in engines[] (engine.c). The runner
 * expands every template before calling an engine: engines see plain
 * strings.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_ENGINE_H
#define XR_ENGINE_H

#include <stddef.h>

#include "plan.h"
#include "run_status.h"
#include "series.h"
#include "xr_err.h"

struct plan;
struct host;
struct buf;

struct engine_param {
	const char *key;   /* "parallel", "congestion", "duration", ... */
	const char *value; /* expanded text */
	/* The value's template split at its own blanks, each word expanded
	 * alone, so that a placeholder's value never splits into words (for
	 * a parameter that is a list of words: iperf3's extra). NULL when
	 * the template has no placeholder: split value instead. */
	const char *const *words;
};

/* What one run asks of the engine. */
struct engine_request {
	const struct engine_param *params; /* engine section, then factor
					      params overriding them */
	int nparams;
	const char *const *run_argv; /* command engine: expanded argv */
	const char *target;	     /* iperf3: address to connect to */
	double duration, omit;	     /* seconds */
	/* seconds between the engine's own interval reports, the plan's
	 * `sample:` period so that engine.* series line up with the
	 * sampler's; 0: the engine's default (iperf3: 1 s) */
	double interval;
	double timeout; /* seconds; the run's deadline */
};

struct engine_metric {
	char name[48]; /* "throughput", "retransmits", "jitter", ... */
	double value;  /* SI base unit */
	char unit[16]; /* "bit/s", "s", "1", "%", "B" ... */
};

/* A setting the engine reports it actually used (iperf3: congestion
 * control from end.sender_tcp_congestion, mss, socket buffer). */
struct engine_observed {
	char key[32];
	char value[96];
};

struct engine_result {
	enum run_status status;
	char reason[512];  /* why it failed, "" when ok */
	int exit_code;	   /* -1 when not exited */
	double started_at; /* wall clock */
	double elapsed;	   /* seconds */
	char *raw;	   /* engine stdout as produced (owned) */
	size_t raw_len;	   /* its bytes (it may hold NULs); 0: strlen */
	char *err_text;	   /* stderr (owned) */
	size_t err_len;	   /* 0: strlen */
	size_t out_cut;	   /* stdout passed this cap and was cut; 0: no */
	char *argv_json;   /* JSON array of the argv executed (owned) */
	struct engine_metric *metrics; /* owned; [0] is the primary metric
					  (throughput) when present */
	int nmetrics;
	/* per-interval series of the primary metric (base units), as the
	 * receiving side measured it when the engine can tell (iperf3:
	 * the server's intervals through --get-server-output, or the
	 * reverse-mode client's); observed "interval_side" says which */
	double *iv_start, *iv_end, *iv_value; /* owned, [nintervals] */
	int nintervals;
	/* the host label whose intervals iv_* are (the receiver; with
	 * iperf3 --bidir the client, the two directions summed); "" when
	 * the engine does not say */
	char iv_host[SERIES_HOST_MAX];
	/* the engine's other per-interval series (iperf3:
	 * engine.sender_throughput, engine.retransmits, engine.snd_cwnd,
	 * engine.rtt, engine.rttvar on the sending host); owned, freed by
	 * engine_result_release */
	struct series_set series;
	struct engine_observed *observed; /* owned */
	int nobserved;
};
void engine_result_release(struct engine_result *r);
/* Append one interval to iv_*; 0 or -XR_ENOMEM. */
int engine_result_add_interval(struct engine_result *r, double start,
			       double end, double value);
int engine_result_add_metric(struct engine_result *r, const char *name,
			     double value, const char *unit);
int engine_result_add_observed(struct engine_result *r, const char *key,
			       const char *value);

struct engine_ref_param;

/*
 * The engine descriptor: the one place an engine is known. Everything
 * else (the plan loader, the run loop, sizing, reports, the JSON Schema
 * test) reads these fields and never tests an engine's name. What its
 * parameters say of a published condition is its row in
 * runner/desc/engine_cond.c, the leaf the report side may read.
 */
struct engine_ops {
	/* What the plan loader sees of the engine (plan.h): name, check,
	 * has_param, default duration, server/target, run/metrics. */
	struct plan_engine_desc desc;
	/* Programs checked on the client host before any run (a missing
	 * one: exit 3), NULL-terminated; desc.reads_run adds the plan's
	 * run[0]. */
	const char *const *programs;
	/* The primary metric of every run and its unit; NULL: the plan's
	 * metrics say (throughput when declared, else the first). */
	const char *primary_metric, *primary_unit;
	/* Every metric a run of it can store, NULL-terminated; NULL: the
	 * plan's metrics say (command). A published reference's column of
	 * one of these names is a metric, any other a factor. */
	const char *const *metrics;
	/* Seconds a run may take past duration + omit when the request
	 * has no timeout (engine_run_timeout): the tool's own start-up,
	 * connection and wind-down. */
	double timeout_slack;
	/* What its parameters say of a published condition, backwards:
	 * the parameter a condition or factor named in a reference sets
	 * (`xrun plan --from-reference`); NULL: none, ended by a NULL
	 * name. */
	const struct engine_ref_param *ref_params;
	/* Parameter i's name and its JSON Schema fragment (the value of
	 * its property in schema/plan.schema.json's engine), NULL past
	 * the last. NULL: no parameters. */
	const char *(*param_schema)(int i, const char **fragment);
	/* The argv the client side will execute. OUT: NULL-terminated,
	 * caller frees with engine_argv_free. */
	char **(*build_argv)(const struct plan *p,
			     const struct engine_request *rq,
			     struct xr_err *err);
	/* Session start/end: e.g. start iperf3 -s on the server host.
	 * *state is the engine's own. */
	int (*open)(const struct plan *p, struct host *client,
		    struct host *server, void **state, struct xr_err *err);
	/* Execute one run; always fills res (a failed run is data).
	 * Returns 0, or negative only for environment errors. */
	int (*run)(void *state, const struct plan *p,
		   const struct engine_request *rq, struct engine_result *res);
	void (*close)(void *state);
};

struct proc_result;

/* A published condition or factor name (a reference's) and the engine
 * parameter it sets. */
enum engine_ref_kind {
	ENGINE_REF_VALUE,     /* the published value as it is */
	ENGINE_REF_SECONDS,   /* a bare number is seconds ("10" -> 10s) */
	ENGINE_REF_PROTOCOL,  /* "udp" sets param true, "tcp" nothing */
	ENGINE_REF_DIRECTION, /* a down word sets param, "bidir" chars */
};
struct engine_ref_param {
	const char *name;  /* condition key or factor column: "streams" */
	const char *param; /* the parameter: "parallel" */
	enum engine_ref_kind kind;
	/* VALUE, SECONDS: the characters a value may hold (a rough check
	 * before the engine's own); DIRECTION: the parameter "bidir" sets */
	const char *chars;
};

/* Helpers engines share. */

/* A run that has not yet started: failed until its engine says ok, no
 * exit code, started now. */
void engine_result_begin(struct engine_result *r);
/* The deadline of one run of e: the request's timeout, else duration +
 * omit + e's slack. */
double engine_run_timeout(const struct engine_ops *e,
			  const struct engine_request *rq);
/* The run of a command-style engine (one program on the client host,
 * its output read when it exits): argv recorded as JSON, run under
 * engine_run_timeout(e, rq), its output taken and its process status
 * mapped (engine_result_from_proc); when it exited, judge(ctx, pr, r)
 * reads it (sets r->status RUN_OK, or the reason it failed). The
 * caller has called engine_result_begin. 0, or negative for an
 * environment error (reason set). */
typedef void (*engine_judge_fn)(void *ctx, const struct proc_result *pr,
				struct engine_result *r);
int engine_run_command(const struct engine_ops *e, struct host *client,
		       const char *const *argv, const struct engine_request *rq,
		       engine_judge_fn judge, void *ctx,
		       struct engine_result *r);
void engine_result_set_reason(struct engine_result *r, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* A NUL-terminated copy of s[0..n) ("" for n = 0). OUT: caller frees. */
char *engine_strndup(const char *s, size_t n);
/* Copy what a finished command produced into r: stdout and stderr with
 * their lengths, times, exit code, and whether stdout was cut at its cap. */
struct proc_result;
void engine_result_take_output(struct engine_result *r,
			       const struct proc_result *pr);
/* A failed run whose stdout was cut at the cap says so in its reason
 * (the cut, not only what failed on the cut text). */
void engine_result_note_cut(struct engine_result *r);
/* The end of a stderr text as one line (newlines become spaces), for a
 * reason. */
void engine_stderr_tail(const char *s, char *out, size_t outsz);

/*
 * The process status of a finished command as the run's status (the one
 * mapping every engine shares): a timeout, an interrupt, a signal or a
 * failed exec settle the run here, its reason prefixed by who ("iperf3 "
 * or ""); deadline is the timeout the command had. Returns 0 when the
 * command exited (the engine reads its output and exit code), 1 when the
 * run is settled, -XR_EENV when the program could not be executed.
 */
int engine_result_from_proc(struct engine_result *r,
			    const struct proc_result *pr, const char *who,
			    double deadline);

/* The primary metric of p's runs (e's, else the plan's metrics: the
 * throughput, else the first); NULL when none. */
const char *engine_primary_metric(const struct engine_ops *e,
				  const struct plan *p);
/* The programs that must exist before p runs on e (e->programs, then
 * run[0] when it holds no placeholder), into out[0..max); their count. */
int engine_programs(const struct engine_ops *e, const struct plan *p,
		    const char **out, int max);

extern const struct engine_ops engine_iperf3;
extern const struct engine_ops engine_command;
extern const struct engine_ops engine_networkquality; /* engine_resp.c */
extern const struct engine_ops engine_speedtest;      /* engine_resp.c */
extern const struct engine_ops engine_librespeed;     /* engine_resp.c */
const struct engine_ops *engine_find(const char *name);
/* The i-th engine of the table; NULL past the last. */
const struct engine_ops *engine_at(int i);
/* "iperf3, command" */
const char *engine_names(void);
void engine_argv_free(char **argv);
/* argv as a JSON array text */
void engine_argv_json(const char *const *argv, struct buf *out);

#endif
