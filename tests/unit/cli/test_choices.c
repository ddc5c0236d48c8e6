/* Unit tests for options whose values come from a table (OPT_CHOICE,
 * opt.h; the sources in choices.c): the parser takes exactly the
 * table's names and refuses the rest, and each of --help, the man page and
 * the bash completion lists every row of every table an option names.
 * OPT_CHOICES (a comma-separated list of the table's names, as bits).
 * Also: opt_parse's outcomes are no -XR_E* code.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cmd.h"
#include "lang.h"
#include "opt.h"
#include "output_format.h"
#include "report.h"
#include "tap.h"
#include "xr_err.h"

/* What f writes into a string. OUT: caller frees. */
static char *capture(void (*fn)(FILE *, const void *), const void *arg)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);
	if (!f)
		return NULL;
	fn(f, arg);
	fclose(f);
	return mem;
}

static void help_of(FILE *f, const void *c)
{
	opt_help(c, f);
}

static void man(FILE *f, const void *unused)
{
	(void)unused;
	cli_print_man(f);
}

static void completion(FILE *f, const void *unused)
{
	(void)unused;
	cli_print_bash_completion(f);
}

/* The word w in text with roff's '-' as "\-" (the man page's spelling). */
static int in_roff(const char *text, const char *w)
{
	char r[128];
	size_t n = 0;
	for (; *w && n + 3 < sizeof r; w++) {
		if (*w == '-')
			r[n++] = '\\';
		r[n++] = *w;
	}
	r[n] = 0;
	return text && strstr(text, r) != NULL;
}

/* The completion's line for option o of command key lists name. */
static int in_completion(const char *script, const char *key,
			 const struct opt_def *o, const char *name)
{
	char head[128];
	const char *p, *end;
	snprintf(head, sizeof head, "\"%s --%s\"", key, o->name);
	p = script ? strstr(script, head) : NULL;
	if (!p || !(end = strchr(p, '\n')))
		return 0;
	for (p = strchr(p, '\''); p && p < end; p = strstr(p + 1, name)) {
		size_t n = strlen(name);
		if ((p[-1] == ' ' || p[-1] == '\'') &&
		    (p[n] == ' ' || p[n] == '\''))
			return 1;
	}
	return 0;
}

static int uses_source(const char *cmd, const char *opt,
		       const struct opt_choices *src)
{
	const struct opt_def *o;
	for (o = cli_command_options(cmd); o && o->kind != OPT_END; o++)
		if (o->name && !strcmp(o->name, opt))
			return (o->kind == OPT_CHOICE ||
				o->kind == OPT_CHOICES) &&
			       o->choices == src;
	return 0;
}

/* Every row of every table an OPT_CHOICE names is in the command's help,
 * the man page and the completion. */
static void test_listed(void)
{
	const struct opt_cmd *const *cmds;
	const struct opt_cmd *list[32];
	const struct opt_def *o;
	char *manp = capture(man, NULL), *comp = capture(completion, NULL);
	size_t n, i, k = 0, j;
	int nchoice = 0;
	cmds = cli_commands(&n);
	for (i = 0; i < n && k < 32; i++) {
		const struct opt_cmd *s;
		list[k++] = cmds[i];
		for (s = cmds[i]->subs; s && s->name && k < 32; s++)
			list[k++] = s;
	}
	for (i = 0; i < k; i++) {
		char *help = capture(help_of, list[i]), key[64];
		snprintf(key, sizeof key, "%s%s%s",
			 list[i]->parent ? list[i]->parent : "",
			 list[i]->parent ? " " : "", list[i]->name);
		for (o = list[i]->opts; o && o->kind != OPT_END; o++) {
			const char *c;
			int h = 1, m = 1, b = 1, rows = 0;
			if (o->kind != OPT_CHOICE && o->kind != OPT_CHOICES)
				continue;
			nchoice++;
			for (j = 0; (c = opt_choice(o, j)); j++, rows++) {
				h &= help && strstr(help, c) != NULL;
				m &= in_roff(manp, c);
				b &= in_completion(comp, key, o, c);
			}
			ok(rows > 0, "%s --%s: the table has rows", key,
			   o->name);
			ok(h, "%s --help lists every %s", key,
			   o->choices->what);
			ok(m, "the man page lists every %s of %s --%s",
			   o->choices->what, key, o->name);
			ok(b, "the completion lists every %s of %s --%s",
			   o->choices->what, key, o->name);
		}
		free(help);
	}
	ok(nchoice >= 4,
	   "at least --format, --lang, --fail-on and --profile (%d)", nchoice);
	ok(uses_source("report", "fail-on", &cli_verdict_choices),
	   "report --fail-on names the verdict table");
	ok(uses_source("report", "format", &cli_format_choices) &&
	       uses_source("report", "lang", &cli_lang_choices) &&
	       uses_source("lab up", "profile", &cli_lab_profile_choices),
	   "report --format, --lang and lab up --profile name their tables");
	ok(manp && strstr(manp, "HTML"), "the man page's format list has HTML");
	free(manp);
	free(comp);
}

/* The sources read the whole tables, and nothing else. */
static void test_sources(void)
{
	size_t i;
	int same = 1;
	for (i = 0; i < OUTPUT_FORMAT_COUNT; i++)
		same &=
		    cli_format_choices.name(i) &&
		    !strcmp(cli_format_choices.name(i), output_formats[i].name);
	ok(same && !cli_format_choices.name(OUTPUT_FORMAT_COUNT),
	   "the format choices are the output-format table's rows");
	is_int(LANG_COUNT, REPORT_LANG_COUNT,
	       "one language row per report language");
	for (i = 0, same = 1; i < LANG_COUNT; i++)
		same &= report_lang_parse(lang_name(i)) == (int)i &&
			lang_find(lang_name(i)) == (int)i;
	ok(same && !cli_lang_choices.name(LANG_COUNT),
	   "the language choices are the reports' languages, in order");
	is_int(lang_find("fr"), LANG_NOT_FOUND, "no language 'fr'");
	for (i = 0, same = 1; i <= REPORT_NOT_VERIFIED; i++)
		same &= cli_verdict_choices.name(i) &&
			!strcmp(cli_verdict_choices.name(i),
				report_verdict_name((enum report_verdict)i));
	ok(same && cli_verdict_choices.name(REPORT_NOT_VERIFIED + 1) &&
	       !strcmp(cli_verdict_choices.name(REPORT_NOT_VERIFIED + 1),
		       "regression") &&
	       !cli_verdict_choices.name(REPORT_NOT_VERIFIED + 2),
	   "the verdict choices are the verdicts, row i verdict i, then "
	   "regression (--history)");
}

struct color_args {
	const char *color;
	unsigned colors;
};
static const char *color_name(size_t i)
{
	static const char *const c[] = {"red", "green", "blue"};
	return i < 3 ? c[i] : NULL;
}
static const struct opt_choices colors = {"color", color_name};
static const struct opt_def color_opts[] = {
    {"color", 0, NULL, "a color", OPT_CHOICE,
     offsetof(struct color_args, color), NULL, 0, &colors},
    {"colors", 0, NULL, "some colors", OPT_CHOICES,
     offsetof(struct color_args, colors), NULL, 0, &colors},
    {0},
};
static const struct opt_cmd color_cmd = {
    .name = "paint", .summary = "paints", .opts = color_opts};

static int parse_color(const char *word, struct color_args *a)
{
	char *argv[] = {"paint", (char *)word, NULL};
	memset(a, 0, sizeof *a);
	return opt_parse(&color_cmd, 2, argv, a);
}

static void test_parse(void)
{
	struct color_args a;
	struct buf b = BUF_INIT;
	int code, clash = 0;
	is_int(parse_color("--color=green", &a), 0, "a listed value");
	is_str(a.color, "green", "it is stored as given");
	fprintf(stderr, "# the usage errors below are expected:\n");
	is_int(parse_color("--color=gren", &a), OPT_USAGE,
	       "a value not in the table is a usage error");
	ok(a.color == NULL, "and is not stored");
	opt_value_name(&color_opts[0], &b);
	is_str(b.s, "red|green|blue", "the value's name lists the table");
	is_int(parse_color("--colors=blue,red", &a), 0, "a list of names");
	is_int((int)a.colors, 5, "as the bits of their rows (red 1, blue 4)");
	is_int(parse_color("--colors=green", &a), 0, "a list of one");
	is_int((int)a.colors, 2, "green is bit 1");
	is_int(parse_color("--colors=red,gren", &a), OPT_USAGE,
	       "one name not in the table is a usage error");
	is_int(parse_color("--colors=red,", &a), OPT_USAGE,
	       "an empty name is a usage error");
	is_int(parse_color("--colors=", &a), OPT_USAGE,
	       "an empty list is a usage error");
	buf_reset(&b);
	opt_value_name(&color_opts[1], &b);
	is_str(b.s, "red|green|blue[,...]", "a list's value name says so");
	buf_release(&b);
	for (code = 0; code < XR_E_COUNT; code++)
		clash |= OPT_HELP == -code || OPT_USAGE == -code;
	ok(!clash, "opt_parse's outcomes are no -XR_E* code");
	ok(opt_is_outcome(OPT_HELP) && opt_is_outcome(OPT_USAGE) &&
	       !opt_is_outcome(-XR_EUSAGE) && !opt_is_outcome(-XR_EPLAN) &&
	       !opt_is_outcome(0),
	   "opt_is_outcome knows only the outcomes");
}

int main(void)
{
	test_listed();
	test_sources();
	test_parse();
	return tap_done();
}
