/*
 * The built-in {{placeholders}}: one row each, and every consumer (the
 * loader's checks, reserved var and factor names, the run context that
 * gives them values, `xrun plan`'s per-run test, schema/plan.md and its
 * test) derives from PLACEHOLDER_MAP. Adding a built-in: one row here,
 * its value in cellctx_lookup() (runner/exec/cellctx.c), one row in
 * schema/plan.md's table.
 *
 * Columns:
 *   id     PH_<id>, the enum value
 *   name   what {{name}} says
 *   set    who gives the value: PH_BY_PLAN (derived from the plan; a var
 *          of the same name takes precedence), PH_PER_RUN (xrun sets it
 *          for each run; a var may not take the name), PH_BY_RESTORE
 *          (the value a restore puts back; reserved too)
 *   sites  where it has a value: PH_SITE_* bits
 *   off    why it has none outside its sites (NULL when PH_SITES_ALL)
 *   unset  hint when it has no value at run time, or ""
 *   meaning  one line for the docs (schema/plan.md's table)
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_PLACEHOLDER_H
#define XR_PLACEHOLDER_H

/* Where a template sits. */
enum placeholder_site {
	PH_SITE_OTHER = 1 << 0,	  /* apply, verify, on_finish, engine, ... */
	PH_SITE_RESTORE = 1 << 1, /* a factor's restore argv */
	PH_SITE_MANUAL = 1 << 2,  /* a factor's manual instruction */
};
#define PH_SITES_ALL (PH_SITE_OTHER | PH_SITE_RESTORE | PH_SITE_MANUAL)

enum placeholder_set { PH_BY_PLAN, PH_PER_RUN, PH_BY_RESTORE };

#define PH_NOT_MANUAL_WHY                                                      \
	"a manual instruction is given once per block, not per run (use "      \
	"{{block}} or a factor)"

/* X(id, name, set, sites, off, unset, meaning) */
#define PLACEHOLDER_MAP(X)                                                     \
	X(REP, "rep", PH_PER_RUN, PH_SITE_OTHER | PH_SITE_RESTORE,             \
	  PH_NOT_MANUAL_WHY, "", "repetition, from 1")                         \
	X(INDEX, "index", PH_PER_RUN, PH_SITE_OTHER | PH_SITE_RESTORE,         \
	  PH_NOT_MANUAL_WHY, "", "run index in execution order, from 0")       \
	X(BLOCK, "block", PH_PER_RUN, PH_SITES_ALL, NULL, "",                  \
	  "manual block index")                                                \
	X(PLAN, "plan", PH_BY_PLAN, PH_SITES_ALL, NULL, "", "the plan name")   \
	X(SESSION, "session", PH_PER_RUN, PH_SITES_ALL, NULL, "",              \
	  "session id")                                                        \
	X(CLIENT, "client", PH_BY_PLAN, PH_SITES_ALL, NULL, "",                \
	  "the address of the engine's client host")                           \
	X(SERVER, "server", PH_BY_PLAN, PH_SITES_ALL, NULL, "",                \
	  "the address of the engine's server host")                           \
	X(TARGET, "target", PH_BY_PLAN, PH_SITES_ALL, NULL,                    \
	  " (engine.target may not name itself)",                              \
	  "the address the engine connects to")                                \
	X(ORIGINAL, "original", PH_BY_RESTORE, PH_SITE_RESTORE,                \
	  "only a 'restore' command knows the value found before the first "   \
	  "change",                                                            \
	  " (only restore hooks know the original value)",                     \
	  "the value found before the first change")                           \
	X(IFACE, "iface", PH_BY_PLAN, PH_SITES_ALL, NULL,                      \
	  " (set iface: on the client host)",                                  \
	  "the client host's iface (in apply, verify and restore: that "       \
	  "host's)")

enum placeholder_id {
#define PH_ENUM(id, name, set, sites, off, unset, meaning) PH_##id,
	PLACEHOLDER_MAP(PH_ENUM)
#undef PH_ENUM
	    PH_COUNT
};

struct placeholder {
	const char *name;
	enum placeholder_set set;
	unsigned sites;	     /* PH_SITE_* bits */
	const char *off;     /* why no value outside sites, or NULL */
	const char *unset;   /* run-time hint, or "" */
	const char *meaning; /* for the docs */
};

/* The table, indexed by enum placeholder_id. */
extern const struct placeholder placeholders[PH_COUNT];

/* The built-in's id, or PLAN_NOT_FOUND (-1) when name names none. */
int placeholder_find(const char *name);

/* Does a template of name vary from run to run (rep, index, ...)? */
int placeholder_per_run(const char *name);

#endif
