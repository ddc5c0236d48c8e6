/*
 * `xrun lab up|down|status`: the command line of the rehearsal lab, whose
 * provisioning (namespaces, veth, tc, the record of what `up` created) is
 * runner/lab (lab.h). Here: the options (a --rate made into a profile),
 * the calls, and what they print.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "buf.h"
#include "cmd.h"
#include "lab.h"
#include "units.h"
#include "xr_err.h"
#include "banned.h"

/* --bottleneck: where the queue is (lab.h, lab_set_router). */
static const char *const bottlenecks[] = {"ends", "router"};

static const char *bottleneck_name(size_t i)
{
	return i < 2 ? bottlenecks[i] : NULL;
}

static const struct opt_choices bottleneck_choices = {"bottleneck",
						      bottleneck_name};

/* ---- what the actions print --------------------------------------------- */

static void print_hosts(const struct lab *l)
{
	int i;
	printf("hosts:\n");
	for (i = 0; i < 2; i++)
		printf("  %s: {netns: %s, address: %s, iface: %s}\n",
		       lab_role[i], lab_ns(l, i), lab_addr(l, i),
		       lab_ifname(l, i));
}

static int do_up(struct lab *l, const struct lab_profile *pr,
		 struct xr_err *err)
{
	int foreign[2], i;
	int rc = lab_up(l, pr, foreign, err);
	if (rc)
		return rc;
	for (i = 0; i < 2; i++)
		if (foreign[i])
			printf(
			    "note: namespace '%s' existed before and was not "
			    "made by 'xrun lab up': 'down' leaves it in "
			    "place\n",
			    lab_ns(l, i));
	if (lab_has_router(l))
		printf("lab '%s' is up through router namespace '%s' (the "
		       "queue is there, not at the sender)\n",
		       lab_prefix(l), lab_router_ns(l));
	if (pr->shape == LAB_TBF && !strcmp(pr->name, "rate"))
		printf("lab '%s' is up, shaped by tbf at %.6g Mbit/s\n",
		       lab_prefix(l), pr->rate / 1e6);
	else
		printf("lab '%s' is up with profile '%s': %s\n", lab_prefix(l),
		       pr->name, pr->about);
	printf("# paste into a plan:\n");
	print_hosts(l);
	return 0;
}

static int do_down(struct lab *l, struct xr_err *err)
{
	int found, kept[2], i;
	int rc = lab_down(l, &found, kept, err);
	for (i = 0; i < 2; i++)
		if (kept[i])
			printf("note: namespace '%s' was not made by 'xrun "
			       "lab up' and is left in place\n",
			       lab_ns(l, i));
	if (!rc)
		printf(found ? "lab '%s' is down\n" : "lab '%s' was not up\n",
		       lab_prefix(l));
	return rc;
}

/* Each line of text after indent. */
static void print_lines(const struct buf *text, const char *indent)
{
	const char *p, *nl;
	for (p = text->s; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		if (nl > p)
			printf("%s%.*s\n", indent, (int)(nl - p), p);
		if (!*nl)
			break;
	}
}

/* "  shaping: tbf 1000 Mbit/s, burst 387375 B, queue 4.9 ms". */
static void print_shaping(const struct lab *l, int i)
{
	struct lab_qdisc q[8];
	size_t n = lab_read_shaping(l, i, q, 8), k;
	for (k = 0; k < n; k++) {
		printf("  shaping: %s", q[k].kind);
		if (q[k].has_rate)
			printf(" %.6g Mbit/s", q[k].rate_bps / 1e6);
		if (q[k].has_burst)
			printf(", burst %.0f B", q[k].burst);
		if (q[k].has_lat)
			printf(", queue %.3g ms", q[k].lat_ms);
		if (q[k].has_delay)
			printf(", delay");
		printf("\n");
	}
	if (!n)
		printf("  shaping: none (unshaped veth)\n");
}

static void print_end(const struct lab *l, const struct lab_state *st, int i)
{
	struct buf t = BUF_INIT;
	printf("%s: netns %s%s\n", lab_role[i], lab_ns(l, i),
	       st->ns_up[i] ? "" : " (missing)");
	if (!st->ns_up[i])
		return;
	lab_read_addr(l, i, &t);
	print_lines(&t, "  addr  ");
	buf_reset(&t);
	lab_read_qdisc(l, i, &t);
	print_lines(&t, "  "); /* tc starts its lines with "qdisc" */
	buf_release(&t);
	print_shaping(l, i);
}

static int show_status(struct lab *l)
{
	struct lab_state st;
	int i, up;
	lab_state_read(l, &st);
	up = st.ns_up[0] + st.ns_up[1];
	if (!up) {
		printf("lab '%s' is not up\n", lab_prefix(l));
		return 0;
	}
	printf("lab '%s': %s, profile '%s'", lab_prefix(l),
	       up == 2 ? "up" : "partly up (run 'xrun lab up' again)",
	       st.profile[0] ? st.profile : "unknown");
	if (st.has_rate)
		printf(" (%.6g Mbit/s)", st.rate / 1e6);
	printf("\n");
	for (i = 0; i < 2; i++)
		print_end(l, &st, i);
	if (st.router_up) {
		struct buf t = BUF_INIT;
		printf("router: netns %s (the shaping is on its egresses)\n",
		       lab_router_ns(l));
		lab_read_router_qdisc(l, &t);
		print_lines(&t, "  ");
		buf_release(&t);
	}
	if (up == 2)
		print_hosts(l);
	return 0;
}

/* ---- the command line ------------------------------------------------- */

struct labcmd_args {
	const char *profile, *prefix;
	const char *rate, *burst, *latency, *bottleneck;
};

/* tc's rate words and the bit/s they stand for. tc's "mbps" means
 * megabytes per second where most people read megabits: refused below. */
static const struct {
	const char *suffix;
	double factor;
} rate_units[] = {
    {"bit", 1},	     {"kbit", 1e3}, {"mbit", 1e6},   {"gbit", 1e9},
    {"tbit", 1e12},  {"bit/s", 1},  {"kbit/s", 1e3}, {"mbit/s", 1e6},
    {"gbit/s", 1e9}, {"k", 1e3},    {"m", 1e6},	     {"g", 1e9},
};

static int parse_rate(const char *s, double *bps, struct xr_err *err)
{
	char *end;
	size_t i;
	double v = strtod(s, &end);
	if (end != s && v > 0)
		for (i = 0; i < sizeof rate_units / sizeof rate_units[0]; i++)
			if (!strcasecmp(end, rate_units[i].suffix)) {
				*bps = v * rate_units[i].factor;
				if (*bps >= 8e3)
					return 0;
			}
	return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
			  "invalid --rate '%s' (a rate in bits per second "
			  "of at least 8kbit, as tc writes it: 1000mbit, "
			  "1gbit, 2.5gbit, 500kbit)",
			  s);
}

/* The profile --rate [--burst] [--latency] describe, or the one named. */
static int profile_of_args(const struct labcmd_args *a, struct lab_profile *pr,
			   struct xr_err *err)
{
	const struct lab_profile *named;
	const char *why = NULL;
	int r;
	if (!a->rate) {
		if (a->burst || a->latency)
			return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
					  "--burst and --latency shape a "
					  "--rate: give one");
		/* opt_parse checked --profile against the table. */
		named = lab_profile_find(a->profile ? a->profile : "10gbe");
		if (!named)
			return xr_err_set(err, XR_EINTERNAL, NULL, 0, 0,
					  "no lab profile '%s'", a->profile);
		*pr = *named;
		return 0;
	}
	if (a->profile)
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "--rate sets the shaping itself: give "
				  "--profile or --rate, not both");
	memset(pr, 0, sizeof *pr);
	pr->name = "rate";
	pr->shape = LAB_TBF;
	pr->about = "tbf at the given rate";
	if ((r = parse_rate(a->rate, &pr->rate, err)) < 0)
		return r;
	if (a->burst) {
		/* tc's "b" suffix (bytes) is accepted and dropped. */
		struct buf t = BUF_INIT;
		buf_adds(&t, a->burst);
		if (t.len > 1 &&
		    (t.s[t.len - 1] == 'b' || t.s[t.len - 1] == 'B'))
			t.s[--t.len] = '\0';
		r = units_parse(t.s, UNITS_COUNT, &pr->burst, &why);
		buf_release(&t);
		if (r < 0 || pr->burst < 1600)
			return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
					  "invalid --burst '%s' (bytes, at "
					  "least one full frame: 1600, 64K, "
					  "387500b)",
					  a->burst);
	}
	if (a->latency) {
		double sec;
		if (units_parse(a->latency, UNITS_DURATION, &sec, &why) < 0 ||
		    sec <= 0)
			return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
					  "invalid --latency '%s' (a time: "
					  "50ms, 1s)",
					  a->latency);
		pr->latency_ms = sec * 1e3;
	}
	return 0;
}

#define LA(field) offsetof(struct labcmd_args, field)
#define PREFIX_OPT                                                             \
	{                                                                      \
		"prefix", 0, "P",                                              \
		    "the lab's name: namespaces P-client and P-server "        \
		    "(default xr)",                                            \
		    OPT_STRING, LA(prefix), NULL, 0                            \
	}
static const struct opt_def up_options[] = {
    {"profile", 0, NULL, "the link's profile (default 10gbe; listed below)",
     OPT_CHOICE, LA(profile), NULL, 0, &cli_lab_profile_choices},
    {"rate", 0, "RATE",
     "shape the link with tbf at RATE instead of a profile (1000mbit, "
     "2.5gbit)",
     OPT_STRING, LA(rate), NULL, 0},
    {"burst", 0, "BYTES",
     "with --rate: tbf's bucket (default 256 KiB plus 1 ms at the rate)",
     OPT_STRING, LA(burst), NULL, 0},
    {"latency", 0, "TIME",
     "with --rate: the longest a packet may wait in tbf's queue (default: "
     "a queue of 256 KiB plus 8 ms at the rate)",
     OPT_STRING, LA(latency), NULL, 0},
    {"bottleneck", 0, NULL,
     "where the shaping queue is: ends (each end's egress, the default) or "
     "router (a PREFIX-router namespace between the two: the real "
     "bottleneck for latency under load, docs/lab.md)",
     OPT_CHOICE, LA(bottleneck), NULL, 0, &bottleneck_choices},
    PREFIX_OPT,
    {0},
};
static const struct opt_def prefix_options[] = {PREFIX_OPT, {0}};
#undef LA

static void profiles_help(FILE *f)
{
	const struct lab_profile *pr;
	size_t i;
	fprintf(f, "profiles:\n");
	for (i = 0; (pr = lab_profile_at(i)); i++)
		fprintf(f, "  %-8s %s\n", pr->name, pr->about);
}

static const struct opt_cmd subs[4];
static int sub_finish(int rc, struct xr_err *err);

/*
 * What every action needs: its options, then the prefix (checked before
 * anything is looked at or created, so a bad one is a usage error even
 * without root), root and ip. Returns an exit status, or SUB_GO when the
 * action may run on *l (lab_free it). opt_parse's outcomes are turned into
 * their exit status here and never travel beside the error codes of err.
 */
#define SUB_GO (-1)
static int sub_start(const struct opt_cmd *c, int argc, char **argv,
		     struct labcmd_args *a, struct lab **l, struct xr_err *err)
{
	int n = opt_parse(c, argc, argv, a);
	int rc;
	if (opt_is_outcome(n))
		return opt_exit(n);
	if (!a->prefix)
		a->prefix = "xr";
	rc = lab_new(a->prefix, l, err);
	if (!rc)
		rc = lab_check_env(c->name, err);
	if (rc < 0) {
		lab_free(*l);
		*l = NULL;
		return sub_finish(rc, err);
	}
	return SUB_GO;
}

/* The exit status of an action's result: 0, or err's code's. */
static int sub_finish(int rc, struct xr_err *err)
{
	if (rc < 0) {
		xr_err_print(err, "xrun lab");
		return xr_code_exit(-rc);
	}
	return 0;
}

static int cmd_lab_up(int argc, char **argv)
{
	struct labcmd_args a = {0};
	struct xr_err err = {0};
	struct lab *l;
	struct lab_profile pr;
	int rc = sub_start(&subs[0], argc, argv, &a, &l, &err);
	if (rc != SUB_GO)
		return rc;
	rc = profile_of_args(&a, &pr, &err);
	lab_set_router(l, a.bottleneck && !strcmp(a.bottleneck, "router"));
	if (!rc)
		rc = do_up(l, &pr, &err);
	lab_free(l);
	return sub_finish(rc, &err);
}

static int cmd_lab_down(int argc, char **argv)
{
	struct labcmd_args a = {0};
	struct xr_err err = {0};
	struct lab *l;
	int rc = sub_start(&subs[1], argc, argv, &a, &l, &err);
	if (rc != SUB_GO)
		return rc;
	rc = do_down(l, &err);
	lab_free(l);
	return sub_finish(rc, &err);
}

static int cmd_lab_status(int argc, char **argv)
{
	struct labcmd_args a = {0};
	struct xr_err err = {0};
	struct lab *l;
	int rc = sub_start(&subs[2], argc, argv, &a, &l, &err);
	if (rc != SUB_GO)
		return rc;
	rc = show_status(l);
	lab_free(l);
	return sub_finish(rc, &err);
}

static const struct opt_cmd subs[] = {
    {.name = "up",
     .summary = "create the two namespaces and the shaped veth link between "
		"them, and print the hosts to paste into a plan",
     .opts = up_options,
     .fn = cmd_lab_up,
     .parent = "lab",
     .extra_help = profiles_help},
    {.name = "down",
     .summary = "remove what 'lab up' created (and nothing else)",
     .opts = prefix_options,
     .fn = cmd_lab_down,
     .parent = "lab"},
    {.name = "status",
     .summary = "show the lab: namespaces, addresses, link and shaping",
     .opts = prefix_options,
     .fn = cmd_lab_status,
     .parent = "lab"},
    {0},
};

static int cmd_lab(int argc, char **argv)
{
	return opt_dispatch(&cmd_lab_spec, argc, argv);
}

const struct opt_cmd cmd_lab_spec = {
    .name = "lab",
    .args = "up|down|status",
    .summary = "a rehearsal lab: two hosts as network namespaces with a "
	       "shaped veth link (root); docs/lab.md",
    .fn = cmd_lab,
    .subs = subs,
};
