/* Unit tests for opt.c (the option parser and help printer) and the command
 * table of commands.c.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opt.h"
#include "tap.h"
#include "xr_err.h"

struct args {
	const char *db;
	const char *out;
	int quiet, yes;
	long long n;
	struct opt_list only;
	double twice;
};

static int twice_cb(void *field, const char *v)
{
	char *end;
	double d = strtod(v, &end);
	if (end == v || *end)
		return -XR_EUSAGE;
	*(double *)field = 2 * d;
	return 0;
}

#define A(f) offsetof(struct args, f)
static const struct opt_def defs[] = {
    {"db", 0, "FILE", "the store", OPT_STRING, A(db), NULL, 0},
    {"output", 'o', "FILE", "the output", OPT_STRING, A(out), NULL, 1},
    {"quiet", 'q', NULL, "say less", OPT_FLAG, A(quiet), NULL, 0},
    {"yes", 'y', NULL, "do not ask", OPT_FLAG, A(yes), NULL, 0},
    {"count", 0, "N", "how many", OPT_INT, A(n), NULL, 0},
    {"only", 0, "F=L", "a filter", OPT_LIST, A(only), NULL, 0},
    {"twice", 0, "X", "doubled", OPT_CALLBACK, A(twice), twice_cb, 0},
    {0},
};
#undef A

static const struct opt_cmd cmd = {
    .name = "test",
    .args = "[PLAN]",
    .summary = "a command for the tests",
    .opts = defs,
    .max_args = 1,
};

static const struct opt_cmd cmd_many = {
    .name = "many",
    .args = "PLAN...",
    .summary = "one or more plans",
    .opts = defs,
    .min_args = 1,
    .max_args = -1,
};

/* Parses a NULL-terminated list of words (argv[0] is "test"). */
static int parse(const struct opt_cmd *c, struct args *a, char **argv,
		 const char *const *words)
{
	int argc = 0;
	while (words[argc]) {
		argv[argc] = (char *)words[argc];
		argc++;
	}
	argv[argc] = NULL;
	memset(a, 0, sizeof *a);
	return opt_parse(c, argc, argv, a);
}

static char *help_text(const struct opt_cmd *c)
{
	char *mem = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&mem, &len);
	if (!f)
		return NULL;
	opt_help(c, f);
	fclose(f);
	return mem;
}

static void test_forms(void)
{
	struct args a;
	char *argv[16];
	int n;

	n = parse(&cmd, &a, argv,
		  (const char *const[]){"test", "--db=x.db", NULL});
	is_int(n, 0, "--a=b: no positional");
	is_str(a.db, "x.db", "--a=b sets the value");

	n = parse(
	    &cmd, &a, argv,
	    (const char *const[]){"test", "--db", "y.db", "p.yaml", NULL});
	is_int(n, 1, "--a b: one positional");
	is_str(a.db, "y.db", "--a b takes the next word");
	is_str(argv[1], "p.yaml", "the positional moves to argv[1]");
	ok(argv[2] == NULL, "argv ends after the positionals");

	n = parse(&cmd, &a, argv,
		  (const char *const[]){"test", "-q", "-o", "-", NULL});
	is_int(n, 0, "-x and -o VALUE");
	is_int(a.quiet, 1, "-q sets the flag");
	is_str(a.out, "-", "-o takes '-' as its value");

	n = parse(&cmd, &a, argv,
		  (const char *const[]){"test", "-qy", "-oout.md", NULL});
	is_int(n, 0, "bundled flags and -oVALUE");
	ok(a.quiet && a.yes, "-qy sets both flags");
	is_str(a.out, "out.md", "-oVALUE");

	n = parse(&cmd, &a, argv,
		  (const char *const[]){"test", "--quiet", "--", "--db", NULL});
	is_int(n, 1, "--: what follows is positional");
	is_str(argv[1], "--db", "--db after -- is a plan name");
	ok(a.db == NULL && a.quiet, "-- stops option parsing only after it");

	n = parse(&cmd, &a, argv, (const char *const[]){"test", "-", NULL});
	is_int(n, 1, "a lone - is positional (stdin)");

	n = parse(&cmd, &a, argv,
		  (const char *const[]){"test", "--count", "42", "--twice=1.5",
					NULL});
	is_int(n, 0, "int and callback options");
	is_int(a.n, 42, "--count 42");
	ok(a.twice == 3.0, "the callback converts --twice=1.5 to 3");
}

static void test_errors(void)
{
	struct args a;
	char *argv[16];
	int n;

	fprintf(stderr, "# the usage errors below are expected:\n");
	n = parse(&cmd, &a, argv,
		  (const char *const[]){"test", "--dbb", "x", NULL});
	is_int(n, OPT_USAGE, "unknown option: usage error");
	is_int(opt_exit(n), 2, "a usage error exits 2");
	n = parse(&cmd, &a, argv, (const char *const[]){"test", "-z", NULL});
	is_int(n, OPT_USAGE, "unknown short option");
	n = parse(&cmd, &a, argv, (const char *const[]){"test", "--db", NULL});
	is_int(n, OPT_USAGE, "missing value");
	n = parse(&cmd, &a, argv, (const char *const[]){"test", "-o", NULL});
	is_int(n, OPT_USAGE, "missing value of a short option");
	n = parse(&cmd, &a, argv,
		  (const char *const[]){"test", "--quiet=1", NULL});
	is_int(n, OPT_USAGE, "a flag takes no value");
	n = parse(&cmd, &a, argv,
		  (const char *const[]){"test", "--count", "4x", NULL});
	is_int(n, OPT_USAGE, "an int option refuses '4x'");
	n = parse(&cmd, &a, argv,
		  (const char *const[]){"test", "--twice", "no", NULL});
	is_int(n, OPT_USAGE, "a callback's refusal is a usage error");
	n = parse(&cmd, &a, argv,
		  (const char *const[]){"test", "a.yaml", "b.yaml", NULL});
	is_int(n, OPT_USAGE, "one PLAN at most");
	n = parse(&cmd_many, &a, argv, (const char *const[]){"many", NULL});
	is_int(n, OPT_USAGE, "PLAN... needs one");
	n = parse(&cmd_many, &a, argv,
		  (const char *const[]){"many", "a", "b", "c", NULL});
	is_int(n, 3, "PLAN... takes three");
	ok(opt_closest("dbb", (const char *const[]){"db", "output"}, 2) &&
	       !strcmp(
		   opt_closest("dbb", (const char *const[]){"db", "output"}, 2),
		   "db"),
	   "did you mean: --dbb is closest to --db");
	ok(opt_closest("zzzzzz", (const char *const[]){"db", "output"}, 2) ==
	       NULL,
	   "no suggestion for a far word");
}

static void test_list(void)
{
	struct args a;
	char *argv[16];
	int n = parse(&cmd, &a, argv,
		      (const char *const[]){"test", "--only", "a=1", "p.yaml",
					    "--only=b=2", NULL});
	is_int(n, 1, "repeatable: one positional");
	is_int(a.only.n, 2, "repeatable: both values kept");
	if (a.only.n == 2) {
		is_str(a.only.v[0], "a=1", "first value");
		is_str(a.only.v[1], "b=2", "second value (--only=b=2)");
	}
	opt_release(&cmd, &a);
	ok(a.only.v == NULL && a.only.n == 0, "opt_release frees the list");
}

static void test_help(void)
{
	struct args a;
	char *argv[16];
	char *h = help_text(&cmd);
	int n;
	ok(h && strstr(h, "usage: xrun test [PLAN] [--db FILE] -o FILE"),
	   "synopsis from the table (required -o unbracketed)");
	ok(h && strstr(h, "[--only F=L]..."), "a repeatable option shows ...");
	ok(h && strstr(h, "  -o, --output FILE     the output\n"),
	   "an option row: short, long, value and help");
	ok(h && strstr(h, "  -h, --help"), "--help is listed");
	free(h);
	fprintf(stderr, "# a help text follows on stdout:\n");
	n = parse(&cmd, &a, argv, (const char *const[]){"test", "-h", NULL});
	is_int(n, OPT_HELP, "-h: help");
	is_int(opt_exit(n), 0, "help exits 0");
	n = parse(&cmd, &a, argv,
		  (const char *const[]){"test", "--help", "--nope", NULL});
	is_int(n, OPT_HELP, "--help wins over a later unknown option");
}

/* Every command of the table: a summary, a help line per option, no name
 * twice, and the lookups a man page or completion generator would use. */
static void test_table(void)
{
	size_t n, i;
	const struct opt_cmd *const *cmds = cli_commands(&n);
	const struct opt_def *o, *p;
	ok(n >= 8, "the command table lists the commands");
	for (i = 0; i < n; i++) {
		const struct opt_cmd *c = cmds[i];
		int good = c->summary && c->fn;
		for (o = c->opts; o && o->kind != OPT_END; o++) {
			good &= o->help && (o->name || o->short_name);
			for (p = o + 1; p->kind != OPT_END; p++)
				good &= !(o->name && p->name &&
					  !strcmp(o->name, p->name)) &&
					!(o->short_name &&
					  o->short_name == p->short_name);
		}
		ok(good, "command '%s': summary, helps, unique names", c->name);
		ok(cli_command(c->name) == c, "cli_command finds '%s'",
		   c->name);
		ok(cli_command_options(c->name) != NULL,
		   "cli_command_options('%s')", c->name);
	}
	ok(cli_command("lab up") && cli_command("lab up")->parent,
	   "'lab up' is a subcommand");
	ok(cli_command_options("run") &&
	       !strcmp(cli_command_options("run")[0].name, "db"),
	   "run's first option is --db");
	ok(cli_command("nosuch") == NULL && cli_command("lab nosuch") == NULL,
	   "unknown commands are NULL");
}

int main(void)
{
	test_forms();
	test_errors();
	test_list();
	test_help();
	test_table();
	return tap_done();
}
