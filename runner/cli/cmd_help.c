/*
 * `xrun help` and `xrun version`: the two commands about xrun itself. help
 * reads the command table (commands.c) and prints a command's options, all
 * of them, the manual page (manpage.c) or the bash completion
 * (completion.c).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "opt.h"
#include "banned.h"

/* ---- xrun version ----------------------------------------------------- */

static int cmd_version(int argc, char **argv)
{
	int r = opt_parse(&cmd_version_spec, argc, argv, NULL);
	if (r < 0)
		return opt_exit(r);
	printf("xrun %s\n", XRUN_VERSION);
	return 0;
}

const struct opt_cmd cmd_version_spec = {
    .name = "version",
    .summary = "print xrun's version (also: xrun --version)",
    .max_args = 0,
    .fn = cmd_version,
};

/* ---- xrun help -------------------------------------------------------- */

struct help_args {
	int all;
	int man;
	int completion;
};

static const struct opt_def help_options[] = {
    {"all", 'a', NULL, "print the help of every command and subcommand",
     OPT_FLAG, offsetof(struct help_args, all), NULL, 0},
    {"man", 0, NULL,
     "print the manual page xrun(1) in roff (man -l - reads it), written "
     "from these tables",
     OPT_FLAG, offsetof(struct help_args, man), NULL, 0},
    {"bash-completion", 0, NULL,
     "print the bash completion script, written from these tables", OPT_FLAG,
     offsetof(struct help_args, completion), NULL, 0},
    {0},
};

static void help_all(FILE *f)
{
	size_t i, n;
	const struct opt_cmd *const *cmds = cli_commands(&n);
	const struct opt_cmd *s;
	for (i = 0; i < n; i++) {
		fputc('\n', f);
		opt_help(cmds[i], f);
		for (s = cmds[i]->subs; s && s->name; s++) {
			fputc('\n', f);
			opt_help(s, f);
		}
	}
}

static int cmd_help(int argc, char **argv)
{
	struct help_args a = {0};
	const struct opt_cmd *c;
	char name[128];
	const char *best;
	int n = opt_parse(&cmd_help_spec, argc, argv, &a);
	if (n < 0)
		return opt_exit(n);
	if (a.man) {
		cli_print_man(stdout);
		return fflush(stdout) ? 3 : 0;
	}
	if (a.completion) {
		cli_print_bash_completion(stdout);
		return fflush(stdout) ? 3 : 0;
	}
	if (a.all) {
		cli_print_commands(stdout);
		help_all(stdout);
		return 0;
	}
	if (n == 0) {
		cli_print_commands(stdout);
		return 0;
	}
	snprintf(name, sizeof name, "%s%s%s", argv[1], n > 1 ? " " : "",
		 n > 1 ? argv[2] : "");
	if ((c = cli_command(name))) {
		opt_help(c, stdout);
		return 0;
	}
	best = cli_command_closest(argv[1]);
	if (best && strcmp(best, argv[1]))
		fprintf(stderr,
			"xrun: no command '%s'; did you mean '%s'? (xrun "
			"--help lists them)\n",
			name, best);
	else
		fprintf(stderr,
			"xrun: no command '%s' (xrun --help lists "
			"them)\n",
			name);
	return 2;
}

const struct opt_cmd cmd_help_spec = {
    .name = "help",
    .args = "[COMMAND [SUBCOMMAND]]",
    .summary = "list the commands, or print a command's options (the same "
	       "as xrun COMMAND --help)",
    .opts = help_options,
    .max_args = 2,
    .fn = cmd_help,
};
