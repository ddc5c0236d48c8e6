/*
 * Load engines behind one table of operations (like iperf3's struct
 * protocol). Adding an engine touches one file plus one line in
 * engine_table (engine.c). The runner expands every template before
 * calling an engine: engines see plain strings.
 */
#ifndef XR_ENGINE_H
#define XR_ENGINE_H

#include <stddef.h>

#include "err.h"
#include "plan.h"
#include "run_status.h"

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
	double timeout;		     /* seconds; the run's deadline */
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
	/* per-interval series of the primary metric (base units) */
	double *iv_start, *iv_end, *iv_value; /* owned, [nintervals] */
	int nintervals;
	struct engine_observed *observed; /* owned */
	int nobserved;
};
void engine_result_release(struct engine_result *r);
int engine_result_add_metric(struct engine_result *r, const char *name,
			     double value, const char *unit);
int engine_result_add_observed(struct engine_result *r, const char *key,
			       const char *value);

struct engine_ops {
	/* name, check and has_param: what the plan loader sees of the
	 * engine (plan.h) */
	struct plan_engine_desc desc;
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

/* Helpers engines share. */
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

extern const struct engine_ops engine_iperf3;
extern const struct engine_ops engine_command;
const struct engine_ops *engine_find(const char *name);
/* "iperf3, command" */
const char *engine_names(void);
void engine_argv_free(char **argv);
/* argv as a JSON array text */
void engine_argv_json(const char *const *argv, struct buf *out);

#endif
