/*
 * Subcommands, listed in one table (commands.c). Each is an opt_cmd row
 * (opt.h: its arguments, options and help) whose fn returns the process
 * exit status (docs: README "Exit codes"): 0 ok, 1 some runs failed, 2 bad
 * plan or usage, 3 environment, 130 interrupted. argv[0] is the
 * subcommand name.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_CMD_H
#define XR_CMD_H

#include <stdio.h>

#include "opt.h"

extern const struct opt_cmd cmd_validate_spec; /* cmd_validate.c */
extern const struct opt_cmd cmd_plan_spec;     /* cmd_plan.c */
extern const struct opt_cmd cmd_run_spec;      /* cmd_run.c */
extern const struct opt_cmd cmd_status_spec;   /* cmd_status.c */
extern const struct opt_cmd cmd_report_spec;   /* cmd_report.c */
extern const struct opt_cmd cmd_merge_spec;    /* cmd_merge.c */
extern const struct opt_cmd cmd_lab_spec;      /* cmd_lab.c */
extern const struct opt_cmd cmd_version_spec;  /* cmd_help.c */
extern const struct opt_cmd cmd_help_spec;     /* cmd_help.c */

/* Choice sources (OPT_CHOICE) from the tables (choices.c): output formats,
 * report languages, verdicts, adjustments, lab link profiles. */
extern const struct opt_choices cli_format_choices;
extern const struct opt_choices cli_verdict_choices;
extern const struct opt_choices cli_lang_choices;
extern const struct opt_choices cli_adjust_choices;
extern const struct opt_choices cli_lab_profile_choices;

/* `xrun --help`: every command of the table with its summary. */
void cli_print_commands(FILE *f);

/* xrun(1) in roff (manpage.c) and the bash completion script
 * (completion.c), both written from the command and option tables. */
void cli_print_man(FILE *f);
void cli_print_bash_completion(FILE *f);

/* The plan compiled into the binary (plans/loopback.yaml). */
extern const char xr_embedded_plan[];
extern const char xr_embedded_plan_name[];
/* The store `xrun run` with no plan writes: "./<embedded name>.db".
 * OUT: appended to out (a struct buf). 0, or -1 if the plan is bad. */
struct buf;
int cmd_embedded_db(struct buf *out);

/* cmd_plan_ref.c: `xrun plan --from-reference FILE [-o OUT]` (an exit
 * status), and a reference checked against a plan for `validate` and
 * `plan` (the number of errors, printed; < 0 when it cannot be read). */
struct plan;
int cmd_plan_from_reference(const char *path, const char *out);
int cmd_check_reference(const struct plan *p, const char *path);
/* `xrun validate REF.csv`: a reference read on its own (its format,
 * settings, columns and rows; problems as FILE:LINE:COL on stderr), "FILE:
 * ok, N cells, M factors" unless quiet. 0, or < 0 when it is not valid. */
int cmd_validate_reference(const char *path, int quiet);

/* status_eta.c: `xrun status`'s line "ETA HH:MM:SS for the N pending runs
 * (...)" of session ss, whose stored plan is p (NULL: no line); nothing
 * when no run is pending. */
struct store;
struct store_session;
void status_print_eta(struct store *st, const struct store_session *ss,
		      const struct plan *p);

#endif
