/*
 * A plan and a published reference (schema/reference.md): `xrun plan
 * --from-reference FILE [-o plan.yaml]` writes a plan that measures the
 * published matrix (its factors and levels, runs per cell, the published
 * conditions as the parameters of the engine whose row says which
 * (engine_ops.ref_params), a manual step for every factor that is not an
 * engine parameter, and marked places for the user's hosts), and
 * `xrun validate|plan PLAN --reference FILE` checks a reference against a
 * plan before any run. The reading and the checks live in reports/reference
 * (report_reference_read, report_reference_check_plan); this file writes
 * YAML and prints.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arena.h"
#include "buf.h"
#include "catalog.h"
#include "cmd.h"
#include "engine.h"
#include "xr_err.h"
#include "matrix.h"
#include "placeholder.h"
#include "plan.h"
#include "reference.h"
#include "wfile.h"
#include "oom.h"
#include "banned.h"

/* The engine a plan from a reference is written for: the first of the
 * engine table whose row maps published conditions to its parameters
 * (engine_ops.ref_params). Its metrics (engine_ops.metrics) are the
 * reference's: a column with one of their names is a published metric,
 * any other a factor. */
static const struct engine_ops *ref_engine(void)
{
	const struct engine_ops *e;
	for (int i = 0; (e = engine_at(i)); i++)
		if (e->ref_params)
			return e;
	return NULL;
}

static const struct engine_ref_param *cond_param_find(const char *name)
{
	const struct engine_ops *e = ref_engine();
	const struct engine_ref_param *cp = e ? e->ref_params : NULL;
	for (; cp && cp->name; cp++)
		if (!strcmp(cp->name, name))
			return cp;
	return NULL;
}

/* The metric names a reference is read with; none without an engine. */
static const char *const *ref_metrics(void)
{
	static const char *const none[] = {NULL};
	const struct engine_ops *e = ref_engine();
	return e && e->metrics ? e->metrics : none;
}

/* The engine's name in the plan and the notes. */
static const char *ref_engine_name(void)
{
	const struct engine_ops *e = ref_engine();
	return e ? e->desc.name : "command";
}

/* A YAML double-quoted scalar. */
static void yq(struct buf *b, const char *s)
{
	buf_addc(b, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			buf_addc(b, '\\');
		if (*s == '\n')
			buf_adds(b, "\\n");
		else
			buf_addc(b, *s);
	}
	buf_addc(b, '"');
}

/* Can v be the value of cp's parameter (a rough check on its characters:
 * the engine's own check is in the validation that follows)? */
static int value_fits(const struct engine_ref_param *cp, const char *v)
{
	return *v && (!cp->chars || !v[strspn(v, cp->chars)]);
}

/* A published value the parameter takes as it is (or as seconds); a
 * protocol or a direction is a choice of parameters instead. */
static int takes_value(const struct engine_ref_param *cp)
{
	return cp->kind == ENGINE_REF_VALUE || cp->kind == ENGINE_REF_SECONDS;
}

/* A published word in a YAML comment: one line. */
static void comment_word(struct buf *b, const char *s)
{
	for (; *s; s++)
		buf_addc(b, *s == '\n' || *s == '\r' ? ' ' : *s);
}

static int is_down(const char *v)
{
	return !strcasecmp(v, "down") || !strcasecmp(v, "download") ||
	       !strcasecmp(v, "receive") || !strcasecmp(v, "reverse") ||
	       !strcasecmp(v, "-R") || !strcasecmp(v, "rx");
}

/* The parameter a published protocol or direction word sets true ("udp",
 * a down word; "bidir": the row's other parameter); NULL: none (TCP, up,
 * a word nobody knows). */
static const char *choice_param(const struct engine_ref_param *cp,
				const char *v)
{
	if (cp->kind == ENGINE_REF_PROTOCOL)
		return !strcasecmp(v, "udp") ? cp->param : NULL;
	if (cp->kind != ENGINE_REF_DIRECTION)
		return NULL;
	if (is_down(v))
		return cp->param;
	return !strcasecmp(v, "bidir") ? cp->chars : NULL;
}

/* One engine parameter line for a published condition; a comment when
 * no parameter says it. */
static void cond_line(struct buf *b, const struct report_ref_cond *c)
{
	const struct engine_ref_param *cp = cond_param_find(c->key);
	if (!cp || (takes_value(cp) && !value_fits(cp, c->value))) {
		buf_adds(b, "  # published ");
		comment_word(b, c->key);
		buf_adds(b, ": ");
		comment_word(b, c->value);
		buf_addf(b,
			 cp ? " (not a value %s takes)\n"
			    : " (no %s parameter; set it on the hosts)\n",
			 ref_engine_name());
		return;
	}
	switch (cp->kind) {
	case ENGINE_REF_SECONDS:
		/* a bare number is seconds */
		buf_addf(b, "  %s: ", cp->param);
		if (strspn(c->value, "0123456789.") == strlen(c->value))
			buf_addf(b, "%ss\n", c->value);
		else {
			yq(b, c->value);
			buf_addc(b, '\n');
		}
		break;
	case ENGINE_REF_PROTOCOL:
		if (choice_param(cp, c->value))
			buf_addf(b, "  %s: true\n", cp->param);
		else if (strcasecmp(c->value, "tcp")) {
			buf_adds(b, "  # published protocol ");
			comment_word(b, c->value);
			buf_addc(b, '\n');
		}
		break;
	case ENGINE_REF_DIRECTION:
		if (choice_param(cp, c->value))
			buf_addf(b, "  %s: true\n", choice_param(cp, c->value));
		else {
			buf_adds(b, "  # published direction ");
			comment_word(b, c->value);
			buf_addc(b, '\n');
		}
		break;
	case ENGINE_REF_VALUE:
	default:
		buf_addf(b, "  %s: ", cp->param);
		yq(b, c->value);
		buf_addc(b, '\n');
	}
}

/* A plan name from the reference file's name: "seed001-pcie-slots". */
static void cmd_plan_ref_plan_name(struct buf *b, const char *path)
{
	const char *base = strrchr(path, '/'), *dot;
	size_t i, n;
	base = base ? base + 1 : path;
	dot = strrchr(base, '.');
	n = dot && dot > base ? (size_t)(dot - base) : strlen(base);
	for (i = 0; i < n; i++) {
		char c = base[i];
		int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			 (c >= '0' && c <= '9') || c == '-' || c == '_';
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		buf_addc(b, ok ? c : '-');
	}
	if (!n)
		buf_adds(b, "reference");
}

/* A factor name the plan accepts: letters, digits, '_', '-' (others
 * become '_'), and not a built-in placeholder's ("rep" -> "rep_"). OUT:
 * arena string. */
static const char *factor_name(struct arena *a, const char *col)
{
	char *s = arena_strdup(a, col), *p;
	for (p = s; p && *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			*p = '_';
	if (!s || !*s)
		return "factor";
	if (placeholder_find(s) >= 0)
		return arena_printf(a, "%s_", s);
	return s;
}

/* Can every level be the value of cp's parameter? */
static int levels_fit(const struct report_ref_doc *doc, int f,
		      const struct engine_ref_param *cp)
{
	int l;
	for (l = 0; l < doc->nlevels[f]; l++)
		if (!value_fits(cp, doc->levels[f][l]))
			return 0;
	return 1;
}

/* One factor: an engine parameter when its name is one (and its levels
 * fit), else a manual step ("Set up mtu {{mtu}}"). */
static void factor_yaml(struct buf *b, struct arena *a,
			const struct report_ref_doc *doc, int f)
{
	const char *name = factor_name(a, doc->factors[f]);
	const struct engine_ref_param *cp = cond_param_find(doc->factors[f]);
	int l;
	if (strcmp(name, doc->factors[f]))
		fprintf(stderr,
			"xrun plan: column '%s' becomes factor '%s' (factor "
			"names: letters, digits, '_' and '-', no built-in "
			"placeholder): rename the column to compare with "
			"the reference\n",
			doc->factors[f], name);
	if (cp && takes_value(cp) && !levels_fit(doc, f, cp))
		cp = NULL;
	buf_adds(b, "  ");
	yq(b, name);
	buf_adds(b, ":\n    levels: [");
	for (l = 0; l < doc->nlevels[f]; l++) {
		if (l)
			buf_adds(b, ", ");
		yq(b, doc->levels[f][l]);
	}
	buf_adds(b, "]\n");
	if (cp && takes_value(cp)) {
		buf_addf(b, "    param: %s\n", cp->param);
		return;
	}
	if (cp) {
		buf_adds(b, "    params:\n");
		for (l = 0; l < doc->nlevels[f]; l++) {
			const char *v = doc->levels[f][l];
			buf_adds(b, "      ");
			yq(b, v);
			v = choice_param(cp, v);
			if (v)
				buf_addf(b, ": { %s: true }\n", v);
			else
				buf_adds(b, ": {}\n");
		}
		return;
	}
	buf_addf(b, "    manual: ");
	{
		struct buf m = BUF_INIT;
		buf_addf(&m, "Set up %s {{%s}}", doc->factors[f], name);
		yq(b, m.s);
		buf_release(&m);
	}
	buf_addc(b, '\n');
}

/* Combinations of levels nobody published: excluded, so that the plan has
 * the reference's cells and no more. */
static void excludes_yaml(struct buf *b, struct arena *a,
			  const struct report_ref_doc *doc)
{
	const struct report_ref *ref = doc->ref;
	int idx[64] = {0}, f, k, first = 1;
	double total = 1;
	for (f = 0; f < doc->nfactors; f++)
		total *= doc->nlevels[f];
	if (doc->nfactors == 0 || doc->nfactors > 64 || total == doc->ncells ||
	    total > 100000)
		return;
	for (;;) {
		int found = 0;
		for (k = 0; k < ref->nrows && !found; k++) {
			for (f = 0; f < doc->nfactors; f++)
				if (strcmp(ref->rows[k].levels[f],
					   doc->levels[f][idx[f]]))
					break;
			found = f == doc->nfactors;
		}
		if (!found) {
			if (first)
				buf_adds(b, "# combinations the reference does "
					    "not publish\nexclude:\n");
			first = 0;
			buf_adds(b, "  - {");
			for (f = 0; f < doc->nfactors; f++) {
				buf_adds(b, f ? ", " : " ");
				yq(b, factor_name(a, doc->factors[f]));
				buf_adds(b, ": ");
				yq(b, doc->levels[f][idx[f]]);
			}
			buf_adds(b, " }\n");
		}
		for (f = doc->nfactors - 1; f >= 0; f--) {
			if (++idx[f] < doc->nlevels[f])
				break;
			idx[f] = 0;
		}
		if (f < 0)
			break;
	}
}

/* A published latency (the reference's metric or a column named
 * latency.*, xrun's latency probe's metrics: schema/plan.md, "latency")
 * needs the probe that measures it beside the engine. */
static void latency_yaml(struct buf *b, const struct report_ref *ref)
{
	int j;
	for (j = 0; j < ref->nvalues; j++)
		if (!strncmp(ref->values[j], "latency.", 8))
			break;
	if (j == ref->nvalues)
		return;
	buf_adds(b, "# the publication gives ");
	comment_word(b, ref->values[j]);
	buf_adds(b, ": measured by a latency probe beside the engine, from "
		    "the client\n# to the server (ping; irtt for one-way "
		    "delays: schema/plan.md, latency)\n"
		    "latency: { probe: ping, from: client, to: server, "
		    "interval: 100ms, idle: 2s }\n");
}

/* The plan's text from a reference read on its own. */
static void cmd_plan_ref_plan_yaml(struct buf *b, struct arena *a,
				   const char *path,
				   const struct report_ref_doc *doc)
{
	const struct report_ref *ref = doc->ref;
	int f, k, repeat = ref->runs, have_duration = 0;
	for (k = 0; k < ref->nrows; k++)
		if (ref->rows[k].npub > repeat)
			repeat = ref->rows[k].npub;
	if (repeat < 2)
		repeat = 3;
	buf_adds(b, "# Made by `xrun plan --from-reference ");
	comment_word(b, path);
	buf_adds(b, "`.\n");
	if (ref->title || ref->url) {
		buf_adds(b, "# Published: ");
		comment_word(b, ref->title ? ref->title : "");
		if (ref->url) {
			buf_adds(b, " <");
			comment_word(b, ref->url);
			buf_adds(b, ">");
		}
		buf_addc(b, '\n');
	}
	buf_addf(b, "# Statistic published: %s; tolerance %g%%.\n",
		 report_ref_stat_name(ref->statistic), ref->tolerance * 100);
	buf_adds(b, "# Places marked TODO need your hosts. Then:\n"
		    "#   xrun validate THIS.yaml --reference ");
	comment_word(b, path);
	buf_adds(b, "\nxrun: 1\nname: ");
	cmd_plan_ref_plan_name(b, path);
	buf_adds(b, "\ntitle: ");
	yq(b, ref->title ? ref->title : "reproduce a published matrix");
	buf_adds(b, "\nhosts:\n"
		    "  # TODO: your server: its ssh login and the address "
		    "the client connects to\n"
		    "  server: { ssh: \"you@server.example\", address: "
		    "192.0.2.10 }\n"
		    "engine:\n");
	buf_addf(b, "  type: %s\n", ref_engine_name());
	buf_adds(b, "  # TODO: your client (this machine, or a host above)\n"
		    "  client: local\n"
		    "  server: { host: server, start: true }\n");
	for (k = 0; k < ref->nconds; k++) {
		const char *key = ref->conds[k].key;
		int named = 0;
		for (f = 0; f < doc->nfactors; f++)
			if (!strcmp(doc->factors[f], key))
				named = 1;
		if (named)
			continue;
		if (!strcmp(key, "duration"))
			have_duration = 1;
		if (!strcmp(key, "engine") || !strcmp(key, "engine_version") ||
		    !strcmp(key, "version")) {
			buf_adds(b, "  # published ");
			comment_word(b, key);
			buf_adds(b, ": ");
			comment_word(b, ref->conds[k].value);
			buf_addc(b, '\n');
			continue;
		}
		cond_line(b, &ref->conds[k]);
	}
	if (!have_duration)
		buf_addf(b,
			 "  duration: %gs # the publication does not say: "
			 "%s's default\n",
			 ref_engine() ? ref_engine()->desc.default_duration
				      : 10,
			 ref_engine_name());
	latency_yaml(b, ref);
	buf_adds(b, "factors:\n");
	for (f = 0; f < doc->nfactors; f++)
		factor_yaml(b, a, doc, f);
	excludes_yaml(b, a, doc);
	buf_addf(b, "repeat: %d\norder: abba\n", repeat);
}

/*
 * The plan written from a reference is loaded as `xrun validate` would
 * load it, and its matrix built, before it is written (issue 40: bytes
 * that are not UTF-8, control characters or 20,000 columns gave plans
 * that failed validate while the docs said they validate): 1 when it
 * validates; else 0 and why on stderr, the plan's problems at its lines.
 */
static int cmd_plan_ref_plan_validates(const struct buf *b, const char *out,
				       const char *ref)
{
	struct plan *p = NULL;
	struct matrix m;
	struct xr_diag d;
	struct xr_err e = {0};
	const char *name = out && strcmp(out, "-") ? out : "<plan>";
	int rc;
	xr_diag_init(&d, name);
	rc = plan_load_mem(name, b->s ? b->s : "", b->len, catalog_builtin(),
			   &p, &d);
	if (rc == 0 && matrix_build(p, &m, &e) == 0)
		matrix_release(&m);
	else if (rc == 0) {
		xr_diag_add(&d, 0, e.line, e.col, "%s", e.msg);
		rc = -XR_EPLAN;
	}
	if (rc < 0) {
		fprintf(stderr,
			"xrun plan: the plan from %s would not validate, so it "
			"is not written (fix the reference, or write the plan "
			"by hand):\n",
			ref);
		xr_diag_print(&d, stderr);
	}
	xr_diag_release(&d);
	plan_free(p);
	return rc == 0;
}

int cmd_plan_from_reference(const char *path, const char *out)
{
	struct arena *a = arena_new();
	struct report_ref_doc doc;
	struct xr_diag d;
	struct buf b = BUF_INIT;
	int rc, status = 0;
	if (!a) {
		xr_oom_mark(NULL, 0);
		return 3;
	}
	xr_diag_init(&d, path);
	rc = report_reference_read(path, ref_metrics(), a, &doc, &d);
	if (d.n || d.nlost)
		xr_diag_print(&d, stderr);
	xr_diag_release(&d);
	if (rc < 0) {
		arena_free(a);
		return 2;
	}
	cmd_plan_ref_plan_yaml(&b, a, path, &doc);
	if (!cmd_plan_ref_plan_validates(&b, out, path)) {
		buf_release(&b);
		arena_free(a);
		return 2;
	}
	if (out && strcmp(out, "-")) {
		struct xr_err err = {0};
		if (wfile_protect(path, "the reference this plan is read from",
				  0) < 0 ||
		    wfile_write(out, b.s, b.len, &err) < 0) {
			if (!err.code)
				xr_err_set(&err, XR_ENOMEM, NULL, 0, 0,
					   "out of memory writing '%s'", out);
			xr_err_print(&err, "xrun plan");
			status = xr_code_exit(err.code);
		} else
			fprintf(stderr,
				"%s: %d cells, %d factors; edit the places "
				"marked TODO, then xrun validate %s "
				"--reference %s\n",
				out, doc.ncells, doc.nfactors, out, path);
	} else if (fwrite(b.s, 1, b.len, stdout) != b.len ||
		   fflush(stdout) != 0) {
		fprintf(stderr, "xrun plan: cannot write to stdout: %s\n",
			strerror(errno));
		status = 3;
	}
	buf_release(&b);
	arena_free(a);
	return status;
}

int cmd_check_reference(const struct plan *p, const char *path)
{
	struct xr_diag d;
	int rc;
	struct matrix m;
	struct xr_err err;
	xr_err_clear(&err);
	if (matrix_build(p, &m, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return -XR_EUSAGE;
	}
	xr_diag_init(&d, path);
	rc = report_reference_check_plan(p, path, m.lv, m.ncells, &d);
	matrix_release(&m);
	if (d.n || d.nlost)
		xr_diag_print(&d, stderr);
	xr_diag_release(&d);
	return rc;
}

int cmd_validate_reference(const char *path, int quiet)
{
	struct report_ref_doc doc;
	struct xr_diag d;
	struct arena *a = arena_new();
	int rc;
	if (!a)
		return -XR_ENOMEM;
	xr_diag_init(&d, path);
	rc = report_reference_read(path, ref_metrics(), a, &doc, &d);
	if (d.n || d.nlost)
		xr_diag_print(&d, stderr);
	xr_diag_release(&d);
	if (rc == 0 && !quiet)
		printf("%s: ok, %d cells, %d factors (a reference: xrun "
		       "validate PLAN --reference %s checks it against a "
		       "plan)\n",
		       path, doc.ncells, doc.nfactors, path);
	arena_free(a);
	return rc;
}
