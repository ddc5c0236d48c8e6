/*
 * `xrun merge OUT.db IN.db...`: the sessions of several stores (halves of
 * a matrix measured on different machines, sessions run elsewhere) copied
 * into one, which report, status and the reference comparison then read
 * like any store. The copying is the store's (store_merge.c); this is the
 * command line around it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

#include "cmd.h"
#include "store.h"
#include "banned.h"

struct merge_args {
	int force;
	int partial;
	int quiet;
};

#define MA(f) offsetof(struct merge_args, f)

static const struct opt_def merge_options[] = {
    {"force", 'f', NULL,
     "merge sessions of another plan (another name or matrix) too", OPT_FLAG,
     MA(force), NULL, 0},
    {"partial", 0, NULL,
     "exit 0 when shards are missing (they are named either way)", OPT_FLAG,
     MA(partial), NULL, 0},
    {"quiet", 'q', NULL, "print nothing when it worked", OPT_FLAG, MA(quiet),
     NULL, 0},
    {0},
};

static int cmd_merge(int argc, char **argv)
{
	struct merge_args a = {0};
	struct store_merge_stats stats;
	struct store *st = NULL;
	struct xr_err err = {0};
	int n = opt_parse(&cmd_merge_spec, argc, argv, &a), r;
	if (n < 0)
		return opt_exit(n);
	if (store_open(argv[1], STORE_CREATE | STORE_LOCK, &st, &err) < 0) {
		xr_err_print(&err, "xrun");
		return xr_code_exit(err.code);
	}
	r = store_merge(st, (const char *const *)argv + 2, (size_t)n - 1,
			a.force, &stats, &err);
	store_close(st);
	for (size_t i = 0; i < stats.warnings.n; i++)
		fprintf(stderr, "xrun: warning: %s\n", stats.warnings.v[i]);
	strv_release(&stats.warnings);
	/* A shard missing is a night not whole: said whatever happens, an
	 * error unless --partial (a CI merge job must not pass on a gap). */
	for (size_t i = 0; i < stats.shard_missing.n; i++)
		fprintf(stderr, "xrun: %s: %s\n",
			a.partial ? "warning" : "error",
			stats.shard_missing.v[i]);
	strv_release(&stats.shard_missing);
	if (r < 0) {
		xr_err_print(&err, "xrun");
		if (stats.sessions_added)
			fprintf(stderr,
				"xrun: %lld session(s) of the inputs before "
				"it were merged into %s\n",
				(long long)stats.sessions_added, argv[1]);
		return xr_code_exit(err.code);
	}
	if (!a.quiet) {
		printf("merged %lld session(s) (%lld runs) into %s; %lld "
		       "already there",
		       (long long)stats.sessions_added,
		       (long long)stats.runs_added, argv[1],
		       (long long)stats.sessions_skipped);
		if (stats.sessions_running || stats.sessions_planless)
			printf("; skipped %lld still running, %lld with no "
			       "plan",
			       (long long)stats.sessions_running,
			       (long long)stats.sessions_planless);
		putchar('\n');
	}
	return stats.shard_gaps && !a.partial ? 1 : 0;
}

const struct opt_cmd cmd_merge_spec = {
    .name = "merge",
    .args = "OUT.db IN.db...",
    .summary = "copy the sessions of other stores (other machines, other "
	       "sessions) into one store",
    .about = "OUT.db is created when missing. Every session keeps its "
	     "runs, results and host facts; a session OUT.db already has "
	     "is skipped, so merging the same store again adds nothing. "
	     "Stores of another plan are refused unless --force. report, "
	     "status and --reference then read OUT.db like any store. "
	     "Stores of `xrun run --shard K/N` are checked: a shard twice, "
	     "shards of another N or beside a whole session of the plan "
	     "are refused; missing shards (and shards with runs not done) "
	     "are named, and exit 1 unless --partial (docs/shards.md).",
    .opts = merge_options,
    .min_args = 2,
    .max_args = -1,
    .fn = cmd_merge,
};
