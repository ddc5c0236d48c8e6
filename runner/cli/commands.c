/*
 * The command table (after git's commands[]): one row per command, in the
 * order `xrun --help` lists them, each row the command's own opt_cmd with
 * its options (defined next to the command's code). `xrun help`, `xrun
 * version` and the lookups that generators (man page, completion) use live
 * here too.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "opt.h"
#include "banned.h"

static const struct opt_cmd *const commands[] = {
    &cmd_run_spec,    &cmd_plan_spec,	 &cmd_validate_spec,
    &cmd_status_spec, &cmd_report_spec,	 &cmd_merge_spec,
    &cmd_lab_spec,    &cmd_version_spec, &cmd_help_spec,
};
#define NCOMMANDS (sizeof commands / sizeof commands[0])

const struct opt_cmd *const *cli_commands(size_t *n)
{
	*n = NCOMMANDS;
	return commands;
}

/* "lab up" -> lab's subcommand up; "run" -> run. */
const struct opt_cmd *cli_command(const char *name)
{
	size_t i, len = strcspn(name, " ");
	const struct opt_cmd *s;
	for (i = 0; i < NCOMMANDS; i++) {
		const struct opt_cmd *c = commands[i];
		if (strlen(c->name) != len || strncmp(c->name, name, len))
			continue;
		if (!name[len])
			return c;
		for (s = c->subs; s && s->name; s++)
			if (!strcmp(s->name, name + len + 1))
				return s;
		return NULL;
	}
	return NULL;
}

const struct opt_def *cli_command_options(const char *name)
{
	static const struct opt_def none[] = {{0}};
	const struct opt_cmd *c = cli_command(name);
	if (!c)
		return NULL;
	return c->opts ? c->opts : none;
}

void cli_print_commands(FILE *f)
{
	size_t i;
	char left[64];
	fprintf(f, "usage: xrun COMMAND [ARGS]   (xrun PLAN is xrun run PLAN)\n"
		   "\ncommands:\n");
	for (i = 0; i < NCOMMANDS; i++) {
		const struct opt_cmd *c = commands[i];
		snprintf(left, sizeof left, "%s%s%s", c->name,
			 c->args ? " " : "", c->args ? c->args : "");
		opt_help_row(f, left, c->summary);
	}
	fprintf(f, "\n'xrun help COMMAND' or 'xrun COMMAND --help' shows a "
		   "command's options.\n"
		   "exit: 0 ok, 1 some runs failed, 2 bad plan or usage, "
		   "3 environment, 130 interrupted\n");
}

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
	size_t i;
	const struct opt_cmd *s;
	for (i = 0; i < NCOMMANDS; i++) {
		fputc('\n', f);
		opt_help(commands[i], f);
		for (s = commands[i]->subs; s && s->name; s++) {
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
	const char *names[NCOMMANDS], *best;
	size_t i;
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
	for (i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i]->name;
	best = opt_closest(argv[1], names, NCOMMANDS);
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
