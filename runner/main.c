/*
 * xrun's entry point: dispatches subcommands from one table (after git.c).
 * `xrun PLAN` is `xrun run PLAN`; `xrun run` with no plan runs the plan
 * compiled into the binary (plans/loopback.yaml: loopback iperf3, ending
 * with a PDF report).
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "banned.h"

struct subcmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *usage;
};

static const struct subcmd subcmds[] = {
    {"run", cmd_run,
     "run [PLAN] [--db FILE] [--only F=L]... [--unattended] [--yes] "
     "[--new-session]"},
    {"plan", cmd_plan, "plan PLAN [--json]"},
    {"validate", cmd_validate, "validate PLAN..."},
    {"status", cmd_status, "status [PLAN | --db FILE]"},
    {"report", cmd_report,
     "report [PLAN | --db FILE] -o FILE [--format pdf|md|csv|json] [--lang "
     "en|ja]"},
    {"lab", cmd_lab, "lab up [--profile NAME] | lab down | lab status"},
};

static void usage(FILE *f)
{
	size_t i;
	fprintf(f, "usage: xrun PLAN            (same as xrun run PLAN)\n");
	for (i = 0; i < sizeof subcmds / sizeof subcmds[0]; i++)
		fprintf(f, "       xrun %s\n", subcmds[i].usage);
	fprintf(f, "       xrun version\n"
		   "exit: 0 ok, 1 some runs failed, 2 bad plan or usage, "
		   "3 environment, 130 interrupted\n");
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
	for (i = 0; i < sizeof subcmds / sizeof subcmds[0]; i++)
		if (!strcmp(c, subcmds[i].name))
			return subcmds[i].fn(argc - 1, argv + 1);
	if (c[0] == '-') {
		fprintf(stderr, "xrun: unknown option '%s'\n", c);
		usage(stderr);
		return 2;
	}
	/* xrun PLAN ... == xrun run PLAN ... */
	argv[0] = "run";
	return cmd_run(argc, argv);
}
