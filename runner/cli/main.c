/*
 * xrun's entry point: dispatches subcommands from the one command table
 * (commands.c, after git.c). `xrun PLAN` is `xrun run PLAN`; `xrun run`
 * with no plan runs the plan compiled into the binary (plans/loopback.yaml:
 * loopback iperf3, ending with a PDF report).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "oom.h"
#include "opt.h"
#include "suggest.h"
#include "banned.h"

/*
 * `xrun PLAN` runs a plan, so a misspelt subcommand would be read as a
 * file name. A word that is no file and close to a subcommand is a typo.
 */
static int unknown_command(const char *c)
{
	struct suggest s;
	const struct opt_cmd *const *cmds;
	const char *best;
	size_t i, n;
	if (access(c, F_OK) == 0 || strchr(c, '/') || strchr(c, '.'))
		return 0;
	cmds = cli_commands(&n);
	suggest_init(&s, c, 0);
	for (i = 0; i < n; i++)
		suggest_add(&s, cmds[i]->name);
	if (!(best = suggest_best(&s)))
		return 0;
	fprintf(stderr,
		"xrun: unknown command '%s'; did you mean '%s'? (xrun "
		"--help lists the commands)\n",
		c, best);
	return 1;
}

int main(int argc, char **argv)
{
	const char *c = argc > 1 ? argv[1] : NULL;
	const struct opt_cmd *cmd;
	if (!c) {
		cli_print_commands(stderr);
		return 2;
	}
	if (!strcmp(c, "-h") || !strcmp(c, "--help")) {
		cli_print_commands(stdout);
		return 0;
	}
	if (!strcmp(c, "--version"))
		c = argv[1] = "version";
	if (c[0] != '-' && (cmd = cli_command(c)) && !cmd->parent &&
	    !strchr(c, ' ')) {
		/* until the command names a stage of its own */
		xr_oom_stage("running 'xrun %s'", cmd->name);
		return xr_oom_exit(cmd->fn(argc - 1, argv + 1));
	}
	if (unknown_command(c))
		return 2;
	if (c[0] == '-') {
		fprintf(stderr, "xrun: unknown option '%s'\n", c);
		cli_print_commands(stderr);
		return 2;
	}
	/* xrun PLAN ... == xrun run PLAN ... */
	argv[0] = "run";
	xr_oom_stage("running 'xrun run'");
	return xr_oom_exit(cmd_run_spec.fn(argc, argv));
}
