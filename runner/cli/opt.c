/*
 * The option parser and the help printer of every command (opt.h): both
 * read the same struct opt_def rows, so a command's --help cannot drift
 * from what it accepts. Errors go to stderr as "xrun: MESSAGE" followed by
 * the command's synopsis; the caller turns them into exit status 2.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "xr_err.h"
#include "oom.h"
#include "opt.h"
#include "suggest.h"
#include "banned.h"

#define OPT_WIDTH 79	/* help lines end before column 80 */
#define OPT_HELP_COL 24 /* where an option's help text starts */

_Static_assert(-OPT_HELP >= XR_E_COUNT && -OPT_USAGE >= XR_E_COUNT,
	       "opt_parse's outcomes must not be -XR_E* codes");

int opt_is_outcome(int r)
{
	return r == OPT_HELP || r == OPT_USAGE;
}

int opt_has_value(const struct opt_def *o)
{
	return o->kind != OPT_FLAG;
}

const char *opt_choice(const struct opt_def *o, size_t i)
{
	return (o->kind == OPT_CHOICE || o->kind == OPT_CHOICES) && o->choices
		   ? o->choices->name(i)
		   : NULL;
}

void opt_value_name(const struct opt_def *o, struct buf *b)
{
	const char *c;
	size_t i;
	if (o->arg || (o->kind != OPT_CHOICE && o->kind != OPT_CHOICES)) {
		buf_adds(b, o->arg ? o->arg : "");
		return;
	}
	for (i = 0; (c = opt_choice(o, i)); i++)
		buf_addf(b, "%s%s", i ? "|" : "", c);
	if (o->kind == OPT_CHOICES)
		buf_adds(b, "[,...]");
}

/* ---- names ------------------------------------------------------------ */

/* "xrun run", "xrun lab up" */
static void cmd_title(const struct opt_cmd *c, struct buf *b)
{
	buf_adds(b, "xrun ");
	if (c->parent)
		buf_addf(b, "%s ", c->parent);
	buf_adds(b, c->name);
}

/* "--db FILE", "-o, --output FILE" (help) or "--db FILE" (synopsis) */
static void opt_text(const struct opt_def *o, int synopsis, struct buf *b)
{
	int use_short =
	    o->short_name && (!o->name || (synopsis && o->required));
	if (!synopsis && o->short_name && o->name)
		buf_addf(b, "-%c, ", o->short_name);
	if (use_short)
		buf_addf(b, "-%c", o->short_name);
	else
		buf_addf(b, "--%s", o->name);
	if (opt_has_value(o)) {
		buf_addc(b, ' ');
		opt_value_name(o, b);
	}
}

/* ---- did you mean ----------------------------------------------------- */

const char *opt_closest(const char *word, const char *const *names, size_t n)
{
	struct suggest s;
	size_t i;
	suggest_init(&s, word, 0);
	for (i = 0; i < n; i++)
		suggest_add(&s, names[i]);
	return suggest_best(&s);
}

/* ---- help ------------------------------------------------------------- */

/* Appends words of text to lines of width OPT_WIDTH, each continuation
 * line indented by indent columns; col is where the cursor is now. */
static void wrap(FILE *f, const char *text, size_t col, size_t indent)
{
	const char *p = text;
	int first = 1;
	while (*p) {
		size_t n = strcspn(p, " ");
		if (!first && col + 1 + n > OPT_WIDTH) {
			fprintf(f, "\n%*s", (int)indent, "");
			col = indent;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fprintf(f, "%.*s", (int)n, p);
		col += n;
		first = 0;
		p += n;
		while (*p == ' ')
			p++;
	}
	fputc('\n', f);
}

/* One synopsis word (never split: "[--db FILE]"); *col is the cursor. */
static void usage_word(FILE *f, const char *w, size_t *col, size_t indent)
{
	size_t n = strlen(w);
	if (*col + 1 + n > OPT_WIDTH && *col > indent) {
		fprintf(f, "\n%*s", (int)indent, "");
		*col = indent;
	} else {
		fputc(' ', f);
		(*col)++;
	}
	fputs(w, f);
	*col += n;
}

void opt_usage(const struct opt_cmd *c, FILE *f)
{
	struct buf head = BUF_INIT, w = BUF_INIT;
	const struct opt_def *o;
	size_t col, indent;
	buf_adds(&head, "usage: ");
	cmd_title(c, &head);
	fputs(head.s, f);
	col = indent = head.len + 1; /* continuation lines: under the args */
	if (c->args && *c->args)
		usage_word(f, c->args, &col, indent);
	for (o = c->opts; o && o->kind != OPT_END; o++) {
		buf_reset(&w);
		if (!o->required)
			buf_addc(&w, '[');
		opt_text(o, 1, &w);
		if (!o->required)
			buf_addc(&w, ']');
		if (o->kind == OPT_LIST)
			buf_adds(&w, "...");
		usage_word(f, w.s, &col, indent);
	}
	fputc('\n', f);
	buf_release(&head);
	buf_release(&w);
}

void opt_help_row(FILE *f, const char *left, const char *help)
{
	size_t col = 2 + strlen(left);
	fprintf(f, "  %s", left);
	if (col + 2 > OPT_HELP_COL) {
		fprintf(f, "\n%*s", OPT_HELP_COL, "");
	} else {
		fprintf(f, "%*s", (int)(OPT_HELP_COL - col), "");
	}
	wrap(f, help ? help : "", OPT_HELP_COL, OPT_HELP_COL);
}

void opt_help(const struct opt_cmd *c, FILE *f)
{
	const struct opt_def *o;
	const struct opt_cmd *s;
	struct buf b = BUF_INIT;
	opt_usage(c, f);
	fputc('\n', f);
	wrap(f, c->summary, 0, 0);
	if (c->about)
		wrap(f, c->about, 0, 0);
	if (c->subs) {
		fprintf(f, "\nsubcommands:\n");
		for (s = c->subs; s->name; s++) {
			buf_reset(&b);
			buf_addf(&b, "%s%s%s", s->name, s->args ? " " : "",
				 s->args ? s->args : "");
			opt_help_row(f, b.s, s->summary);
		}
	}
	fprintf(f, "\noptions:\n");
	for (o = c->opts; o && o->kind != OPT_END; o++) {
		buf_reset(&b);
		opt_text(o, 0, &b);
		opt_help_row(f, b.s, o->help);
	}
	opt_help_row(f, "-h, --help", "print this help and exit");
	if (c->extra_help)
		c->extra_help(f);
	buf_release(&b);
}

/* Not a usage error: the entry point says memory ran out (oom.h). */
static int opt_nomem(void)
{
	xr_oom_stage("reading the command line");
	xr_oom_mark(NULL, 0);
	return OPT_USAGE;
}

int opt_usage_error(const struct opt_cmd *c, const char *fmt, ...)
{
	va_list ap;
	fprintf(stderr, "xrun: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	if (c)
		opt_usage(c, stderr);
	return 2;
}

int opt_exit(int parse_result)
{
	return parse_result == OPT_HELP ? 0 : 2;
}

/* ---- parsing ---------------------------------------------------------- */

static const struct opt_def *find_long(const struct opt_cmd *c,
				       const char *name, size_t len)
{
	const struct opt_def *o;
	for (o = c->opts; o && o->kind != OPT_END; o++)
		if (o->name && strlen(o->name) == len &&
		    !strncmp(o->name, name, len))
			return o;
	return NULL;
}

static const struct opt_def *find_short(const struct opt_cmd *c, char ch)
{
	const struct opt_def *o;
	for (o = c->opts; o && o->kind != OPT_END; o++)
		if (o->short_name == ch)
			return o;
	return NULL;
}

static int unknown_option(const struct opt_cmd *c, const char *arg)
{
	const char *names[64];
	const struct opt_def *o;
	const char *best;
	size_t n = 0, len = strcspn(arg, "=");
	char word[64];
	names[n++] = "help";
	for (o = c->opts; o && o->kind != OPT_END && n < 64; o++)
		names[n++] = o->name;
	if (arg[1] == '-' && len - 2 < sizeof word) {
		snprintf(word, sizeof word, "%.*s", (int)(len - 2), arg + 2);
		best = opt_closest(word, names, n);
		if (best)
			return opt_usage_error(c,
					       "unknown option '%s'; did you "
					       "mean '--%s'?",
					       arg, best);
	}
	return opt_usage_error(c, "unknown option '%s'", arg);
}

/* 0 when value is one of o's choices (its row in *row, if row is not
 * NULL); else says why not and returns 2: "unknown format 'pfd' for
 * --format; did you mean 'pdf'? (valid: pdf, md, html, csv, json)". */
static int check_choice(const struct opt_cmd *c, const struct opt_def *o,
			const char *shown, const char *value, size_t *row)
{
	struct suggest s;
	struct buf valid = BUF_INIT;
	const char *name, *best;
	size_t i;
	int r;
	suggest_init(&s, value, 0);
	for (i = 0; (name = opt_choice(o, i)); i++) {
		if (!strcmp(name, value)) {
			buf_release(&valid);
			if (row)
				*row = i;
			return 0;
		}
		suggest_add(&s, name);
		buf_addf(&valid, "%s%s", i ? ", " : "", name);
	}
	best = suggest_best(&s);
	r = opt_usage_error(c, "unknown %s '%s' for %s%s%s%s (valid: %s)",
			    o->choices ? o->choices->what : "value", value,
			    shown, best ? "; did you mean '" : "",
			    best ? best : "", best ? "'?" : "",
			    valid.s ? valid.s : "");
	buf_release(&valid);
	return r;
}

/* "worse,different" into the bits of their rows; every name checked, an
 * empty one ("worse,,x" or "") refused. */
static int set_choices(const struct opt_cmd *c, const struct opt_def *o,
		       const char *shown, const char *value, unsigned *bits)
{
	struct buf w = BUF_INIT;
	const char *p = value, *e;
	size_t row;
	int r = 0;
	*bits = 0;
	do {
		e = strchr(p, ',');
		if (!e)
			e = p + strlen(p);
		buf_reset(&w);
		buf_addf(&w, "%.*s", (int)(e - p), p);
		if (e == p) {
			r = opt_usage_error(c,
					    "empty name in '%s' for %s "
					    "(a list such as a,b)",
					    value, shown);
			break;
		}
		if ((r = check_choice(c, o, shown, w.s, &row)))
			break;
		if (row < 32)
			*bits |= 1u << row;
		p = e + 1;
	} while (*e);
	buf_release(&w);
	return r ? 2 : 0;
}

/* Stores value (NULL for a flag) into o's field of dest. */
static int set_value(const struct opt_cmd *c, const struct opt_def *o,
		     const char *shown, const char *value, int argc, void *dest)
{
	char *field = (char *)dest + o->off;
	char *end;
	long long v;
	struct opt_list *l;
	switch (o->kind) {
	case OPT_FLAG:
		*(int *)field = 1;
		return 0;
	case OPT_STRING:
		*(const char **)field = value;
		return 0;
	case OPT_INT:
		v = strtoll(value, &end, 10);
		if (end == value || *end)
			return opt_usage_error(c,
					       "option '%s' needs a whole "
					       "number (%s %s), not '%s'",
					       shown, shown, o->arg, value);
		*(long long *)field = v;
		return 0;
	case OPT_LIST:
		l = (struct opt_list *)field;
		if (!l->v && !(l->v = calloc((size_t)argc + 1, sizeof *l->v)))
			return opt_nomem();
		l->v[l->n++] = value;
		return 0;
	case OPT_CALLBACK:
		return o->cb(field, value) < 0 ? 2 : 0;
	case OPT_CHOICE:
		if (check_choice(c, o, shown, value, NULL))
			return 2;
		*(const char **)field = value;
		return 0;
	case OPT_CHOICES:
		return set_choices(c, o, shown, value, (unsigned *)field);
	case OPT_END:
		break;
	}
	return opt_usage_error(c, "option '%s': bad table", shown);
}

/* "option '--db' needs a value (--db FILE)" */
static int missing_value(const struct opt_cmd *c, const struct opt_def *o,
			 const char *shown)
{
	struct buf v = BUF_INIT;
	int r;
	opt_value_name(o, &v);
	r = opt_usage_error(c, "option '%s' needs a value (%s %s)", shown,
			    shown, v.s ? v.s : "");
	buf_release(&v);
	return r;
}

/* One "--name" or "--name=value" at argv[*i]. */
static int parse_long(const struct opt_cmd *c, int argc, char **argv, int *i,
		      void *dest)
{
	const char *a = argv[*i], *eq = strchr(a, '=');
	size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
	const struct opt_def *o = find_long(c, a + 2, len);
	char shown[80];
	if (!o && len == 4 && !strncmp(a + 2, "help", 4))
		return OPT_HELP;
	if (!o)
		return unknown_option(c, a);
	snprintf(shown, sizeof shown, "--%s", o->name);
	if (!opt_has_value(o)) {
		if (eq)
			return opt_usage_error(c, "option '%s' takes no value",
					       shown);
		return set_value(c, o, shown, NULL, argc, dest);
	}
	if (eq)
		return set_value(c, o, shown, eq + 1, argc, dest);
	if (*i + 1 >= argc)
		return missing_value(c, o, shown);
	return set_value(c, o, shown, argv[++*i], argc, dest);
}

/* "-q", "-qy", "-o FILE", "-oFILE" at argv[*i]. */
static int parse_short(const struct opt_cmd *c, int argc, char **argv, int *i,
		       void *dest)
{
	const char *a = argv[*i], *p;
	char shown[3] = "-?";
	int r;
	for (p = a + 1; *p; p++) {
		const struct opt_def *o = find_short(c, *p);
		shown[1] = *p;
		if (!o && *p == 'h')
			return OPT_HELP;
		if (!o) {
			if (p == a + 1)
				return unknown_option(c, a);
			return opt_usage_error(c, "unknown option '%s' in '%s'",
					       shown, a);
		}
		if (!opt_has_value(o)) {
			if ((r = set_value(c, o, shown, NULL, argc, dest)))
				return r;
			continue;
		}
		if (p[1])
			return set_value(c, o, shown, p + 1, argc, dest);
		if (*i + 1 >= argc)
			return missing_value(c, o, shown);
		return set_value(c, o, shown, argv[++*i], argc, dest);
	}
	return 0;
}

static int check_args(const struct opt_cmd *c, int npos, char **argv)
{
	if (npos < c->min_args) {
		opt_usage(c, stderr);
		return OPT_USAGE;
	}
	if (c->max_args >= 0 && npos > c->max_args) {
		if (c->max_args == 0)
			opt_usage_error(c, "unexpected argument '%s'", argv[1]);
		else if (c->max_args == 1)
			opt_usage_error(c, "one %s at a time ('%s' and '%s')",
					c->args && c->args[0] == '[' ? "PLAN"
								     : c->args,
					argv[1], argv[2]);
		else
			opt_usage_error(c, "too many arguments ('%s')",
					argv[c->max_args + 1]);
		return OPT_USAGE;
	}
	return npos;
}

int opt_parse(const struct opt_cmd *c, int argc, char **argv, void *dest)
{
	int i, npos = 0, opts = 1, r;
	char **pos = calloc((size_t)argc + 1, sizeof *pos);
	if (!pos)
		return opt_nomem();
	for (i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (!opts || a[0] != '-' || !a[1]) {
			pos[npos++] = argv[i];
			continue;
		}
		if (!strcmp(a, "--")) {
			opts = 0;
			continue;
		}
		r = a[1] == '-' ? parse_long(c, argc, argv, &i, dest)
				: parse_short(c, argc, argv, &i, dest);
		if (r == OPT_HELP) {
			free(pos);
			opt_help(c, stdout);
			return OPT_HELP;
		}
		if (r) {
			free(pos);
			return OPT_USAGE;
		}
	}
	for (i = 0; i < npos; i++)
		argv[i + 1] = pos[i];
	argv[npos + 1] = NULL; /* argv[argc] is NULL, npos < argc */
	free(pos);
	return check_args(c, npos, argv);
}

void opt_release(const struct opt_cmd *c, void *dest)
{
	const struct opt_def *o;
	for (o = c->opts; o && o->kind != OPT_END; o++)
		if (o->kind == OPT_LIST) {
			struct opt_list *l =
			    (struct opt_list *)((char *)dest + o->off);
			free(l->v);
			l->v = NULL;
			l->n = 0;
		}
}

int opt_dispatch(const struct opt_cmd *c, int argc, char **argv)
{
	const char *names[16];
	const struct opt_cmd *s;
	const char *a = argc > 1 ? argv[1] : NULL, *best;
	size_t n = 0;
	if (!a)
		return opt_usage_error(c, "'xrun %s' needs a subcommand",
				       c->name);
	if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
		opt_help(c, stdout);
		return 0;
	}
	for (s = c->subs; s && s->name; s++) {
		if (!strcmp(s->name, a))
			return s->fn(argc - 1, argv + 1);
		if (n < 16)
			names[n++] = s->name;
	}
	best = a[0] == '-' ? NULL : opt_closest(a, names, n);
	if (best)
		return opt_usage_error(c,
				       "unknown %s subcommand '%s'; did "
				       "you mean '%s'?",
				       c->name, a, best);
	return opt_usage_error(c, "unknown %s subcommand '%s'", c->name, a);
}
