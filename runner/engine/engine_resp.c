/*
 * Responsiveness and speed-test tools as engines: macOS `networkQuality
 * -c`, Ookla's `speedtest -f json` and `librespeed-cli --json`. Each is
 * one row of presets[]: its
 * program and argv and the values of its one JSON document (a pointer, a
 * factor to SI base units, the unit, required or not). The engine runs the
 * tool on the client host and reads that document; names follow the
 * report's direction rule (latency, jitter, loss: lower is better; the
 * rest higher). Formats and their sources: tests/data/resp/README.md.
 *
 * SPDX-License-Identifier: MIT
 */
#include "engine_resp.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "host.h"
#include "proc.h"
#include "banned.h"

struct resp_value {
	const char *metric;  /* stored name */
	const char *pointer; /* "/download/bandwidth", "/0/ping": keys and
				array indexes only */
	double factor;	     /* to the unit below */
	const char *unit;
	int required; /* absent: the run fails (else the metric is skipped) */
};

struct resp_preset {
	const char *engine;
	const char *who; /* the tool's name in reasons */
	const char *const *argv;
	const struct resp_value *values; /* "throughput" first */
};

static const char *const nq_argv[] = {"networkQuality", "-c", NULL};
static const struct resp_value nq_values[] = {
    {"throughput", "/dl_throughput", 1, "bit/s", 1},
    {"throughput_up", "/ul_throughput", 1, "bit/s", 1},
    {"rpm", "/responsiveness", 1, "1", 1},
    {"latency.idle", "/base_rtt", 1e-3, "s", 0},
    {"rpm_down", "/dl_responsiveness", 1, "1", 0},
    {"rpm_up", "/ul_responsiveness", 1, "1", 0},
    {NULL, NULL, 0, NULL, 0},
};

static const char *const st_argv[] = {
    "speedtest",     "-f", "json", "-p", "no", "--accept-license",
    "--accept-gdpr", NULL};
static const struct resp_value st_values[] = {
    {"throughput", "/download/bandwidth", 8, "bit/s", 1},
    {"throughput_up", "/upload/bandwidth", 8, "bit/s", 1},
    {"latency.idle", "/ping/latency", 1e-3, "s", 1},
    {"jitter", "/ping/jitter", 1e-3, "s", 0},
    {"loss", "/packetLoss", 1, "%", 0},
    {"latency.loaded_down", "/download/latency/iqm", 1e-3, "s", 0},
    {"latency.loaded_up", "/upload/latency/iqm", 1e-3, "s", 0},
    {NULL, NULL, 0, NULL, 0},
};

/* librespeed-cli prints an array of reports, one per server tested (one
 * unless --server lists more): the first is read. download and upload in
 * Mbit/s (bytes/s / 125000), ping and jitter in ms. */
static const char *const ls_argv[] = {"librespeed-cli", "--json", NULL};
static const struct resp_value ls_values[] = {
    {"throughput", "/0/download", 1e6, "bit/s", 1},
    {"throughput_up", "/0/upload", 1e6, "bit/s", 1},
    {"latency.idle", "/0/ping", 1e-3, "s", 1},
    {"jitter", "/0/jitter", 1e-3, "s", 0},
    {"bytes_received", "/0/bytes_received", 1, "B", 0},
    {"bytes_sent", "/0/bytes_sent", 1, "B", 0},
    {NULL, NULL, 0, NULL, 0},
};

static const struct resp_preset presets[] = {
    {"networkquality", "networkQuality", nq_argv, nq_values},
    {"speedtest", "speedtest", st_argv, st_values},
    {"librespeed", "librespeed-cli", ls_argv, ls_values},
};

static const struct resp_preset *preset_of(const char *engine)
{
	size_t i;
	for (i = 0; engine && i < sizeof presets / sizeof *presets; i++)
		if (!strcmp(presets[i].engine, engine))
			return &presets[i];
	return NULL;
}

/* The value at a pointer of plain keys and, in an array, indexes
 * ("/a/b", "/0/c"); NULL when absent. */
static const json_t *at(const json_t *doc, const char *ptr)
{
	char key[64];
	while (doc && *ptr == '/') {
		const char *end = strchr(ptr + 1, '/');
		size_t n = end ? (size_t)(end - ptr - 1) : strlen(ptr + 1);
		snprintf(key, sizeof key, "%.*s", (int)n, ptr + 1);
		if (json_is_array(doc))
			doc = strspn(key, "0123456789") == strlen(key) && *key
				  ? json_array_get(doc, strtoul(key, NULL, 10))
				  : NULL;
		else
			doc = json_object_get(doc, key);
		ptr += n + 1;
	}
	return doc;
}

/* The whole output as JSON, else the first line that starts an object
 * or an array and parses (a tool may print a banner or progress before
 * it). */
static json_t *load(const char *out, size_t len)
{
	size_t i;
	json_t *j = json_loadb(out, len, 0, NULL);
	for (i = 0; !j && i < len; i++)
		if ((i == 0 || out[i - 1] == '\n') &&
		    (out[i] == '{' || out[i] == '['))
			j = json_loadb(out + i, len - i, JSON_DISABLE_EOF_CHECK,
				       NULL);
	return j;
}

static int parse(const struct resp_preset *ps, const char *out, size_t len,
		 struct engine_result *r)
{
	const struct resp_value *v;
	json_t *doc = load(out, len);
	int rc = 0;
	if (!doc) {
		engine_result_set_reason(r,
					 "%s printed no JSON object (%zu "
					 "bytes of stdout)",
					 ps->who, len);
		return -XR_EPARSE;
	}
	for (v = ps->values; v->metric && rc == 0; v++) {
		const json_t *j = at(doc, v->pointer);
		if (!j || !json_is_number(j) ||
		    !isfinite(json_number_value(j))) {
			if (!v->required)
				continue;
			engine_result_set_reason(r,
						 "%s output has no number at "
						 "'%s' (metric '%s')",
						 ps->who, v->pointer,
						 v->metric);
			rc = -XR_EPARSE;
			break;
		}
		rc = engine_result_add_metric(
		    r, v->metric, json_number_value(j) * v->factor, v->unit);
	}
	json_decref(doc);
	return rc;
}

int engine_resp_parse(const struct engine_ops *e, const char *out, size_t len,
		      struct engine_result *r)
{
	const struct resp_preset *ps = e ? preset_of(e->desc.name) : NULL;
	if (!ps)
		return -XR_EINTERNAL;
	return parse(ps, out ? out : "", out ? len : 0, r);
}

static int has_param(const char *key)
{
	(void)key;
	return 0; /* the tool runs as its preset says */
}

static char **build_argv(const struct plan *p, const struct engine_request *rq,
			 struct xr_err *err)
{
	const struct resp_preset *ps = preset_of(p->engine.type);
	char **v;
	size_t n = 0, i;
	(void)rq;
	if (!ps) {
		xr_err_set(err, XR_EINTERNAL, NULL, 0, 0,
			   "engine '%s' has no preset", p->engine.type);
		return NULL;
	}
	while (ps->argv[n])
		n++;
	v = calloc(n + 1, sizeof *v);
	for (i = 0; v && i < n; i++)
		if (!(v[i] = strdup(ps->argv[i]))) {
			engine_argv_free(v);
			v = NULL;
		}
	if (!v)
		xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	return v;
}

struct resp_state {
	struct host *client;
	const struct resp_preset *ps;
};

static int open_(const struct plan *p, struct host *client, struct host *server,
		 void **state, struct xr_err *err)
{
	struct resp_state *st = calloc(1, sizeof *st);
	(void)server;
	if (!st)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	st->client = client;
	st->ps = preset_of(p->engine.type);
	*state = st;
	return 0;
}

static void close_(void *state)
{
	free(state);
}

/* The tool exited: a non-zero status fails the run, else its one JSON
 * document is read (engine_run_command's judge). */
static void judge(void *ctx, const struct proc_result *pr,
		  struct engine_result *res)
{
	const struct resp_preset *ps = ctx;
	char tail[240];
	if (pr->exit_code != 0) {
		engine_stderr_tail(pr->err, tail, sizeof tail);
		engine_result_set_reason(res, "%s exited with status %d%s%s",
					 ps->who, pr->exit_code,
					 tail[0] ? ": " : "", tail);
	} else if (parse(ps, pr->out ? pr->out : "", pr->out ? pr->out_len : 0,
			 res) == 0) {
		res->status = RUN_OK;
	}
}

static int run(void *state, const struct plan *p,
	       const struct engine_request *rq, struct engine_result *res)
{
	struct resp_state *st = state;

	engine_result_begin(res);
	if (!st || !st->ps) {
		engine_result_set_reason(res, "engine used without a session");
		return -XR_EINTERNAL;
	}
	(void)p;
	return engine_run_command(engine_find(st->ps->engine), st->client,
				  st->ps->argv, rq, judge, (void *)st->ps, res);
}

#define RESP_ENGINE(var, ename, prog, dur)                                     \
	static const char *const var##_programs[] = {prog, NULL};              \
	const struct engine_ops var = {                                        \
	    .desc = {.name = ename,                                            \
		     .has_param = has_param,                                   \
		     .default_duration = dur},                                 \
	    .programs = var##_programs,                                        \
	    .primary_metric = "throughput",                                    \
	    .primary_unit = "bit/s",                                           \
	    .timeout_slack = 60,                                               \
	    .build_argv = build_argv,                                          \
	    .open = open_,                                                     \
	    .run = run,                                                        \
	    .close = close_,                                                   \
	}

/* networkQuality's default test runs until its measurements settle
 * (about 20 s); Ookla's picks a server, then down and up (about 30 s). */
RESP_ENGINE(engine_networkquality, "networkquality", "networkQuality", 20);
RESP_ENGINE(engine_speedtest, "speedtest", "speedtest", 30);
/* librespeed-cli: ping, then download and upload of 15 s each (its
 * --duration default). */
RESP_ENGINE(engine_librespeed, "librespeed", "librespeed-cli", 35);
