/*
 * The engine table and what all engines share: result bookkeeping and
 * argv helpers. Adding an engine: one file plus one line in engines[].
 *
 * SPDX-License-Identifier: MIT
 */
#include "engine.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#include "buf.h"
#include "host.h"
#include "proc.h"
#include "strv.h"
#include "banned.h"

static const struct engine_ops *const engines[] = {
    &engine_iperf3,    &engine_command,	   &engine_networkquality,
    &engine_speedtest, &engine_librespeed,
};

const struct engine_ops *engine_find(const char *name)
{
	size_t i;
	if (!name)
		return NULL;
	for (i = 0; i < sizeof engines / sizeof engines[0]; i++)
		if (strcmp(engines[i]->desc.name, name) == 0)
			return engines[i];
	return NULL;
}

const struct engine_ops *engine_at(int i)
{
	if (i < 0 || (size_t)i >= sizeof engines / sizeof engines[0])
		return NULL;
	return engines[i];
}

const char *engine_primary_metric(const struct engine_ops *e,
				  const struct plan *p)
{
	int i;
	if (e && e->primary_metric)
		return e->primary_metric;
	for (i = 0; i < p->engine.nmetrics; i++)
		if (!strcmp(p->engine.metrics[i].name, "throughput"))
			return "throughput";
	return p->engine.nmetrics ? p->engine.metrics[0].name : NULL;
}

int engine_programs(const struct engine_ops *e, const struct plan *p,
		    const char **out, int max)
{
	const char *run0 = p->engine.run.argv ? p->engine.run.argv[0] : NULL;
	int n = 0, i;
	for (i = 0; e && e->programs && e->programs[i] && n < max; i++)
		out[n++] = e->programs[i];
	if (e && e->desc.reads_run && run0 && run0[0] && !strstr(run0, "{{") &&
	    n < max)
		out[n++] = run0;
	return n;
}

/* PROC_* -> RUN_*: what a command that did not simply exit means for
 * the run (an exit is the engine's to judge from its output). */
static const struct {
	enum proc_status proc;
	enum run_status run;
} proc_map[] = {
    {PROC_TIMEOUT, RUN_TIMEOUT},
    {PROC_INTERRUPTED, RUN_INTERRUPTED},
    {PROC_EXEC_FAILED, RUN_FAILED},
    {PROC_SIGNALED, RUN_FAILED},
};

int engine_result_from_proc(struct engine_result *r,
			    const struct proc_result *pr, const char *who,
			    double deadline)
{
	char desc[200], tail[240];
	size_t i;
	if (pr->status == PROC_EXITED)
		return 0;
	for (i = 0; i < sizeof proc_map / sizeof proc_map[0]; i++)
		if (proc_map[i].proc == pr->status)
			r->status = proc_map[i].run;
	proc_describe(pr, desc, sizeof desc);
	switch (pr->status) {
	case PROC_TIMEOUT:
		/* The deadline, not the elapsed time: a group that ignores
		 * SIGTERM dies only after the grace period. */
		engine_result_set_reason(r,
					 "%stimed out: still running at the "
					 "%.1f s deadline (process group "
					 "killed)",
					 who, deadline);
		return 1;
	case PROC_INTERRUPTED:
		engine_result_set_reason(r, "%sinterrupted", who);
		return 1;
	case PROC_EXEC_FAILED:
		engine_result_set_reason(r, "%s", desc);
		return -XR_EENV;
	case PROC_SIGNALED:
	default:
		engine_stderr_tail(pr->err, tail, sizeof tail);
		engine_result_set_reason(r, "%s%s%s%s", who, desc,
					 tail[0] ? ": " : "", tail);
		return 1;
	}
}

void engine_result_begin(struct engine_result *r)
{
	r->status = RUN_FAILED;
	r->exit_code = -1;
	r->started_at = proc_now_wall();
}

double engine_run_timeout(const struct engine_ops *e,
			  const struct engine_request *rq)
{
	if (rq->timeout > 0)
		return rq->timeout;
	return rq->duration + rq->omit + (e ? e->timeout_slack : 0);
}

int engine_run_command(const struct engine_ops *e, struct host *client,
		       const char *const *argv, const struct engine_request *rq,
		       engine_judge_fn judge, void *ctx,
		       struct engine_result *r)
{
	struct proc_opts o = {0};
	struct proc_result pr;
	struct xr_err err;
	struct buf js = BUF_INIT;
	int rc;

	engine_argv_json(argv, &js);
	r->argv_json = buf_detach(&js, NULL);
	o.argv = argv;
	o.watch = host_name(client);
	o.timeout = engine_run_timeout(e, rq);
	memset(&pr, 0, sizeof pr);
	xr_err_clear(&err);
	rc = host_run(client, &o, &pr, &err);
	if (rc < 0) {
		engine_result_set_reason(r, "cannot run '%s' on host '%s': %s",
					 argv[0], host_name(client), err.msg);
		proc_result_release(&pr);
		return rc;
	}
	engine_result_take_output(r, &pr);
	rc = engine_result_from_proc(r, &pr, "", o.timeout);
	if (rc == 0)
		judge(ctx, &pr, r);
	if (rc > 0)
		rc = 0;
	engine_result_note_cut(r);
	proc_result_release(&pr);
	return rc;
}

const char *engine_names(void)
{
	static char names[128];
	size_t i;
	if (!names[0])
		for (i = 0; i < sizeof engines / sizeof engines[0]; i++)
			snprintf(names + strlen(names),
				 sizeof names - strlen(names), "%s%s",
				 i ? ", " : "", engines[i]->desc.name);
	return names;
}

void engine_result_release(struct engine_result *r)
{
	free(r->raw);
	free(r->err_text);
	free(r->argv_json);
	free(r->metrics);
	free(r->iv_start);
	free(r->iv_end);
	free(r->iv_value);
	free(r->observed);
	series_set_release(&r->series);
	memset(r, 0, sizeof *r);
}

int engine_result_add_interval(struct engine_result *r, double start,
			       double end, double value)
{
	size_t n = (size_t)r->nintervals + 1;
	double *p;
	p = realloc(r->iv_start, n * sizeof *p);
	if (!p)
		return -XR_ENOMEM;
	r->iv_start = p;
	p = realloc(r->iv_end, n * sizeof *p);
	if (!p)
		return -XR_ENOMEM;
	r->iv_end = p;
	p = realloc(r->iv_value, n * sizeof *p);
	if (!p)
		return -XR_ENOMEM;
	r->iv_value = p;
	r->iv_start[r->nintervals] = start;
	r->iv_end[r->nintervals] = end;
	r->iv_value[r->nintervals] = value;
	r->nintervals++;
	return 0;
}

int engine_result_add_metric(struct engine_result *r, const char *name,
			     double value, const char *unit)
{
	struct engine_metric *m =
	    realloc(r->metrics, (size_t)(r->nmetrics + 1) * sizeof *m);
	if (!m)
		return -XR_ENOMEM;
	r->metrics = m;
	m += r->nmetrics++;
	memset(m, 0, sizeof *m);
	snprintf(m->name, sizeof m->name, "%s", name);
	snprintf(m->unit, sizeof m->unit, "%s", unit ? unit : "1");
	m->value = value;
	return 0;
}

int engine_result_add_observed(struct engine_result *r, const char *key,
			       const char *value)
{
	struct engine_observed *o =
	    realloc(r->observed, (size_t)(r->nobserved + 1) * sizeof *o);
	if (!o)
		return -XR_ENOMEM;
	r->observed = o;
	o += r->nobserved++;
	snprintf(o->key, sizeof o->key, "%s", key);
	snprintf(o->value, sizeof o->value, "%s", value ? value : "");
	return 0;
}

void engine_argv_free(char **argv)
{
	strv_free(argv);
}

void engine_argv_json(const char *const *argv, struct buf *out)
{
	size_t i;
	buf_addc(out, '[');
	for (i = 0; argv && argv[i]; i++) {
		if (i)
			buf_addc(out, ',');
		buf_add_json_str(out, argv[i]);
	}
	buf_addc(out, ']');
}

void engine_result_set_reason(struct engine_result *r, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->reason, sizeof r->reason, fmt, ap);
	va_end(ap);
}

void engine_result_take_output(struct engine_result *r,
			       const struct proc_result *pr)
{
	r->raw =
	    engine_strndup(pr->out ? pr->out : "", pr->out ? pr->out_len : 0);
	r->raw_len = pr->out ? pr->out_len : 0;
	r->err_text =
	    engine_strndup(pr->err ? pr->err : "", pr->err ? pr->err_len : 0);
	r->err_len = pr->err ? pr->err_len : 0;
	r->out_cut = pr->out_cut ? pr->max_output : 0;
	r->elapsed = pr->elapsed;
	if (pr->started_at > 0)
		r->started_at = pr->started_at;
	r->exit_code = pr->status == PROC_EXITED ? pr->exit_code : -1;
}

void engine_result_note_cut(struct engine_result *r)
{
	char was[sizeof r->reason];
	if (!r->out_cut || r->status == RUN_OK)
		return;
	snprintf(was, sizeof was, "%s", r->reason);
	engine_result_set_reason(r,
				 "stdout passed xrun's %zu MiB output cap and "
				 "was cut after %zu bytes (the rest was read "
				 "and dropped)%s%.400s",
				 r->out_cut >> 20, r->raw_len,
				 was[0] ? "; " : "", was);
}

char *engine_strndup(const char *s, size_t n)
{
	char *d = malloc(n + 1);
	if (!d)
		return NULL;
	if (n)
		memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

void engine_stderr_tail(const char *s, char *out, size_t outsz)
{
	size_t n = s ? strlen(s) : 0, i;
	while (n && isspace((unsigned char)s[n - 1]))
		n--;
	i = n > outsz - 1 ? n - (outsz - 1) : 0;
	snprintf(out, outsz, "%.*s", (int)(n - i), s ? s + i : "");
	for (i = 0; out[i]; i++)
		if (out[i] == '\n' || out[i] == '\r')
			out[i] = ' ';
}
