/*
 * `xrun lab up|down|status`: a rehearsal lab of two hosts made of network
 * namespaces (PREFIX-client, PREFIX-server) joined by one veth pair
 * addressed from 198.18.0.0/15 (RFC 2544's benchmarking range), with the
 * link shaped by tc on both ends according to a profile (the ip and tc
 * side: lab_net.c). Here: the profile table, the command line, and the
 * record in /run/xrun-lab/PREFIX.json of what `up` created, so that
 * `down` removes exactly that.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "cmd.h"
#include "xr_err.h"
#include "lab_net.h"
#include "proc.h"
#include "units.h"
#include "banned.h"

/* Link profiles. Rates are what the link carries on the wire; tbf's burst
 * covers a few 64 KiB GSO segments plus about 1 ms at the rate so that the
 * shaper's timer granularity does not eat throughput, and its queue limit
 * holds about 8 ms so that TCP sees a queue rather than drops at once. */
static const struct lab_profile profiles[] = {
    {"10gbe", LAB_NONE, 0, 0, "unshaped veth (as fast as the CPU)"},
    {"pcie3x1", LAB_TBF, 6.2e9, 0,
     "6.2 Gbit/s: a 10GbE NIC behind PCIe 3.0 x1 (tbf)"},
    {"2g5", LAB_TBF, 2.5e9, 0, "2.5 Gbit/s: 2.5GBASE-T (tbf)"},
    {"1g", LAB_TBF, 1e9, 0, "1 Gbit/s: 1000BASE-T (tbf)"},
    {"wan", LAB_NETEM, 1e9, 10, "1 Gbit/s with 20 ms RTT: a WAN link (netem)"},
};

static const struct lab_profile *profile_find(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

static const char *profile_name(size_t i)
{
	return i < sizeof profiles / sizeof profiles[0] ? profiles[i].name
							: NULL;
}

const struct opt_choices lab_profile_choices = {"lab profile", profile_name};

/* --bottleneck: where the queue is (lab_net.h, struct lab's router). */
static const char *const bottlenecks[] = {"ends", "router"};

static const char *bottleneck_name(size_t i)
{
	return i < 2 ? bottlenecks[i] : NULL;
}

static const struct opt_choices lab_bottleneck_choices = {"bottleneck",
							  bottleneck_name};

/* Whether the record says an up created this namespace. */
static int record_owns(json_t *rec, const char *ns)
{
	size_t k;
	json_t *v;
	json_array_foreach(json_object_get(rec, "namespaces"), k, v)
	{
		if (json_string_value(v) && !strcmp(json_string_value(v), ns))
			return 1;
	}
	return 0;
}

static int lab_write_record(struct lab *l, const struct lab_profile *pr,
			    const int created[3], int veth, json_t *old,
			    struct xr_err *err)
{
	json_t *o = json_object(), *ns = json_array(), *ifs = json_array();
	int i, rc = 0;
	/* Keep ownership from an earlier up: down must remove what any up
	 * of this lab created. */
	for (i = 0; i < 2; i++) {
		if (created[i] || record_owns(old, l->ns[i]))
			json_array_append_new(ns, json_string(l->ns[i]));
		json_array_append_new(ifs, json_string(l->ifname[i]));
	}
	if (l->router && (created[2] || record_owns(old, l->rns)))
		json_array_append_new(ns, json_string(l->rns));
	veth = veth || json_is_true(json_object_get(old, "veth_created"));
	json_object_set_new(o, "prefix", json_string(l->prefix));
	json_object_set_new(o, "profile", json_string(pr->name));
	if (pr->rate > 0)
		json_object_set_new(o, "rate", json_real(pr->rate));
	json_object_set_new(o, "namespaces", ns);
	json_object_set_new(o, "veth", ifs);
	json_object_set_new(o, "veth_created", json_boolean(veth));
	json_object_set_new(o, "bottleneck",
			    json_string(l->router ? "router" : "ends"));
	json_object_set_new(o, "updated", json_real(proc_now_wall()));
	mkdir(LAB_RUN_DIR, 0755);
	if (json_dump_file(o, l->record, JSON_INDENT(2)) < 0)
		rc = xr_err_set(err, XR_EIO, l->record, 0, 0,
				"cannot write the lab record '%s': %s",
				l->record, strerror(errno));
	json_decref(o);
	return rc;
}

static void lab_print_hosts(const struct lab *l)
{
	int i;
	printf("hosts:\n");
	for (i = 0; i < 2; i++)
		printf("  %s: {netns: %s, address: %s, iface: %s}\n",
		       lab_role[i], l->ns[i], l->addr[i], l->ifname[i]);
}

static int lab_up(struct lab *l, const struct lab_profile *pr,
		  struct xr_err *err)
{
	int created[3] = {0, 0, 0}, will[3], veth = 0, rc, i;
	json_t *old;
	/* One topology at a time: the direct pair and the router's pairs
	 * share the ends' names. */
	if (lab_ns_exists(l->ns[0]) &&
	    lab_link_exists(l->ns[0], l->ifname[0]) &&
	    lab_ns_exists(l->rns) != l->router)
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "lab '%s' is up %s a router: run 'xrun lab "
				  "down --prefix %s' first to change "
				  "--bottleneck",
				  l->prefix, l->router ? "without" : "with",
				  l->prefix);
	old = json_load_file(l->record, 0, NULL);
	/* Record the namespaces about to be made before making them: an up
	 * cut short (Ctrl-C, SIGKILL) is still undone by down. */
	for (i = 0; i < 3; i++)
		will[i] = !lab_ns_exists(i < 2 ? l->ns[i] : l->rns) &&
			  (i < 2 || l->router);
	rc = will[0] || will[1] || will[2] || !old
		 ? lab_write_record(l, pr, will, 1, old, err)
		 : 0;
	if (!rc)
		rc = lab_build(l, created, &veth, err);
	if (!rc)
		rc = lab_shape(l, pr, err);
	if (rc) {
		/* Undo only what this call created; an existing lab keeps
		 * its shape (tc replace failed before changing it). */
		struct buf e = BUF_INIT;
		for (i = 0; i < 3; i++)
			if (created[i])
				lab_down_ns(i < 2 ? l->ns[i] : l->rns, &e);
		if (veth && !created[0] && !created[1] && !created[2])
			lab_del_veth(l, &e);
		buf_release(&e);
		if (old)
			json_dump_file(old, l->record, JSON_INDENT(2));
		else
			unlink(l->record);
		json_decref(old);
		return rc;
	}
	rc = lab_write_record(l, pr, created, veth, old, err);
	for (i = 0; i < 2 && !rc; i++)
		if (!created[i] && !record_owns(old, l->ns[i]))
			printf(
			    "note: namespace '%s' existed before and was not "
			    "made by 'xrun lab up': 'down' leaves it in "
			    "place\n",
			    l->ns[i]);
	json_decref(old);
	if (rc)
		return rc;
	if (l->router)
		printf("lab '%s' is up through router namespace '%s' (the "
		       "queue is there, not at the sender)\n",
		       l->prefix, l->rns);
	if (pr->shape == LAB_TBF && !strcmp(pr->name, "rate"))
		printf("lab '%s' is up, shaped by tbf at %.6g Mbit/s\n",
		       l->prefix, pr->rate / 1e6);
	else
		printf("lab '%s' is up with profile '%s': %s\n", l->prefix,
		       pr->name, pr->about);
	printf("# paste into a plan:\n");
	lab_print_hosts(l);
	return 0;
}

static int lab_down(struct lab *l, struct xr_err *err)
{
	json_t *rec = json_load_file(l->record, 0, NULL), *v;
	struct buf e = BUF_INIT;
	size_t k;
	int rc = 0, i, n = 0;
	if (rec) {
		/* A pair made inside namespaces that were there before goes;
		 * those namespaces stay. */
		if (json_is_true(json_object_get(rec, "veth_created")) &&
		    !(record_owns(rec, l->ns[0]) ||
		      record_owns(rec, l->ns[1]))) {
			for (i = 0; i < 2; i++)
				if (lab_ns_exists(l->ns[i]) &&
				    lab_link_exists(l->ns[i], l->ifname[i]))
					n++;
			if (lab_del_veth(l, &e) < 0)
				rc = lab_cmd_fail(err, "ip link del", &e);
			for (i = 0; i < 2; i++)
				if (lab_ns_exists(l->ns[i]))
					printf("note: namespace '%s' was not "
					       "made by 'xrun lab up' and is "
					       "left in place\n",
					       l->ns[i]);
		}
		json_array_foreach(json_object_get(rec, "namespaces"), k, v)
		{
			const char *ns = json_string_value(v);
			if (!ns || strncmp(ns, l->prefix, strlen(l->prefix)))
				continue;
			if (lab_ns_exists(ns))
				n++;
			if (lab_down_ns(ns, &e) < 0 && !rc)
				rc = lab_cmd_fail(err, "ip netns del", &e);
		}
		if (!rc)
			unlink(l->record);
	} else {
		/* No record (never made by up, or /run was cleared): names
		 * alone do not make namespaces ours. */
		struct buf names = BUF_INIT, cmds = BUF_INIT;
		for (i = 0; i < 2; i++)
			if (lab_ns_exists(l->ns[i])) {
				buf_addf(&names, "%s'%s'", n++ ? ", " : "",
					 l->ns[i]);
				buf_addf(&cmds, "%sip netns del %s",
					 cmds.len ? "; " : "", l->ns[i]);
			}
		if (n)
			rc =
			    xr_err_set(err, XR_EENV, NULL, 0, 0,
				       "no record of 'xrun lab up --prefix %s' "
				       "(%s): namespaces %s left alone; if "
				       "they are the lab's, remove them by "
				       "hand: %s",
				       l->prefix, l->record, names.s, cmds.s);
		buf_release(&names);
		buf_release(&cmds);
	}
	json_decref(rec);
	buf_release(&e);
	if (!rc)
		printf(n ? "lab '%s' is down\n" : "lab '%s' was not up\n",
		       l->prefix);
	return rc;
}

static int lab_status(struct lab *l)
{
	json_t *rec = json_load_file(l->record, 0, NULL);
	const char *profile =
	    json_string_value(json_object_get(rec, "profile"));
	int i, up = 0;
	for (i = 0; i < 2; i++)
		up += lab_ns_exists(l->ns[i]);
	if (!up) {
		printf("lab '%s' is not up\n", l->prefix);
		json_decref(rec);
		return 0;
	}
	printf("lab '%s': %s, profile '%s'", l->prefix,
	       up == 2 ? "up" : "partly up (run 'xrun lab up' again)",
	       profile ? profile : "unknown");
	if (json_is_number(json_object_get(rec, "rate")))
		printf(" (%.6g Mbit/s)",
		       json_number_value(json_object_get(rec, "rate")) / 1e6);
	printf("\n");
	for (i = 0; i < 2; i++) {
		const char *addr[] = {"ip",   "-n",   l->ns[i], "-br",
				      "addr", "show", NULL};
		const char *qd[] = {"tc",   "-n",  l->ns[i],	 "qdisc",
				    "show", "dev", l->ifname[i], NULL};
		printf("%s: netns %s%s\n", lab_role[i], l->ns[i],
		       lab_ns_exists(l->ns[i]) ? "" : " (missing)");
		if (!lab_ns_exists(l->ns[i]))
			continue;
		lab_show(addr, "  addr  ");
		lab_show(qd, "  "); /* tc starts its lines with "qdisc" */
		lab_show_shaping(l, i);
	}
	if (lab_ns_exists(l->rns)) {
		const char *qd[] = {"tc", "-n", l->rns, "qdisc", "show", NULL};
		printf("router: netns %s (the shaping is on its egresses)\n",
		       l->rns);
		lab_show(qd, "  ");
	}
	if (up == 2)
		lab_print_hosts(l);
	json_decref(rec);
	return 0;
}

/* ---- the command line ------------------------------------------------- */

struct lab_args {
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
static int lab_profile_of(const struct lab_args *a, struct lab_profile *pr,
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
		named = profile_find(a->profile ? a->profile : "10gbe");
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

#define LA(field) offsetof(struct lab_args, field)
#define LAB_PREFIX_OPT                                                         \
	{                                                                      \
		"prefix", 0, "P",                                              \
		    "the lab's name: namespaces P-client and P-server "        \
		    "(default xr)",                                            \
		    OPT_STRING, LA(prefix), NULL, 0                            \
	}
static const struct opt_def lab_up_options[] = {
    {"profile", 0, NULL, "the link's profile (default 10gbe; listed below)",
     OPT_CHOICE, LA(profile), NULL, 0, &lab_profile_choices},
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
     OPT_CHOICE, LA(bottleneck), NULL, 0, &lab_bottleneck_choices},
    LAB_PREFIX_OPT,
    {0},
};
static const struct opt_def lab_prefix_options[] = {LAB_PREFIX_OPT, {0}};
#undef LA

static void profiles_help(FILE *f)
{
	size_t i;
	fprintf(f, "profiles:\n");
	for (i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
		fprintf(f, "  %-8s %s\n", profiles[i].name, profiles[i].about);
}

static const struct opt_cmd lab_subs[4];
static int lab_finish(int rc, struct xr_err *err);

/*
 * What every action needs: its options, then the prefix (checked before
 * anything is looked at or created, so a bad one is a usage error even
 * without root), root and ip. Returns an exit status, or LAB_GO when the
 * action may run. opt_parse's outcomes are turned into their exit status
 * here and never travel beside the error codes of err.
 */
#define LAB_GO (-1)
static int lab_start(const struct opt_cmd *c, int argc, char **argv,
		     struct lab_args *a, struct lab *l, struct xr_err *err)
{
	int n = opt_parse(c, argc, argv, a);
	int rc;
	if (opt_is_outcome(n))
		return opt_exit(n);
	if (!a->prefix)
		a->prefix = "xr";
	rc = lab_init(l, a->prefix, err);
	if (!rc && geteuid() != 0)
		rc = xr_err_set(err, XR_EENV, NULL, 0, 0,
				"'xrun lab %s' needs root (it creates network "
				"namespaces and tc qdiscs): run it as root or "
				"with sudo",
				c->name);
	if (!rc && !proc_which("ip"))
		rc = xr_err_set(err, XR_EENV, NULL, 0, 0,
				"'ip' not found in PATH (install iproute2)");
	return rc < 0 ? lab_finish(rc, err) : LAB_GO;
}

/* The exit status of an action's result: 0, or err's code's. */
static int lab_finish(int rc, struct xr_err *err)
{
	if (rc < 0) {
		xr_err_print(err, "xrun lab");
		return xr_code_exit(-rc);
	}
	return 0;
}

static int cmd_lab_up(int argc, char **argv)
{
	struct lab_args a = {0};
	struct xr_err err = {0};
	struct lab l;
	struct lab_profile pr;
	int rc = lab_start(&lab_subs[0], argc, argv, &a, &l, &err);
	if (rc != LAB_GO)
		return rc;
	rc = lab_profile_of(&a, &pr, &err);
	l.router = a.bottleneck && !strcmp(a.bottleneck, "router");
	if (!rc)
		rc = lab_up(&l, &pr, &err);
	return lab_finish(rc, &err);
}

static int cmd_lab_down(int argc, char **argv)
{
	struct lab_args a = {0};
	struct xr_err err = {0};
	struct lab l;
	int rc = lab_start(&lab_subs[1], argc, argv, &a, &l, &err);
	if (rc != LAB_GO)
		return rc;
	return lab_finish(lab_down(&l, &err), &err);
}

static int cmd_lab_status(int argc, char **argv)
{
	struct lab_args a = {0};
	struct xr_err err = {0};
	struct lab l;
	int rc = lab_start(&lab_subs[2], argc, argv, &a, &l, &err);
	if (rc != LAB_GO)
		return rc;
	return lab_finish(lab_status(&l), &err);
}

static const struct opt_cmd lab_subs[] = {
    {.name = "up",
     .summary = "create the two namespaces and the shaped veth link between "
		"them, and print the hosts to paste into a plan",
     .opts = lab_up_options,
     .fn = cmd_lab_up,
     .parent = "lab",
     .extra_help = profiles_help},
    {.name = "down",
     .summary = "remove what 'lab up' created (and nothing else)",
     .opts = lab_prefix_options,
     .fn = cmd_lab_down,
     .parent = "lab"},
    {.name = "status",
     .summary = "show the lab: namespaces, addresses, link and shaping",
     .opts = lab_prefix_options,
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
    .subs = lab_subs,
};
