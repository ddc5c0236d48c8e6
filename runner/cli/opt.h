/*
 * One option parser for every command (after git's parse-options.h). A
 * command is a const table row (struct opt_cmd): its name, its arguments,
 * its options (struct opt_def rows) and the function that runs it. The
 * same rows parse argv, print the command's --help and list the commands
 * in `xrun --help`; cli_commands() hands them to whatever else derives
 * from them (a man page, shell completion, the README test).
 *
 * An option writes into a struct the command owns: opt_def.off is the
 * offset of its field (offsetof), so the tables are const and need no
 * storage of their own.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_OPT_H
#define XR_OPT_H

#include <stddef.h>
#include <stdio.h>

enum opt_kind {
	OPT_END = 0,  /* ends a table */
	OPT_FLAG,     /* int field set to 1 */
	OPT_STRING,   /* const char * field: the value (points into argv) */
	OPT_INT,      /* long long field: a whole decimal number */
	OPT_LIST,     /* struct opt_list field: repeatable, every value kept */
	OPT_CALLBACK, /* cb(field, value): 0, or -XR_EUSAGE after printing
			 why not */
	OPT_CHOICE,   /* const char * field: one of the names of choices */
	OPT_CHOICES   /* unsigned field: a comma-separated list of names of
			 choices, bit i set for row i (rows < 32) */
};

/*
 * Where the values of an OPT_CHOICE come from: another module's table,
 * read row by row (output formats, report languages, lab profiles). The
 * parser's check, --help, the man page and the bash completion all read
 * the same rows, so a row added to the table shows up in all four.
 */
struct opt_choices {
	const char *what;	       /* "format": "unknown format 'x'" */
	const char *(*name)(size_t i); /* row i's name; NULL past the last */
};

struct opt_list {
	const char **v; /* OUT: values in argv order; opt_release frees v */
	int n;
};

struct opt_def {
	const char *name; /* long name without "--", or NULL */
	char short_name;  /* 'q' for -q, or 0 */
	const char *arg;  /* the value's name in help ("FILE"); NULL: a flag,
			     or an OPT_CHOICE shown as its names "a|b|c" */
	const char *help; /* one sentence, lowercase, no final full stop */
	enum opt_kind kind;
	size_t off; /* offsetof the field in the command's struct */
	int (*cb)(void *field, const char *value);
	int required; /* 1: the synopsis shows it without brackets */
	const struct opt_choices *choices; /* OPT_CHOICE: its values */
};

/* Whether o takes a value (every kind but OPT_FLAG). */
int opt_has_value(const struct opt_def *o);
/* The value's name as help shows it: o->arg, or an OPT_CHOICE's names
 * joined by '|' ("pdf|md|html"). Appended to b. */
struct buf;
void opt_value_name(const struct opt_def *o, struct buf *b);
/* Row i of an OPT_CHOICE's values, or NULL past the last (or when o has
 * no choices). */
const char *opt_choice(const struct opt_def *o, size_t i);

struct opt_cmd {
	const char *name;    /* "run"; a subcommand's own name ("up") */
	const char *args;    /* positional synopsis: "[PLAN]", "PLAN..." */
	const char *summary; /* one line for `xrun --help` */
	const char *about;   /* more for `xrun CMD --help`, or NULL */
	const struct opt_def *opts; /* ends with an OPT_END row; may be NULL */
	int min_args, max_args;	    /* positional arguments; max -1: any */
	int (*fn)(int argc, char **argv);
	const struct opt_cmd *subs;  /* subcommands (lab up|down|status),
					ending with a row whose name is NULL */
	const char *parent;	     /* "lab" for a subcommand, else NULL */
	void (*extra_help)(FILE *f); /* after the options, from a table */
};

/*
 * What opt_parse returns besides a count of positional arguments. They
 * have a range of their own, far below every -XR_E* code (xr_code.h; opt.c
 * asserts it), so that a caller that also holds error codes in the same
 * int can never read "help was printed" for an error or the reverse.
 */
enum opt_outcome {
	OPT_HELP = -1000, /* --help printed on stdout: exit 0 */
	OPT_USAGE = -1001 /* a usage error printed on stderr: exit 2 */
};
/* Whether r is one of opt_parse's outcomes (not a count, not an error). */
int opt_is_outcome(int r);

/*
 * Parse argv (argv[0] is the command's name) against c->opts into dest.
 * Accepts --name VALUE, --name=VALUE, -x VALUE, -xVALUE, bundled short
 * flags (-qy), `--` (the rest is positional) and "-" as a positional;
 * -h and --help print c's help. Returns the number of positional
 * arguments, moved to argv[1..n] in order, or OPT_HELP / OPT_USAGE.
 * An unknown option, and an OPT_CHOICE value that is none of its names,
 * get a did-you-mean and the usage (or the valid names) on stderr.
 */
int opt_parse(const struct opt_cmd *c, int argc, char **argv, void *dest);
/* Frees what opt_parse allocated in dest (the OPT_LIST arrays). */
void opt_release(const struct opt_cmd *c, void *dest);
/* The exit status for an OPT_HELP or OPT_USAGE outcome: 0 or 2. */
int opt_exit(int parse_result);

/* The synopsis ("usage: xrun run [PLAN] [--db FILE]...") on f. */
void opt_usage(const struct opt_cmd *c, FILE *f);
/* The whole --help of c: synopsis, about, options, subcommands. */
void opt_help(const struct opt_cmd *c, FILE *f);
/* "  LEFT    HELP" with HELP wrapped in its column (options, commands). */
void opt_help_row(FILE *f, const char *left, const char *help);
/* Prints "xrun: MESSAGE" and c's usage on stderr; returns 2. */
int opt_usage_error(const struct opt_cmd *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The closest of n names to word by the one did-you-mean rule
 * (runner/base/suggest.h), or NULL. */
const char *opt_closest(const char *word, const char *const *names, size_t n);

/* Runs the subcommand argv[1] of c (c->subs) with argv + 1; handles
 * --help, a missing and an unknown subcommand. */
int opt_dispatch(const struct opt_cmd *c, int argc, char **argv);

/* The command table (commands.c), in `xrun --help` order. */
const struct opt_cmd *const *cli_commands(size_t *n);
/* A command by name, or NULL; "lab up" names a subcommand. */
const struct opt_cmd *cli_command(const char *name);
/* The option table of a command ("run", "lab up"), or NULL if there is no
 * such command. For generators: the man page, the shell completion. */
const struct opt_def *cli_command_options(const char *name);
/* The command name closest to word (opt_closest over the table), or
 * NULL. */
const char *cli_command_closest(const char *word);

#endif
