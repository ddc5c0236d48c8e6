/*
 * The command table (after git's commands[]): one row per command, in the
 * order `xrun --help` lists them, each row the command's own opt_cmd with
 * its options (defined next to the command's code), and the lookups that
 * main.c, `xrun help` (cmd_help.c) and the generators (man page,
 * completion) use. A leaf: it reads the rows and calls none of them.
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

const char *cli_command_closest(const char *word)
{
	const char *names[NCOMMANDS];
	size_t i;
	for (i = 0; i < NCOMMANDS; i++)
		names[i] = commands[i]->name;
	return opt_closest(word, names, NCOMMANDS);
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
