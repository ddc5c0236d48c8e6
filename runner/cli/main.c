/*
 * xrun's entry point: dispatches subcommands from one table (after git.c).
 * `xrun PLAN` is `xrun run PLAN`; `xrun run` with no plan runs the plan
 * compiled into the binary (plans/loopback.yaml: loopback iperf3, ending
 * with a PDF report).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "suggest.h"
#include "banned.h"

struct subcmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
};

static const struct subcmd subcmds[] = {
    {"run", cmd_run,
     "run [PLAN] [--db FILE] [--only F=L]... [--unattended] [--yes]\n"
     "                [--new-session] [--quiet]"},
    {"plan", cmd_plan, "plan PLAN [--json]"},
    {"validate", cmd_validate, "validate [-q] PLAN..."},
    {"status", cmd_status, "status [PLAN | --db FILE]"},
    {"report", cmd_report,
     "report [PLAN | --db FILE] -o FILE [--format pdf|md|csv|json]\n"
     "                [--lang en|ja] [--title T] [--metric NAME] "
     "[--threshold 1%]\n"
     "                [--unit U] [--reference FILE] [--session N]"},
    {"lab", cmd_lab,
     "lab up [--profile NAME] [--prefix P] | lab down | lab status"},
};
#define NSUBCMDS (sizeof subcmds / sizeof subcmds[0])

static void usage(FILE *f)
{
	size_t i;
	fprintf(f, "usage: xrun PLAN            (same as xrun run PLAN)\n");
	for (i = 0; i < NSUBCMDS; i++)
		fprintf(f, "       xrun %s\n", subcmds[i].usage);
	fprintf(f, "       xrun version\n"
		   "exit: 0 ok, 1 some runs failed, 2 bad plan or usage, "
		   "3 environment, 130 interrupted\n");
}

/*
 * `xrun PLAN` runs a plan, so a misspelt subcommand would be read as a
 * file name. A word that is no file and close to a subcommand is a typo.
 */
static int unknown_command(const char *c)
{
	struct suggest s;
	const char *best;
	size_t i;
	if (access(c, F_OK) == 0 || strchr(c, '/') || strchr(c, '.'))
		return 0;
	suggest_init(&s, c, 0);
	for (i = 0; i < NSUBCMDS; i++)
		suggest_add(&s, subcmds[i].name);
	if (!(best = suggest_best(&s)))
		return 0;
	fprintf(stderr,
		"xrun: unknown command '%s'; did you mean '%s'? (commands: "
		"run, plan, validate, status, report, lab, version)\n",
		c, best);
	return 1;
}

int main(int argc, char **argv)
{
	size_t i;
	const char *c = argc > 1 ? argv[1] : NULL;
	if (!c) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(c, "-h") || !strcmp(c, "--help") || !strcmp(c, "help")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(c, "version") || !strcmp(c, "--version")) {
		printf("xrun %s\n", XRUN_VERSION);
		return 0;
	}
	for (i = 0; i < NSUBCMDS; i++)
		if (!strcmp(c, subcmds[i].name))
			return subcmds[i].fn(argc - 1, argv + 1);
	if (unknown_command(c))
		return 2;
	if (c[0] == '-') {
		fprintf(stderr, "xrun: unknown option '%s'\n", c);
		usage(stderr);
		return 2;
	}
	/* xrun PLAN ... == xrun run PLAN ... */
	argv[0] = "run";
	return cmd_run(argc, argv);
}
