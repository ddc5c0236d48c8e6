/*
 * The command load engine: runs any argv (already expanded by the runner
 * from engine.run) on the client host under a deadline, times it on the
 * monotonic clock, and extracts the plan's metrics from stdout by JSON
 * pointer (RFC 6901), by regex (POSIX ERE, first capture group) or as a
 * byte count over the elapsed time, converted to SI base units. A number
 * is read whole or not at all: a metric may name its thousands separator
 * and decimal mark, and a regex capture that sits inside a longer number
 * fails the run. `ok_exit` lists the exit statuses that mean success
 * (robocopy: 0-7, Microsoft's robocopy documentation, "Exit (return)
 * codes").
 *
 * SPDX-License-Identifier: MIT
 */
#include "engine.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "host.h"
#include "plan.h"
#include "proc.h"
#include "units.h"
#include "number_text.h"
#include "banned.h"

/* values reach the command as {{placeholders}} in run; the only
 * parameter is ok_exit */
static int has_param(const char *key)
{
	return strcmp(key, "ok_exit") == 0;
}

static const char *param(const struct plan *p, const char *key)
{
	int i;
	for (i = 0; i < p->engine.nparams; i++)
		if (!strcmp(p->engine.params[i].key, key))
			return p->engine.params[i].value;
	return NULL;
}

static int is_sep_ok(const char *s, const char *const *valid)
{
	int i;
	for (i = 0; valid[i]; i++)
		if (!strcmp(s, valid[i]))
			return 1;
	return 0;
}

static void check_format(const struct plan_metric *m, struct xr_diag *d)
{
	static const char *const thou[] = {"", ",", ".", " ", "'", NULL};
	static const char *const dec[] = {".", ",", NULL};
	if (m->thousands && !is_sep_ok(m->thousands, thou))
		xr_diag_add(d, 0, m->pos.line, m->pos.col,
			    "metric '%s': bad thousands separator '%s' (use "
			    "\",\", \".\", \" \", \"'\" or \"\" for none)",
			    m->name, m->thousands);
	if (m->decimal && !is_sep_ok(m->decimal, dec))
		xr_diag_add(d, 0, m->pos.line, m->pos.col,
			    "metric '%s': bad decimal mark '%s' (use \".\" "
			    "or \",\")",
			    m->name, m->decimal);
	if (m->thousands && m->thousands[0] &&
	    !strcmp(m->thousands, m->decimal ? m->decimal : "."))
		xr_diag_add(d, 0, m->pos.line, m->pos.col,
			    "metric '%s': thousands separator and decimal "
			    "mark are both '%s'",
			    m->name, m->thousands);
}

static int is_throughput(const char *name)
{
	return strcmp(name, "throughput") == 0 ||
	       strncmp(name, "throughput_", 11) == 0;
}

static void check_metric(const struct plan_metric *m, struct xr_diag *d)
{
	int n = (m->json != NULL) + (m->regex != NULL) + (m->bytes > 0);
	double f;
	const char *base;
	regex_t re;
	int rc;

	if (n != 1)
		xr_diag_add(d, 0, m->pos.line, m->pos.col,
			    "metric '%s' needs exactly one of json, regex or "
			    "bytes (has %d)",
			    m->name, n);
	if (m->json && m->json[0] && m->json[0] != '/')
		xr_diag_add(d, 0, m->pos.line, m->pos.col,
			    "metric '%s': JSON pointer '%s' must start with "
			    "'/' (e.g. /download/bandwidth)",
			    m->name, m->json);
	if (m->unit && units_metric(m->unit, &f, &base) < 0)
		xr_diag_add(d, 0, m->pos.line, m->pos.col,
			    "metric '%s': unknown unit '%s' (valid: bit/s, "
			    "Mbit/s, Gbit/s, B/s, MB/s, MiB/s, s, ms, us, B, "
			    "MB, %%, count, ...)",
			    m->name, m->unit);
	if (m->bytes > 0 && m->unit && units_metric(m->unit, &f, &base) == 0 &&
	    strcmp(base, "B/s") != 0 && strcmp(base, "bit/s") != 0)
		xr_diag_add(d, 0, m->pos.line, m->pos.col,
			    "metric '%s': a bytes metric is a rate in B/s, "
			    "not '%s'",
			    m->name, m->unit);
	if (m->regex) {
		rc = regcomp(&re, m->regex, REG_EXTENDED);
		if (rc != 0) {
			char msg[128];
			regerror(rc, &re, msg, sizeof msg);
			xr_diag_add(d, 0, m->pos.line, m->pos.col,
				    "metric '%s': bad regex '%s': %s", m->name,
				    m->regex, msg);
			return;
		}
		if (re.re_nsub < 1)
			xr_diag_add(d, 0, m->pos.line, m->pos.col,
				    "metric '%s': regex '%s' needs one capture "
				    "group around the number, e.g. "
				    "'([0-9.]+) MB/s'",
				    m->name, m->regex);
		regfree(&re);
	}
	check_format(m, d);
}

static void no_param(struct xr_diag *d, const struct plan_kv *kv)
{
	xr_diag_add(d, 0, kv->pos.line, kv->pos.col,
		    "engine 'command' takes no parameter '%s' (valid: "
		    "run, metrics, client, timeout, ok_exit; put values "
		    "into run as {{placeholders}})",
		    kv->key);
}

static void check(const struct plan *p, struct xr_diag *d)
{
	const struct plan_engine *e = &p->engine;
	int i;

	if (!e->run.argv || e->run.argc < 1 || !e->run.argv[0] ||
	    !e->run.argv[0][0])
		xr_diag_add(d, 0, e->pos.line, e->pos.col,
			    "engine 'command' needs a non-empty 'run' argv, "
			    "e.g. run: [speedtest, -f, json]");
	for (i = 0; i < e->nparams; i++) {
		unsigned char ok[256];
		char why[200];
		if (strcmp(e->params[i].key, "ok_exit"))
			no_param(d, &e->params[i]);
		else if (number_exit_set(e->params[i].value, ok, why,
					 sizeof why) < 0)
			xr_diag_add(d, 0, e->params[i].pos.line,
				    e->params[i].pos.col, "%s", why);
	}
	for (i = 0; i < p->nfactors; i++)
		if (p->factors[i].param)
			xr_diag_add(d, 0, p->factors[i].pos.line,
				    p->factors[i].pos.col,
				    "factor '%s': engine 'command' has no "
				    "parameter '%s'; use {{%s}} in engine.run "
				    "instead",
				    p->factors[i].name, p->factors[i].param,
				    p->factors[i].name);
	/* params: keys get the engine section's message, at their place */
	for (i = 0; i < p->nfactors; i++) {
		const struct plan_factor *f = &p->factors[i];
		int j, k;
		for (j = 0; f->level_params && j < f->nlevels; j++)
			for (k = 0;
			     f->level_params[j] && k < f->nlevel_params[j]; k++)
				no_param(d, &f->level_params[j][k]);
	}
	for (i = 0; i < e->nmetrics; i++)
		if (!e->metrics[i].series) /* exec computes those */
			check_metric(&e->metrics[i], d);
}

static char **build_argv(const struct plan *p, const struct engine_request *rq,
			 struct xr_err *err)
{
	char **v;
	size_t n = 0, i;

	(void)p;
	while (rq->run_argv && rq->run_argv[n])
		n++;
	if (!n) {
		xr_err_set(err, XR_EPLAN, NULL, 0, 0,
			   "engine 'command' has an empty run argv");
		return NULL;
	}
	v = calloc(n + 1, sizeof *v);
	if (!v)
		goto oom;
	for (i = 0; i < n; i++) {
		v[i] = strdup(rq->run_argv[i]);
		if (!v[i])
			goto oom;
	}
	return v;
oom:
	engine_argv_free(v);
	xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	return NULL;
}

/* ---- extraction ------------------------------------------------------ */

/*
 * RFC 6901: "" is the whole document; each "/token" descends, with "~1"
 * for '/' and "~0" for '~'; array tokens are decimal indices without
 * leading zeros.
 */
static const json_t *json_pointer(const json_t *doc, const char *ptr, char *why,
				  size_t whysz)
{
	struct buf tok = BUF_INIT;
	const json_t *cur = doc;
	const char *s = ptr;

	if (*s && *s != '/') {
		snprintf(why, whysz, "pointer does not start with '/'");
		return NULL;
	}
	while (cur && *s == '/') {
		const char *t;
		s++;
		buf_reset(&tok);
		while (*s && *s != '/') {
			if (*s == '~' && s[1] == '0') {
				buf_addc(&tok, '~');
				s += 2;
			} else if (*s == '~' && s[1] == '1') {
				buf_addc(&tok, '/');
				s += 2;
			} else if (*s == '~') {
				snprintf(why, whysz,
					 "bad escape '~' in pointer (use ~0 "
					 "or ~1)");
				cur = NULL;
				goto out;
			} else {
				buf_addc(&tok, *s++);
			}
		}
		t = tok.s ? tok.s : ""; /* an empty token is a valid key */
		if (json_is_object(cur)) {
			cur = json_object_get(cur, t);
			if (!cur)
				snprintf(why, whysz, "no member '%s'", t);
		} else if (json_is_array(cur)) {
			char *end;
			unsigned long long ix;
			if (!isdigit((unsigned char)t[0]) ||
			    (t[0] == '0' && t[1])) {
				snprintf(why, whysz,
					 "'%s' is not an array index", t);
				cur = NULL;
				goto out;
			}
			errno = 0;
			ix = strtoull(t, &end, 10);
			if (*end || errno || ix >= json_array_size(cur)) {
				snprintf(why, whysz,
					 "index %s is past the end (array of "
					 "%zu)",
					 t, json_array_size(cur));
				cur = NULL;
				goto out;
			}
			cur = json_array_get(cur, (size_t)ix);
		} else {
			snprintf(why, whysz,
				 "'%s' reaches into a value that is neither "
				 "object nor array",
				 t);
			cur = NULL;
		}
	}
out:
	buf_release(&tok);
	return cur;
}

struct extract {
	const char *out;
	size_t out_len;
	double elapsed;
	json_t *doc; /* parsed on first use */
	int doc_tried;
	char doc_err[200];
};

/*
 * Many tools print a banner or a summary around their JSON. When stdout as
 * a whole is not JSON, take the first object or array that starts a line
 * and parses, ignoring what follows it.
 */
static json_t *json_embedded(const char *out, size_t len)
{
	size_t i;
	json_error_t je;
	for (i = 0; i < len; i++) {
		json_t *j;
		if (i && out[i - 1] != '\n')
			continue;
		if (out[i] != '{' && out[i] != '[')
			continue;
		j = json_loadb(out + i, len - i, JSON_DISABLE_EOF_CHECK, &je);
		if (j)
			return j;
	}
	return NULL;
}

static int value_json(struct extract *x, const struct plan_metric *m, double *v,
		      char *why, size_t whysz)
{
	json_error_t je;
	const json_t *j;
	char pwhy[200] = "";

	if (!x->doc_tried) {
		x->doc_tried = 1;
		x->doc = json_loadb(x->out, x->out_len, JSON_DECODE_ANY, &je);
		if (!x->doc)
			snprintf(x->doc_err, sizeof x->doc_err,
				 "line %d, column %d: %s", je.line, je.column,
				 je.text);
		if (!x->doc)
			x->doc = json_embedded(x->out, x->out_len);
	}
	if (!x->doc) {
		snprintf(why, whysz, "stdout is not JSON (%s)",
			 x->out_len ? x->doc_err : "it is empty");
		return -XR_EPARSE;
	}
	j = json_pointer(x->doc, m->json, pwhy, sizeof pwhy);
	if (!j) {
		snprintf(why, whysz, "JSON pointer '%s' not found: %s", m->json,
			 pwhy);
		return -XR_EPARSE;
	}
	if (json_is_number(j) && isfinite(json_number_value(j))) {
		*v = json_number_value(j);
		return 0;
	}
	if (json_is_string(j) &&
	    number_parse_fmt(m->thousands, m->decimal, json_string_value(j),
			     json_string_length(j), v) == 0)
		return 0;
	snprintf(why, whysz, "value at '%s' is not a number (%s)", m->json,
		 json_is_string(j)   ? "a string"
		 : json_is_object(j) ? "an object"
		 : json_is_array(j)  ? "an array"
		 : json_is_null(j)   ? "null"
				     : "a boolean");
	return -XR_EPARSE;
}

static int value_regex(struct extract *x, const struct plan_metric *m,
		       double *v, char *why, size_t whysz)
{
	regex_t re;
	regmatch_t mt[2];
	size_t nsub, so, eo, wso, weo;
	int rc = regcomp(&re, m->regex, REG_EXTENDED);
	if (rc != 0) {
		char msg[128];
		regerror(rc, &re, msg, sizeof msg);
		snprintf(why, whysz, "bad regex '%s': %s", m->regex, msg);
		return -XR_EPLAN;
	}
	/* regexec stops at a NUL: stdout is NUL-terminated by proc */
	nsub = re.re_nsub;
	rc = regexec(&re, x->out, 2, mt, 0);
	regfree(&re);
	if (rc != 0) {
		snprintf(why, whysz, "regex '%s' did not match stdout",
			 m->regex);
		return -XR_EPARSE;
	}
	if (nsub < 1 || mt[1].rm_so < 0) {
		snprintf(why, whysz,
			 "regex '%s' matched but has no capture "
			 "group 1",
			 m->regex);
		return -XR_EPARSE;
	}
	so = (size_t)mt[1].rm_so;
	eo = (size_t)mt[1].rm_eo;
	/* only where the capture is the edge of the match: a regex that
	 * spells out what comes before or after meant it */
	if (number_inside_longer(m->thousands, x->out, x->out_len, so, eo,
				 mt[1].rm_so == mt[0].rm_so,
				 mt[1].rm_eo == mt[0].rm_eo)) {
		wso = so;
		weo = eo;
		number_around(m->thousands, x->out, x->out_len, &wso, &weo);
		snprintf(why, whysz,
			 "regex '%s' captured '%.*s' inside the longer number "
			 "'%.*s' (capture the whole number, e.g. "
			 "'([0-9][0-9,.]*)', and set thousands/decimal)",
			 m->regex, (int)(eo - so > 40 ? 40 : eo - so),
			 x->out + so, (int)(weo - wso > 60 ? 60 : weo - wso),
			 x->out + wso);
		return -XR_EPARSE;
	}
	if (number_parse_fmt(m->thousands, m->decimal, x->out + so, eo - so,
			     v) < 0) {
		snprintf(why, whysz,
			 "regex '%s' captured '%.*s', not a number%s", m->regex,
			 (int)(eo - so > 40 ? 40 : eo - so), x->out + so,
			 m->thousands || m->decimal
			     ? " in the metric's thousands/decimal format"
			     : " (set thousands: \",\" or decimal: \",\" "
			       "for 1,234 or 1,5)");
		return -XR_EPARSE;
	}
	return 0;
}

/* One metric, in base units; the unit name into unit. */
static int extract_metric(struct extract *x, const struct plan_metric *m,
			  double *v, char *unit, size_t unitsz, char *why,
			  size_t whysz)
{
	const char *decl = m->unit ? m->unit : "";
	const char *base = "1";
	double f = 1;
	int rc;

	if (m->bytes > 0) {
		if (!(x->elapsed > 0)) {
			snprintf(why, whysz, "elapsed time is zero");
			return -XR_EENGINE;
		}
		*v = m->bytes / x->elapsed;
		decl = "B/s";
		rc = 0;
	} else if (m->json) {
		rc = value_json(x, m, v, why, whysz);
	} else if (m->regex) {
		rc = value_regex(x, m, v, why, whysz);
	} else {
		snprintf(why, whysz, "no json, regex or bytes given");
		return -XR_EPLAN;
	}
	if (rc < 0)
		return rc;
	if (units_metric(decl, &f, &base) < 0) {
		snprintf(why, whysz, "unknown unit '%s'", decl);
		return -XR_EPLAN;
	}
	*v *= f;
	if (is_throughput(m->name) && strcmp(base, "B/s") == 0) {
		*v *= 8; /* throughput is stored in bit/s everywhere */
		base = "bit/s";
	}
	snprintf(unit, unitsz, "%s", base);
	return 0;
}

/* ---- one run --------------------------------------------------------- */

struct command_state {
	struct host *client;
};

static int open_(const struct plan *p, struct host *client, struct host *server,
		 void **state, struct xr_err *err)
{
	struct command_state *st = calloc(1, sizeof *st);
	(void)p;
	(void)server;
	if (!st)
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	st->client = client;
	*state = st;
	return 0;
}

static void close_(void *state)
{
	free(state);
}

static int extract_all(const struct plan *p, struct engine_result *res,
		       const struct proc_result *pr)
{
	const struct plan_engine *e = &p->engine;
	struct extract x = {0};
	char unit[16], why[320];
	double v;
	int i, pass, rc = 0;

	x.out = pr->out ? pr->out : "";
	x.out_len = pr->out ? pr->out_len : 0;
	x.elapsed = pr->elapsed;
	/* pass 0 takes "throughput", so that it is metrics[0] */
	for (pass = 0; pass < 2 && rc == 0; pass++)
		for (i = 0; i < e->nmetrics; i++) {
			const struct plan_metric *m = &e->metrics[i];
			if (m->series) /* exec computes those */
				continue;
			if ((strcmp(m->name, "throughput") == 0) != (pass == 0))
				continue;
			if (extract_metric(&x, m, &v, unit, sizeof unit, why,
					   sizeof why) < 0) {
				engine_result_set_reason(res, "metric '%s': %s",
							 m->name, why);
				rc = -XR_EPARSE;
				break;
			}
			if (engine_result_add_metric(res, m->name, v, unit) <
			    0) {
				engine_result_set_reason(res, "out of memory");
				rc = -XR_ENOMEM;
				break;
			}
		}
	json_decref(x.doc);
	return rc;
}

/* ---- intervals: `xrun-interval START END VALUE [UNIT]` lines ------- */

#define IV_TAG "xrun-interval"

/* The plan metric the intervals are a series of: the primary one. */
static const struct plan_metric *primary(const struct plan *p)
{
	const char *name = engine_primary_metric(&engine_command, p);
	int i;
	for (i = 0; name && i < p->engine.nmetrics; i++)
		if (!strcmp(p->engine.metrics[i].name, name))
			return &p->engine.metrics[i];
	return NULL;
}

/* One line's value in base units: UNIT when given, else the primary
 * metric's declared unit (B/s for a bytes metric), a throughput in B/s
 * as bit/s like the metric itself. 0 or -XR_EPARSE. */
static int iv_value(const struct plan_metric *m, const char *unit, double *v)
{
	const char *decl = unit[0]	  ? unit
			   : !m		  ? ""
			   : m->bytes > 0 ? "B/s"
			   : m->unit	  ? m->unit
					  : "";
	const char *base;
	double f = 1;
	if (decl[0] && units_metric(decl, &f, &base) < 0)
		return -XR_EPARSE;
	*v *= f;
	if (decl[0] && m && is_throughput(m->name) && !strcmp(base, "B/s"))
		*v *= 8;
	return 0;
}

/* Parse one xrun-interval line (NUL-terminated, tag removed). */
static int iv_line(const struct plan_metric *m, const char *s, double *start,
		   double *end, double *v)
{
	char w[4][48], extra[2];
	int n =
	    sscanf(s, "%47s %47s %47s %47s %1s", w[0], w[1], w[2], w[3], extra);
	if (n < 3 || n > 4)
		return -XR_EPARSE;
	if (n == 3)
		w[3][0] = '\0';
	if (number_parse(w[0], strlen(w[0]), start) < 0 ||
	    number_parse(w[1], strlen(w[1]), end) < 0 ||
	    number_parse(w[2], strlen(w[2]), v) < 0 || !(*end > *start))
		return -XR_EPARSE;
	return iv_value(m, w[3], v);
}

/*
 * The command's own intervals of the primary metric from its stdout
 * (schema/plan.md, "Intervals"). A line that starts with the tag but
 * does not parse fails the run: the command meant to say something.
 */
static int extract_intervals(const struct plan *p, struct engine_result *res,
			     const struct proc_result *pr)
{
	const struct plan_metric *m = primary(p);
	const char *out = pr->out ? pr->out : "";
	size_t len = pr->out ? pr->out_len : 0, i = 0, n, lineno = 0;
	size_t tl = strlen(IV_TAG);
	char line[256];
	double a, b, v;

	while (i < len) {
		const char *nl = memchr(out + i, '\n', len - i);
		n = nl ? (size_t)(nl - (out + i)) : len - i;
		lineno++;
		if (n > tl && !memcmp(out + i, IV_TAG, tl) &&
		    isspace((unsigned char)out[i + tl])) {
			snprintf(line, sizeof line, "%.*s", (int)n, out + i);
			if (n >= sizeof line ||
			    iv_line(m, line + tl, &a, &b, &v) < 0) {
				engine_result_set_reason(
				    res,
				    "stdout line %zu: bad interval line "
				    "'%.120s' (want: " IV_TAG
				    " START END VALUE [UNIT], seconds from "
				    "the start, END > START)",
				    lineno, line);
				return -XR_EPARSE;
			}
			if (engine_result_add_interval(res, a, b, v) < 0) {
				engine_result_set_reason(res, "out of memory");
				return -XR_ENOMEM;
			}
		}
		i += n + 1;
	}
	if (res->nintervals)
		return engine_result_add_observed(res, "interval_side",
						  "command");
	return 0;
}

/* 0 unless ok_exit names other statuses (check() vetted its text) */
/* The one parameter's schema fragment (schema/plan.schema.json). */
static const char *param_schema(int i, const char **fragment)
{
	if (i != 0)
		return NULL;
	*fragment =
	    "{\"description\": \"command engine: the exit statuses "
	    "that mean success, numbers and ranges (robocopy: "
	    "0-7); default 0.\", \"type\": \"string\", "
	    "\"pattern\": \"^[0-9]+(-[0-9]+)?(, ?[0-9]+(-[0-9]+)?)*$\"}";
	return "ok_exit";
}

static int exit_ok(const struct plan *p, int code)
{
	unsigned char ok[256];
	char why[200];
	const char *v = param(p, "ok_exit");
	if (!v || number_exit_set(v, ok, why, sizeof why) < 0)
		return code == 0;
	return code >= 0 && code < 256 && ok[code];
}

/* The command exited: its status against ok_exit, then its metrics and
 * intervals (engine_run_command's judge). */
static void judge(void *ctx, const struct proc_result *pr,
		  struct engine_result *res)
{
	const struct plan *p = ctx;
	char tail[240];
	if (!exit_ok(p, pr->exit_code)) {
		engine_stderr_tail(pr->err, tail, sizeof tail);
		engine_result_set_reason(res, "exited with status %d%s%s",
					 pr->exit_code, tail[0] ? ": " : "",
					 tail);
	} else if (extract_all(p, res, pr) == 0 &&
		   extract_intervals(p, res, pr) == 0) {
		res->status = RUN_OK;
	}
}

static int run(void *state, const struct plan *p,
	       const struct engine_request *rq, struct engine_result *res)
{
	struct command_state *st = state;

	engine_result_begin(res);
	if (!st) {
		engine_result_set_reason(
		    res, "command engine used without a session");
		return -XR_EINTERNAL;
	}
	if (!rq->run_argv || !rq->run_argv[0]) {
		engine_result_set_reason(
		    res, "engine 'command' has an empty run argv");
		return 0;
	}
	return engine_run_command(&engine_command, st->client, rq->run_argv, rq,
				  judge, (void *)p, res);
}

const struct engine_ops engine_command = {
    .desc = {.name = "command",
	     .check = check,
	     .has_param = has_param,
	     .default_duration = 10,
	     .reads_run = 1},
    /* the user's program: its own start-up and wind-down unknown */
    .timeout_slack = 30,
    .param_schema = param_schema,
    .build_argv = build_argv,
    .open = open_,
    .run = run,
    .close = close_,
};
