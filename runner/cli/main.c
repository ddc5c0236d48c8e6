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

/* Edit distance, small words only (subcommand names). */
static size_t distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j, row[32], prev, t;
	if (lb >= sizeof row / sizeof row[0] || la > 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		prev = row[0];
		row[0] = i;
		for (j = 1; j <= lb; j++) {
			t = row[j];
			row[j] = a[i - 1] == b[j - 1] ? prev : 1 + prev;
			if (row[j] > row[j - 1] + 1)
				row[j] = row[j - 1] + 1;
			if (row[j] > t + 1)
				row[j] = t + 1;
			prev = t;
		}
	}
	return row[lb];
}

/*
 * `xrun PLAN` runs a plan, so a misspelt subcommand would be read as a
 * file name. A word that is no file and close to a subcommand is a typo.
 */
static int unknown_command(const char *c)
{
	const char *best = NULL;
	size_t i, d, bestd = 3;
	if (access(c, F_OK) == 0 || strchr(c, '/') || strchr(c, '.'))
		return 0;
	for (i = 0; i < NSUBCMDS; i++)
		if ((d = distance(c, subcmds[i].name)) < bestd) {
			bestd = d;
			best = subcmds[i].name;
		}
	if (!best)
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
