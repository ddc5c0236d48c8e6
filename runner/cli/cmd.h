/*
 * Subcommands, dispatched from one table in main.c. Each returns the
 * process exit status (docs: README "Exit codes"): 0 ok, 1 some runs
 * failed, 2 bad plan or usage, 3 environment, 130 interrupted.
 * argv[0] is the subcommand name.
 */
#ifndef XR_CMD_H
#define XR_CMD_H

int cmd_validate(int argc, char **argv); /* cmd_validate.c */
int cmd_plan(int argc, char **argv);	 /* cmd_plan.c */
int cmd_run(int argc, char **argv);	 /* cmd_run.c */
int cmd_status(int argc, char **argv);	 /* cmd_status.c */
int cmd_report(int argc, char **argv);	 /* cmd_report.c */
int cmd_lab(int argc, char **argv);	 /* lab.c */

/* The plan compiled into the binary (plans/loopback.yaml). */
extern const char xr_embedded_plan[];
extern const char xr_embedded_plan_name[];
/* The store `xrun run` with no plan writes: "./<embedded name>.db".
 * OUT: appended to out (a struct buf). 0, or -1 if the plan is bad. */
struct buf;
int cmd_embedded_db(struct buf *out);

#endif
