/*
 * The iperf3 engine's parameters: the table of what a plan may set
 * (parallel, reverse, bitrate, congestion, ...), their validation with
 * positions and did-you-mean (engine.flows' own rules among them: the
 * session's servers are counted from it), and the client argv built from
 * them.
 *
 * SPDX-License-Identifier: MIT
 */
#include "iperf3_args.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "engine.h"
#include "plan.h"
#include "suggest.h"
#include "tmpl.h"
#include "units.h"
#include "banned.h"

#define IPERF3_DEFAULT_PORT 5201
/* --connect-timeout: a refused or black-holed server fails in seconds,
 * not after the kernel's SYN retries */
#define IPERF3_CONNECT_MS 3000

enum pkind {
	P_INT,	    /* integer in [min, max] */
	P_BOOL,	    /* true/false/yes/no/on/off/1/0 */
	P_COUNT,    /* units COUNT: 500M, 4Mi, 0 */
	P_DUR,	    /* units DURATION, whole seconds */
	P_NAME,	    /* congestion control name */
	P_ADDR,	    /* address or address%dev */
	P_DSCP,	    /* 0..63 or a symbolic name */
	P_AFFINITY, /* n or n,m */
	P_WORDS,    /* whitespace-separated extra arguments */
};

struct pdef {
	const char *key;
	enum pkind kind;
	const char *flag;
	long min, max;
};

static const struct pdef pdefs[] = {
    {"parallel", P_INT, "-P", 1, 128},
    {"reverse", P_BOOL, "-R", 0, 0},
    {"bidir", P_BOOL, "--bidir", 0, 0},
    {"udp", P_BOOL, "-u", 0, 0},
    {"zerocopy", P_BOOL, "-Z", 0, 0},
    {"nodelay", P_BOOL, "-N", 0, 0},
    {"bitrate", P_COUNT, "-b", 0, 0},
    {"congestion", P_NAME, "-C", 0, 0},
    {"mss", P_INT, "-M", 88, 9216},
    {"window", P_COUNT, "-w", 1, 0},
    {"length", P_COUNT, "-l", 1, 0},
    {"port", P_INT, "-p", 1, 65535},
    {"cport", P_INT, "--cport", 1, 65535},
    {"bind", P_ADDR, "-B", 0, 0},
    {"tos", P_INT, "-S", 0, 255},
    {"dscp", P_DSCP, "--dscp", 0, 0},
    {"affinity", P_AFFINITY, "-A", 0, 0},
    {"connect_timeout", P_DUR, "--connect-timeout", 0, 0},
    {"duration", P_DUR, "-t", 1, 0},
    {"omit", P_DUR, "-O", 0, 0},
    {"extra", P_WORDS, NULL, 0, 0},
    /* not an iperf3 option: that many clients at once, flow k on port
     * port + k - 1 (engine_iperf3.c) */
    {"flows", P_INT, NULL, 1, IPERF3_MAX_FLOWS},
};
#define NPDEFS ((int)(sizeof pdefs / sizeof pdefs[0]))

static const char *const dscp_names[] = {
    "af11", "af12", "af13", "af21", "af22", "af23", "af31", "af32",
    "af33", "af41", "af42", "af43", "cs0",  "cs1",  "cs2",  "cs3",
    "cs4",  "cs5",  "cs6",  "cs7",  "ef",   "le",   "va",   NULL,
};

/* [0-9]+(.[0-9]+)?[KMGT]? as iperf3 itself parses sizes. */
static int iperf3_size_text(const char *v)
{
	const char *p = v;
	if (!isdigit((unsigned char)*p))
		return 0;
	while (isdigit((unsigned char)*p))
		p++;
	if (*p == '.') {
		p++;
		if (!isdigit((unsigned char)*p))
			return 0;
		while (isdigit((unsigned char)*p))
			p++;
	}
	if (*p && strchr("KMGTkmgt", *p))
		p++;
	return *p == '\0';
}

static const struct pdef *pdef_find(const char *key)
{
	int i;
	for (i = 0; key && i < NPDEFS; i++)
		if (strcmp(pdefs[i].key, key) == 0)
			return &pdefs[i];
	return NULL;
}

int iperf3_args_has_param(const char *key)
{
	return pdef_find(key) != NULL;
}

/* A count, a congestion control's name, a number with iperf3's unit
 * letters (seconds, K/M/G): the characters each value may hold. */
#define REF_DIGITS "0123456789"
#define REF_CC "abcdefghijklmnopqrstuvwxyz0123456789_-"
#define REF_NUMBER "0123456789.KMGkmgs"

const struct engine_ref_param iperf3_ref_params[] = {
    {"streams", "parallel", ENGINE_REF_VALUE, REF_DIGITS},
    {"parallel", "parallel", ENGINE_REF_VALUE, REF_DIGITS},
    {"congestion", "congestion", ENGINE_REF_VALUE, REF_CC},
    {"cc", "congestion", ENGINE_REF_VALUE, REF_CC},
    {"duration", "duration", ENGINE_REF_SECONDS, REF_NUMBER},
    {"omit", "omit", ENGINE_REF_SECONDS, REF_NUMBER},
    {"bitrate", "bitrate", ENGINE_REF_VALUE, REF_NUMBER},
    {"window", "window", ENGINE_REF_VALUE, REF_NUMBER},
    {"length", "length", ENGINE_REF_VALUE, REF_NUMBER},
    {"mss", "mss", ENGINE_REF_VALUE, REF_DIGITS},
    {"protocol", "udp", ENGINE_REF_PROTOCOL, NULL},
    {"direction", "reverse", ENGINE_REF_DIRECTION, "bidir"},
    {NULL, NULL, ENGINE_REF_VALUE, NULL},
};

/* The JSON Schema of each kind's value, as schema/plan.schema.json's
 * engine properties write it (a test holds the two together). */
static const char *kind_schema(enum pkind k)
{
	switch (k) {
	case P_BOOL:
		return "{\"$ref\": \"#/$defs/boolean\"}";
	case P_COUNT:
		return "{\"$ref\": \"#/$defs/count\"}";
	case P_DUR:
		return "{\"$ref\": \"#/$defs/duration\"}";
	case P_NAME:
	case P_ADDR:
	case P_WORDS:
		return "{\"type\": \"string\"}";
	case P_INT:
	case P_DSCP:
	case P_AFFINITY:
		break;
	}
	return "{\"type\": [\"integer\", \"string\"]}";
}

const char *iperf3_args_schema(int i, const char **fragment)
{
	if (i < 0 || i >= NPDEFS)
		return NULL;
	if (fragment)
		*fragment = kind_schema(pdefs[i].kind);
	return pdefs[i].key;
}

static int parse_bool(const char *v, int *out)
{
	static const char *const t[] = {"true", "yes", "on", "1"};
	static const char *const f[] = {"false", "no", "off", "0"};
	size_t i;
	for (i = 0; i < 4; i++) {
		if (strcasecmp(v, t[i]) == 0) {
			*out = 1;
			return 0;
		}
		if (strcasecmp(v, f[i]) == 0) {
			*out = 0;
			return 0;
		}
	}
	return -XR_EPARSE;
}

static int parse_long(const char *v, int base, long *out)
{
	char *end;
	long n;
	if (!*v || isspace((unsigned char)*v))
		return -XR_EPARSE;
	n = strtol(v, &end, base);
	if (*end)
		return -XR_EPARSE;
	*out = n;
	return 0;
}

/* A value that becomes its own argv word must not look like an option. */
static int is_word(const char *v, size_t maxlen, const char *extra_ok)
{
	size_t i;
	if (!*v || *v == '-' || strlen(v) > maxlen)
		return 0;
	for (i = 0; v[i]; i++)
		if (!isalnum((unsigned char)v[i]) && !strchr(extra_ok, v[i]))
			return 0;
	return 1;
}

/* Integers, sizes and rates, durations: the text iperf3 gets, or -1
 * with why filled. */
static int convert_number(const struct pdef *d, const char *v, char *out,
			  size_t outsz, char *why, size_t whysz)
{
	const char *uwhy = NULL;
	double x;
	long n;

	switch (d->kind) {
	case P_INT:
		/* tos takes 0x34 and 064 as iperf3 does */
		if (parse_long(v, strcmp(d->key, "tos") == 0 ? 0 : 10, &n) <
			0 ||
		    n < d->min || n > d->max) {
			snprintf(why, whysz, "an integer in %ld..%ld", d->min,
				 d->max);
			return -XR_EPLAN;
		}
		snprintf(out, outsz, "%ld", n);
		return 0;
	case P_COUNT:
		if (units_parse(v, UNITS_COUNT, &x, &uwhy) < 0 || x < d->min ||
		    x >= 1e15) {
			snprintf(why, whysz, "%s",
				 d->min ? "a size such as 128K or 4Mi"
					: "a rate such as 500M or 1G "
					  "(0 = unlimited)");
			return -XR_EPLAN;
		}
		/* Sizes written as iperf3 writes them (128K, 4M) go through
		 * verbatim, so they mean what they mean to iperf3 (K = 1024)
		 * and an article's "-w 4M" copies over unchanged; Ki/Mi and
		 * rates become plain numbers. */
		if (d->min && iperf3_size_text(v)) {
			snprintf(out, outsz, "%s", v);
			return 0;
		}
		snprintf(out, outsz, "%.0f", x);
		return 0;
	case P_DUR:
		if (units_parse(v, UNITS_DURATION, &x, &uwhy) < 0 ||
		    x < d->min || x > 86400) {
			snprintf(why, whysz, "a duration like 10s or 500ms%s",
				 d->min ? " of at least 1 s" : "");
			return -XR_EPLAN;
		}
		if (strcmp(d->key, "connect_timeout") == 0) {
			snprintf(out, outsz, "%.0f", x * 1000.0);
			return 0;
		}
		/* iperf3 reads -t and -O with atoi: whole seconds only */
		if (fabs(x - floor(x + 0.5)) > 1e-9) {
			snprintf(why, whysz,
				 "whole seconds (iperf3 -t/-O take integers)");
			return -XR_EPLAN;
		}
		snprintf(out, outsz, "%.0f", x);
		return 0;
	default:
		break;
	}
	return -XR_EINTERNAL;
}

/* Names, addresses, DSCP and CPU lists: checked as words iperf3 reads
 * as values, never as options. */
static int convert_word(const struct pdef *d, const char *v, char *out,
			size_t outsz, char *why, size_t whysz)
{
	long n;
	int i;

	switch (d->kind) {
	case P_NAME:
		if (!is_word(v, 15, "_.")) {
			snprintf(why, whysz,
				 "a congestion control name such as cubic, "
				 "reno or bbr");
			return -XR_EPLAN;
		}
		snprintf(out, outsz, "%s", v);
		return 0;
	case P_ADDR:
		if (!is_word(v, 255, ".:%_-[]")) {
			snprintf(
			    why, whysz,
			    "an address such as 192.0.2.1 or fe80::1%%eth0");
			return -XR_EPLAN;
		}
		snprintf(out, outsz, "%s", v);
		return 0;
	case P_DSCP:
		if (parse_long(v, 0, &n) == 0) {
			if (n < 0 || n > 63) {
				snprintf(why, whysz, "0..63 or a name like ef");
				return -XR_EPLAN;
			}
			snprintf(out, outsz, "%ld", n);
			return 0;
		}
		for (i = 0; dscp_names[i]; i++)
			if (strcasecmp(v, dscp_names[i]) == 0) {
				snprintf(out, outsz, "%s", dscp_names[i]);
				return 0;
			}
		snprintf(why, whysz,
			 "0..63 or one of af11..af43, cs0..cs7, "
			 "ef, le, va");
		return -XR_EPLAN;
	case P_AFFINITY:
		if (!is_word(v, 32, ",")) {
			snprintf(why, whysz, "a CPU number n or n,m");
			return -XR_EPLAN;
		}
		for (i = 0; v[i]; i++)
			if (!isdigit((unsigned char)v[i]) && v[i] != ',') {
				snprintf(why, whysz, "a CPU number n or n,m");
				return -XR_EPLAN;
			}
		snprintf(out, outsz, "%s", v);
		return 0;
	default:
		break;
	}
	return -XR_EINTERNAL;
}

/*
 * Check one value and produce the text iperf3 gets (NULL for a false
 * boolean: the flag is left out). Sizes and rates go to iperf3 as plain
 * integers, so "4M" means 4,000,000 as everywhere in xrun, not iperf3's
 * own 4 MiB. 0 or -1 with why filled.
 */
static int convert(const struct pdef *d, const char *v, char *out, size_t outsz,
		   char *why, size_t whysz)
{
	int b;

	switch (d->kind) {
	case P_INT:
	case P_COUNT:
	case P_DUR:
		return convert_number(d, v, out, outsz, why, whysz);
	case P_NAME:
	case P_ADDR:
	case P_DSCP:
	case P_AFFINITY:
		return convert_word(d, v, out, outsz, why, whysz);
	case P_BOOL:
		if (parse_bool(v, &b) < 0) {
			snprintf(why, whysz, "true or false");
			return -XR_EPLAN;
		}
		if (b)
			snprintf(out, outsz, "1");
		else
			out[0] = '\0';
		return 0;
	case P_WORDS:
		snprintf(out, outsz, "%s", v);
		return 0;
	}
	return -XR_EINTERNAL;
}

static void unknown_param(struct xr_diag *d, struct plan_pos pos,
			  const char *what, const char *key)
{
	struct buf known = BUF_INIT;
	struct suggest s;
	const char *best;
	int i;
	/* "congestion_control" for "congestion": the list is closed */
	suggest_init(&s, key, SUGGEST_LEADING_WORD);
	for (i = 0; i < NPDEFS; i++) {
		suggest_add(&s, pdefs[i].key);
		buf_addf(&known, "%s%s", i ? ", " : "", pdefs[i].key);
	}
	best = suggest_best(&s);
	if (best)
		xr_diag_add(d, 0, pos.line, pos.col,
			    "%sunknown iperf3 parameter '%s'; did you mean "
			    "'%s'? (valid: %s)",
			    what, key, best, known.s);
	else
		xr_diag_add(d, 0, pos.line, pos.col,
			    "%sunknown iperf3 parameter '%s' (valid: %s)", what,
			    key, known.s);
	buf_release(&known);
}

/* One factor's level put into a template, the other placeholders left
 * empty (others counts them). */
struct one_level {
	const char *factor, *level;
	int others;
};

static const char *one_level_lookup(void *ctx, const char *name)
{
	struct one_level *o = ctx;
	if (!strcmp(name, o->factor))
		return o->level;
	o->others++;
	return "";
}

/* A value that iperf3 would take as an option: what a level with a
 * leading dash makes of a parameter that takes a value. */
static int dash_ok(const struct pdef *def)
{
	return def && (def->kind == P_BOOL || def->kind == P_WORDS);
}

struct tmpl_check {
	const struct plan *p;
	struct xr_diag *d;
	const char *what;	/* "factor 'x': " or "" */
	const char *key;	/* "iperf3 parameter 'x'" */
	const struct pdef *def; /* NULL: the target address */
	const char *t;
	int seen[64]; /* factors already checked (by index) */
};

/* Each level of the factor named, substituted into the template, must
 * give a value iperf3 takes as such: checked here, with the level's
 * position, rather than failing every run of it. */
static int check_tmpl_factor(void *ctx, const char *name, size_t off)
{
	struct tmpl_check *tc = ctx;
	int fi = plan_factor_index(tc->p, name), j;
	const struct plan_factor *f;
	(void)off;
	if (fi < 0 || (fi < 64 && tc->seen[fi]))
		return 0;
	if (fi < 64)
		tc->seen[fi] = 1;
	f = &tc->p->factors[fi];
	for (j = 0; j < f->nlevels; j++) {
		struct one_level o = {name, f->levels[j], 0};
		struct plan_pos pos = f->level_pos ? f->level_pos[j] : f->pos;
		struct buf b = BUF_INIT;
		char out[320], why[160];
		if (tmpl_expand(tc->t, one_level_lookup, &o, &b, NULL, 0) < 0 ||
		    !b.s) {
			buf_release(&b);
			continue;
		}
		if (!dash_ok(tc->def) && b.s[0] == '-')
			xr_diag_add(tc->d, 0, pos.line, pos.col,
				    "%sfactor '%s' level '%s' makes %s '%s' "
				    "start with '-': iperf3 would read it as "
				    "an option",
				    tc->what, f->name, f->levels[j], tc->key,
				    b.s);
		else if (tc->def && !o.others &&
			 convert(tc->def, b.s, out, sizeof out, why,
				 sizeof why) < 0)
			xr_diag_add(tc->d, 0, pos.line, pos.col,
				    "%sfactor '%s' level '%s': bad value '%s' "
				    "for %s; want %s",
				    tc->what, f->name, f->levels[j], b.s,
				    tc->key, why);
		buf_release(&b);
	}
	return 0;
}

static void check_tmpl(const struct plan *p, struct xr_diag *d,
		       const char *what, const char *key,
		       const struct pdef *def, const char *t)
{
	struct tmpl_check tc;
	memset(&tc, 0, sizeof tc);
	tc.p = p;
	tc.d = d;
	tc.what = what;
	tc.key = key;
	tc.def = def;
	tc.t = t;
	tmpl_each(t, check_tmpl_factor, &tc);
}

static void check_value(struct xr_diag *d, struct plan_pos pos,
			const char *what, const struct pdef *def, const char *v)
{
	char out[320], why[160];
	if (!v || strstr(v, "{{"))
		return; /* a template: check_tmpl, per level */
	if (convert(def, v, out, sizeof out, why, sizeof why) < 0)
		xr_diag_add(d, 0, pos.line, pos.col,
			    "%sbad value '%s' for iperf3 parameter '%s'; "
			    "want %s",
			    what, v, def->key, why);
}

static const struct plan_kv *param_kv(const struct plan *p, const char *key)
{
	const struct plan_kv *v = NULL;
	int i;
	for (i = 0; i < p->engine.nparams; i++)
		if (strcmp(p->engine.params[i].key, key) == 0)
			v = &p->engine.params[i];
	return v;
}

static const char *iperf3_args_plan_param(const struct plan *p, const char *key)
{
	const struct plan_kv *kv = param_kv(p, key);
	return kv ? kv->value : NULL;
}

/* ---- engine.flows: the many-to-one runs' own rules ------------------ */

/* A plain decimal number (the parameter table has checked its range). */
static int parse_count(const char *v, long *out)
{
	char *end;
	errno = 0;
	*out = strtol(v, &end, 10);
	return (end == v || *end || errno) ? -1 : 0;
}

int iperf3_args_flows(const struct plan *p)
{
	const char *v = iperf3_args_plan_param(p, "flows");
	long n;
	if (v && parse_count(v, &n) == 0 && n >= 1 && n <= IPERF3_MAX_FLOWS)
		return (int)n;
	return 1;
}

/* The servers of the flows are started once per session (one per port):
 * their number cannot change from run to run. */
static void flows_no_vary(struct xr_diag *d, struct plan_pos pos,
			  const char *what)
{
	xr_diag_add(d, 0, pos.line, pos.col,
		    "%scannot vary 'flows' (one iperf3 server per flow is "
		    "started for the whole session); set engine.flows instead",
		    what);
}

/* engine.flows: a plain number (the session's servers are counted from
 * it), each flow on a port of its own. */
static void flows_check(const struct plan *p, struct xr_diag *d)
{
	const struct plan_kv *fl = param_kv(p, "flows");
	const struct plan_kv *cp = param_kv(p, "cport");
	int n = iperf3_args_flows(p);
	if (!fl)
		return;
	if (fl->value && strstr(fl->value, "{{"))
		xr_diag_add(d, 0, fl->pos.line, fl->pos.col,
			    "iperf3 flows '%s' must be a plain number (one "
			    "server per flow is started for the session)",
			    fl->value);
	if (n > 1 && cp)
		xr_diag_add(d, 0, cp->pos.line, cp->pos.col,
			    "iperf3 'cport' cannot be set with flows: %d (the "
			    "flows would bind the same client port)",
			    n);
	if (iperf3_args_server_port(p) + n - 1 > 65535)
		xr_diag_add(d, 0, fl->pos.line, fl->pos.col,
			    "iperf3 flows: %d from port %d need ports up to %d "
			    "(past 65535)",
			    n, iperf3_args_server_port(p),
			    iperf3_args_server_port(p) + n - 1);
}

/* A factor's params: maps, key by key, as engine parameters are. */
static void check_level_params(const struct plan *p,
			       const struct plan_factor *f, struct xr_diag *d)
{
	char what[160];
	int j, k;
	if (!f->level_params)
		return;
	for (j = 0; j < f->nlevels; j++) {
		snprintf(what, sizeof what, "factor '%s' level '%s': ", f->name,
			 f->levels[j]);
		for (k = 0; f->level_params[j] && k < f->nlevel_params[j];
		     k++) {
			const struct plan_kv *kv = &f->level_params[j][k];
			const struct pdef *def = pdef_find(kv->key);
			if (!def) {
				unknown_param(d, kv->pos, what, kv->key);
				continue;
			}
			if (strcmp(def->key, "flows") == 0) {
				flows_no_vary(d, kv->pos, what);
				continue;
			}
			if (p->engine.server_start &&
			    strcmp(def->key, "port") == 0) {
				xr_diag_add(d, 0, kv->pos.line, kv->pos.col,
					    "%scannot vary 'port' while xrun "
					    "starts the iperf3 server (it "
					    "listens on one port); set "
					    "engine.port instead",
					    what);
				continue;
			}
			check_value(d, kv->pos, what, def, kv->value);
		}
	}
}

void iperf3_args_check(const struct plan *p, struct xr_diag *d)
{
	const struct plan_engine *e = &p->engine;
	char what[160];
	int i, j;

	for (i = 0; i < e->nparams; i++) {
		const struct pdef *def = pdef_find(e->params[i].key);
		if (!def) {
			unknown_param(d, e->params[i].pos, "",
				      e->params[i].key);
			continue;
		}
		check_value(d, e->params[i].pos, "", def, e->params[i].value);
		if (e->params[i].value && strstr(e->params[i].value, "{{")) {
			char key[64];
			snprintf(key, sizeof key, "iperf3 parameter '%s'",
				 def->key);
			check_tmpl(p, d, "", key, def, e->params[i].value);
		}
	}
	if (e->target && strstr(e->target, "{{"))
		check_tmpl(p, d, "", "the target address", NULL, e->target);
	if (e->duration < 1 ||
	    fabs(e->duration - floor(e->duration + 0.5)) > 1e-9)
		xr_diag_add(d, 0, e->pos.line, e->pos.col,
			    "iperf3 duration %g s is not whole seconds of at "
			    "least 1 (iperf3 -t takes an integer)",
			    e->duration);
	if (e->omit < 0 || fabs(e->omit - floor(e->omit + 0.5)) > 1e-9)
		xr_diag_add(d, 0, e->pos.line, e->pos.col,
			    "iperf3 omit %g s is not whole seconds "
			    "(iperf3 -O takes an integer)",
			    e->omit);
	for (i = 0; i < p->nfactors; i++) {
		const struct plan_factor *f = &p->factors[i];
		const struct pdef *def;
		if (!f->param)
			continue;
		snprintf(what, sizeof what, "factor '%s': ", f->name);
		def = pdef_find(f->param);
		if (!def) {
			unknown_param(d, f->pos, what, f->param);
			continue;
		}
		if (strcmp(def->key, "flows") == 0) {
			flows_no_vary(d, f->pos, what);
			continue;
		}
		if (e->server_start && strcmp(def->key, "port") == 0) {
			xr_diag_add(d, 0, f->pos.line, f->pos.col,
				    "%scannot vary 'port' while xrun starts "
				    "the iperf3 server (it listens on one "
				    "port); set engine.port instead",
				    what);
			continue;
		}
		for (j = 0; j < f->nlevels; j++)
			check_value(d, f->level_pos ? f->level_pos[j] : f->pos,
				    what, def, f->levels[j]);
	}
	for (i = 0; i < p->nfactors; i++)
		check_level_params(p, &p->factors[i], d);
	flows_check(p, d);
	if (e->server_start) {
		const char *port = iperf3_args_plan_param(p, "port");
		if (port && strstr(port, "{{"))
			xr_diag_add(d, 0, e->pos.line, e->pos.col,
				    "iperf3 port '%s' must be a plain number "
				    "when xrun starts the server",
				    port);
	}
}

/* The entry a run uses for key: factor params come after the engine
 * section in rq->params and so win. */
static const struct engine_param *rq_entry(const struct engine_request *rq,
					   const char *key)
{
	const struct engine_param *v = NULL;
	int i;
	for (i = 0; i < rq->nparams; i++)
		if (rq->params[i].key && strcmp(rq->params[i].key, key) == 0)
			v = &rq->params[i];
	return v;
}

static const char *rq_param(const struct engine_request *rq, const char *key)
{
	const struct engine_param *e = rq_entry(rq, key);
	return e ? e->value : NULL;
}

struct argv_b {
	char **v;
	size_t n, cap;
	int oom;
};

static void av_add(struct argv_b *a, const char *s)
{
	if (a->oom)
		return;
	if (a->n + 2 > a->cap) {
		size_t cap = a->cap ? a->cap * 2 : 32;
		char **nv = realloc(a->v, cap * sizeof *nv);
		if (!nv) {
			a->oom = 1;
			return;
		}
		a->v = nv;
		a->cap = cap;
	}
	a->v[a->n] = strdup(s);
	if (!a->v[a->n]) {
		a->oom = 1;
		return;
	}
	a->v[++a->n] = NULL;
}

static void av_add_words(struct argv_b *a, const char *s)
{
	char w[1024];
	size_t n;
	while (*s) {
		while (*s && isspace((unsigned char)*s))
			s++;
		for (n = 0; s[n] && !isspace((unsigned char)s[n]); n++)
			;
		if (n) {
			snprintf(w, sizeof w, "%.*s", (int)n, s);
			av_add(a, w);
		}
		s += n;
	}
}

char **iperf3_args_build(const struct engine_request *rq, struct xr_err *err)
{
	struct argv_b a = {0};
	char val[320], why[160], num[32];
	const char *target = rq->target;
	const char *v;
	int i;

	if (!target || !*target || *target == '-')
		return xr_err_set(err, XR_EPLAN, NULL, 0, 0,
				  "iperf3 target address '%s' is not usable; "
				  "set engine.target or the server host's "
				  "address",
				  target ? target : ""),
		       NULL;
	for (i = 0; i < rq->nparams; i++)
		if (!pdef_find(rq->params[i].key)) {
			xr_err_set(err, XR_EPLAN, NULL, 0, 0,
				   "unknown iperf3 parameter '%s'",
				   rq->params[i].key ? rq->params[i].key : "");
			return NULL;
		}

	av_add(&a, "iperf3");
	av_add(&a, "-c");
	av_add(&a, target);
	for (i = 0; i < NPDEFS; i++) {
		const struct pdef *d = &pdefs[i];
		v = rq_param(rq, d->key);
		if (strcmp(d->key, "port") == 0 && !v) {
			snprintf(num, sizeof num, "%d", IPERF3_DEFAULT_PORT);
			v = num;
		} else if (strcmp(d->key, "duration") == 0 && !v) {
			snprintf(num, sizeof num, "%.0f",
				 rq->duration > 0 ? rq->duration : 10);
			v = num;
		} else if (strcmp(d->key, "omit") == 0 && !v) {
			snprintf(num, sizeof num, "%.0f",
				 rq->omit > 0 ? rq->omit : 0);
			v = num;
		} else if (strcmp(d->key, "connect_timeout") == 0 && !v) {
			snprintf(num, sizeof num, "%gs",
				 IPERF3_CONNECT_MS / 1000.0);
			v = num;
		}
		if (!v || (!d->flag && d->kind != P_WORDS))
			continue;
		if (convert(d, v, val, sizeof val, why, sizeof why) < 0) {
			engine_argv_free(a.v);
			xr_err_set(err, XR_EPLAN, NULL, 0, 0,
				   "bad value '%s' for iperf3 parameter '%s'; "
				   "want %s",
				   v, d->key, why);
			return NULL;
		}
		if (d->kind == P_WORDS) {
			/* Split where the plan's text has blanks, never
			 * inside a placeholder's value. */
			const struct engine_param *ep = rq_entry(rq, d->key);
			size_t k;
			if (ep && ep->words)
				for (k = 0; ep->words[k]; k++)
					av_add(&a, ep->words[k]);
			else
				av_add_words(&a, val);
			continue;
		}
		if (d->kind == P_BOOL) {
			if (val[0])
				av_add(&a, d->flag);
			continue;
		}
		av_add(&a, d->flag);
		av_add(&a, val);
		if (strcmp(d->key, "omit") == 0) {
			/* the receiver's intervals (server_output_json when
			 * the server runs with -J): iperf3_json.c */
			av_add(&a, "--get-server-output");
			av_add(&a, "-J"); /* after -t/-O, where readers look */
		}
	}
	/* -i: intervals at the sample period (iperf3 takes 0.1 to 60 s);
	 * its default, 1 s, is left implicit */
	if (rq->interval > 0 && fabs(rq->interval - 1.0) > 1e-9) {
		snprintf(num, sizeof num, "%g",
			 rq->interval < 0.1    ? 0.1
			 : rq->interval > 60.0 ? 60.0
					       : rq->interval);
		av_add(&a, "-i");
		av_add(&a, num);
	}
	if (a.oom) {
		engine_argv_free(a.v);
		xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
			   "out of memory building the iperf3 argv");
		return NULL;
	}
	return a.v;
}

int iperf3_args_server_port(const struct plan *p)
{
	const char *v = iperf3_args_plan_param(p, "port");
	long n;
	if (v && parse_long(v, 10, &n) == 0 && n > 0 && n < 65536)
		return (int)n;
	return IPERF3_DEFAULT_PORT;
}
