/*
 * The manual page, xrun(1), written in roff from the command table
 * (commands.c) and the option tables of every command (opt.h), and the
 * exit statuses from the error table (xr_code.h XR_ERRNO_MAP): `xrun help
 * --man` prints it and the build writes it to xrun.1, so the page cannot
 * drift from what the binary accepts. The prose around the tables (what
 * xrun is, examples, files) lives here, in tables of its own.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "cmd.h"
#include "xr_err.h"
#include "opt.h"
#include "banned.h"

/* Text for roff: backslashes doubled as \e, '-' as \- (options and file
 * names stay copyable), a line start that roff would read as a request
 * protected with \&. */
static void roff_text(FILE *f, const char *s)
{
	int bol = 1;
	for (; s && *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = *s == '\n';
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

/* ".TP" + "\fB--db\fR \fIFILE\fR" + help; an OPT_CHOICE's names
 * ("pdf|md|html") come from its table, as in --help. */
static void man_option(FILE *f, const struct opt_def *o)
{
	struct buf v = BUF_INIT;
	fputs(".TP\n", f);
	if (o->short_name) {
		fprintf(f, "\\fB\\-%c\\fR", o->short_name);
		if (o->name)
			fputs(", ", f);
	}
	if (o->name) {
		fputs("\\fB\\-\\-", f);
		roff_text(f, o->name);
		fputs("\\fR", f);
	}
	if (opt_has_value(o)) {
		opt_value_name(o, &v);
		fputs(" \\fI", f);
		roff_text(f, v.s);
		fputs("\\fR", f);
	}
	fputc('\n', f);
	roff_text(f, o->help);
	fputs(".\n", f);
	buf_release(&v);
}

/* What a command's extra_help prints (a table such as lab's profiles),
 * kept as it is: a no-fill block. */
static void man_extra(FILE *f, const struct opt_cmd *c)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m;
	if (!c->extra_help || !(m = open_memstream(&text, &len)))
		return;
	c->extra_help(m);
	fclose(m);
	if (text && len) {
		fputs(".PP\n.nf\n", f);
		roff_text(f, text);
		if (text[len - 1] != '\n')
			fputc('\n', f);
		fputs(".fi\n", f);
	}
	free(text);
}

static void man_command(FILE *f, const struct opt_cmd *c)
{
	const struct opt_def *o;
	char *syn = NULL;
	size_t len = 0;
	FILE *m;
	fputs(".SS ", f);
	if (c->parent)
		fprintf(f, "%s ", c->parent);
	roff_text(f, c->name);
	fputc('\n', f);
	/* The synopsis exactly as --help prints it, minus "usage: ". */
	if ((m = open_memstream(&syn, &len))) {
		opt_usage(c, m);
		fclose(m);
	}
	if (syn) {
		while (len && syn[len - 1] == '\n')
			syn[--len] = 0;
		fputs(".nf\n\\fB", f);
		roff_text(f, !strncmp(syn, "usage: ", 7) ? syn + 7 : syn);
		fputs("\\fR\n.fi\n", f);
		free(syn);
	}
	fputs(".PP\n", f);
	roff_text(f, c->summary);
	fputs(".\n", f);
	if (c->about) {
		fputs(".PP\n", f);
		roff_text(f, c->about);
		fputc('\n', f);
	}
	for (o = c->opts; o && o->kind != OPT_END; o++)
		man_option(f, o);
	fputs(".TP\n\\fB\\-h\\fR, \\fB\\-\\-help\\fR\nprint this help and "
	      "exit.\n",
	      f);
	man_extra(f, c);
}

/* What each exit status means; the error kinds that lead to it come from
 * xr_code.h's table. */
static const struct {
	int status;
	const char *meaning;
} exits[] = {
    {0, "every run ok (or nothing to do)"},
    {1, "some runs failed or timed out (they are stored, with their "
	"reasons)"},
    {2, "bad plan or usage (including a plan whose cells changed since the "
	"stored session, without --new-session)"},
    {3, "environment: engine missing, host unreachable before any run "
	"(or lost during the session and not back after the plan's "
	"reconnect: tries; the runs left stay pending, run the same command "
	"again to resume), database locked by another xrun, no usable font "
	"for a PDF report (from report, and from run when the plan writes a "
	"PDF)"},
    {4, "report --fail-on: a comparison has one of the verdicts named "
	"(the report is written)"},
    {130, "interrupted (SIGINT/SIGTERM): the run in flight is stored as "
	  "interrupted; run the same command again to resume"},
};

static void man_exit(FILE *f)
{
	size_t i;
	int code, n;
	fputs(".SH EXIT STATUS\n", f);
	for (i = 0; i < sizeof exits / sizeof exits[0]; i++) {
		fprintf(f, ".TP\n.B %d\n", exits[i].status);
		roff_text(f, exits[i].meaning);
		for (code = 1, n = 0; code < XR_E_COUNT; code++)
			if (xr_code_exit(code) == exits[i].status) {
				fputs(n++ ? ", " : " (errors: ", f);
				roff_text(f, xr_code_name(code));
			}
		fputs(n ? ").\n" : ".\n", f);
	}
}

/* Sections of prose: one row each, in page order. */
static const struct {
	const char *title;
	const char *roff;
} prose_before[] = {
    {"DESCRIPTION",
     "xrun turns a network benchmark into one declarative, repeatable "
     "experiment. A YAML plan names factors (OS, NIC, streams, MTU, "
     "congestion control, anything) with levels, repetitions and an "
     "ABBA-interleaved order; \\fBxrun run\\fR executes every cell through "
     "a load engine (iperf3, or any command whose output carries a number) "
     "on local, ssh or network-namespace hosts, applying and verifying each "
     "setting and reading counters before and after; every run goes into "
     "one SQLite file, resumable after a crash; \\fBxrun report\\fR writes "
     "PDF, Markdown, HTML, CSV and JSON reports with statistics and A/B "
     "verdicts.\n.PP\n"
     "\\fBxrun\\fR \\fIPLAN\\fR is \\fBxrun run\\fR \\fIPLAN\\fR. "
     "Options take their value as \\fB\\-\\-db\\fR \\fIFILE\\fR or "
     "\\fB\\-\\-db=\\fR\\fIFILE\\fR; \\fB\\-\\-\\fR ends the options.\n"},
};

static const struct {
	const char *title;
	const char *roff;
} prose_after[] = {
    {"EXAMPLES",
     "Run the plan compiled into the binary (iperf3 over loopback) into "
     "\\fI./loopback.db\\fR and \\fI./loopback.pdf\\fR:\n.PP\n.nf\n"
     ".RS\nxrun run \\-\\-yes \\-\\-unattended\n.RE\n.fi\n.PP\n"
     "Check a plan, look at its schedule, run one level of a factor, see "
     "where it stands:\n.PP\n.nf\n.RS\n"
     "xrun validate plans/cc\\-abba.yaml\n"
     "xrun plan plans/cc\\-abba.yaml\n"
     "xrun run plans/cc\\-abba.yaml \\-\\-only cc=cubic\n"
     "xrun status plans/cc\\-abba.yaml\n.RE\n.fi\n.PP\n"
     "Write reports from the store:\n.PP\n.nf\n.RS\n"
     "xrun report \\-\\-db loopback.db \\-o loopback.md\n"
     "xrun report plans/pcie\\-gen.yaml \\-\\-reference "
     "samples/seed001\\-pcie\\-slots.csv \\-o cmp.pdf\n.RE\n.fi\n.PP\n"
     "Rehearse on one machine (root):\n.PP\n.nf\n.RS\n"
     "xrun lab up \\-\\-profile pcie3x1\n"
     "xrun run plans/lab\\-rehearsal.yaml\n"
     "xrun lab down\n.RE\n.fi\n"},
    {"ENVIRONMENT",
     ".TP\n.B XRUN_FONT\nthe TrueType font of PDF reports (default: "
     "IPAexGothic, found through fontconfig).\n"
     ".TP\n.B XRUN_FONT_NOFC\nwhen set (not 0), do not ask fontconfig "
     "for a font.\n"},
    {"FILES",
     ".TP\n.I ./NAME.db\nthe store of plan NAME (SQLite, WAL), unless "
     "\\fB\\-\\-db\\fR names another.\n"
     ".TP\n.I /usr/share/xrun/plans\nexample plans (also under the "
     "installation prefix, such as /usr/local/share/xrun/plans).\n"
     ".TP\n.I /usr/share/xrun/samples\npublished reference matrices for "
     "\\fB\\-\\-reference\\fR.\n"
     ".TP\n.I /usr/share/xrun/schema\nthe plan format (plan.md), its JSON "
     "Schema (plan.schema.json) for editors, the store (store.md, "
     "store.sql), reports and references.\n"
     ".TP\n.I /usr/share/doc/xrun\nREADME.md and the guides (docs/).\n"},
    {"SEE ALSO", "\\fBiperf3\\fR(1), \\fBssh\\fR(1), \\fBssh_config\\fR(5), "
		 "\\fBsqlite3\\fR(1), \\fBip\\-netns\\fR(8), \\fBtc\\fR(8)\n"},
};

void cli_print_man(FILE *f)
{
	const struct opt_cmd *const *cmds;
	const struct opt_cmd *s;
	size_t i, n;

	cmds = cli_commands(&n);
	fprintf(f,
		".\\\" Generated by `xrun help --man` from the option tables; "
		"do not edit.\n"
		".TH XRUN 1 \"\" \"xrun %s\" \"User Commands\"\n"
		".SH NAME\nxrun \\- run network benchmark plans and report "
		"them\n.SH SYNOPSIS\n",
		XRUN_VERSION);
	for (i = 0; i < n; i++) {
		fprintf(f, ".B xrun %s\n", cmds[i]->name);
		if (cmds[i]->args) {
			fputs(".I ", f);
			roff_text(f, cmds[i]->args);
			fputc('\n', f);
		}
		fputs(cmds[i]->opts ? "[\\fIOPTIONS\\fR]\n.br\n" : ".br\n", f);
	}
	fputs(".B xrun\n.I PLAN\n[\\fIOPTIONS\\fR]\n", f);
	for (i = 0; i < sizeof prose_before / sizeof prose_before[0]; i++)
		fprintf(f, ".SH %s\n%s", prose_before[i].title,
			prose_before[i].roff);
	fputs(".SH COMMANDS\n", f);
	for (i = 0; i < n; i++) {
		man_command(f, cmds[i]);
		for (s = cmds[i]->subs; s && s->name; s++)
			man_command(f, s);
	}
	man_exit(f);
	for (i = 0; i < sizeof prose_after / sizeof prose_after[0]; i++)
		fprintf(f, ".SH %s\n%s", prose_after[i].title,
			prose_after[i].roff);
}
