/*
 * The rehearsal lab (lab.h): the profile table, the lab's handle, and the
 * record in /run/xrun-lab/PREFIX.json of what `up` created, so that
 * `down` removes exactly that; the ip and tc side is lab_net.c. Nothing
 * here parses a command line or prints (runner/cli/cmd_lab.c does).
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "lab.h"
#include "lab_net.h"
#include "proc.h"
#include "xr_err.h"
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

const struct lab_profile *lab_profile_at(size_t i)
{
	return i < sizeof profiles / sizeof profiles[0] ? &profiles[i] : NULL;
}

const char *lab_profile_name(size_t i)
{
	const struct lab_profile *pr = lab_profile_at(i);
	return pr ? pr->name : NULL;
}

const struct lab_profile *lab_profile_find(const char *name)
{
	size_t i;
	for (i = 0; i < sizeof profiles / sizeof profiles[0]; i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

/* ---- the handle --------------------------------------------------------- */

int lab_new(const char *prefix, struct lab **out, struct xr_err *err)
{
	struct lab l;
	int rc = lab_init(&l, prefix, err);
	*out = NULL;
	if (rc < 0)
		return rc;
	if (!(*out = malloc(sizeof **out)))
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0, "out of memory");
	**out = l;
	return 0;
}

void lab_free(struct lab *l)
{
	free(l);
}

void lab_set_router(struct lab *l, int router)
{
	l->router = router;
}

int lab_has_router(const struct lab *l)
{
	return l->router;
}

const char *lab_prefix(const struct lab *l)
{
	return l->prefix;
}

const char *lab_ns(const struct lab *l, int i)
{
	return l->ns[i];
}

const char *lab_ifname(const struct lab *l, int i)
{
	return l->ifname[i];
}

const char *lab_addr(const struct lab *l, int i)
{
	return l->addr[i];
}

const char *lab_router_ns(const struct lab *l)
{
	return l->rns;
}

int lab_check_env(const char *action, struct xr_err *err)
{
	if (geteuid() != 0)
		return xr_err_set(err, XR_EENV, NULL, 0, 0,
				  "'xrun lab %s' needs root (it creates "
				  "network namespaces and tc qdiscs): run it "
				  "as root or with sudo",
				  action);
	if (!proc_which("ip"))
		return xr_err_set(err, XR_EENV, NULL, 0, 0,
				  "'ip' not found in PATH (install iproute2)");
	return 0;
}

/* ---- the record --------------------------------------------------------- */

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

/* ---- up, down, status -----------------------------------------------------
 */

int lab_up(struct lab *l, const struct lab_profile *pr, int foreign[2],
	   struct xr_err *err)
{
	int created[3] = {0, 0, 0}, will[3], veth = 0, rc, i;
	json_t *old;
	foreign[0] = foreign[1] = 0;
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
		foreign[i] = !created[i] && !record_owns(old, l->ns[i]);
	json_decref(old);
	return rc;
}

/* No record (never made by up, or /run was cleared): names alone do not
 * make namespaces ours. */
static int down_unrecorded(struct lab *l, int *found, struct xr_err *err)
{
	struct buf names = BUF_INIT, cmds = BUF_INIT;
	int i, n = 0, rc = 0;
	for (i = 0; i < 2; i++)
		if (lab_ns_exists(l->ns[i])) {
			buf_addf(&names, "%s'%s'", n++ ? ", " : "", l->ns[i]);
			buf_addf(&cmds, "%sip netns del %s",
				 cmds.len ? "; " : "", l->ns[i]);
		}
	if (n)
		rc = xr_err_set(err, XR_EENV, NULL, 0, 0,
				"no record of 'xrun lab up --prefix %s' "
				"(%s): namespaces %s left alone; if they are "
				"the lab's, remove them by hand: %s",
				l->prefix, l->record, names.s, cmds.s);
	buf_release(&names);
	buf_release(&cmds);
	*found = n;
	return rc;
}

int lab_down(struct lab *l, int *found, int kept[2], struct xr_err *err)
{
	json_t *rec = json_load_file(l->record, 0, NULL), *v;
	struct buf e = BUF_INIT;
	size_t k;
	int rc = 0, i, n = 0;
	kept[0] = kept[1] = 0;
	if (!rec) {
		rc = down_unrecorded(l, found, err);
		buf_release(&e);
		return rc;
	}
	/* A pair made inside namespaces that were there before goes; those
	 * namespaces stay. */
	if (json_is_true(json_object_get(rec, "veth_created")) &&
	    !(record_owns(rec, l->ns[0]) || record_owns(rec, l->ns[1]))) {
		for (i = 0; i < 2; i++)
			if (lab_ns_exists(l->ns[i]) &&
			    lab_link_exists(l->ns[i], l->ifname[i]))
				n++;
		if (lab_del_veth(l, &e) < 0)
			rc = lab_cmd_fail(err, "ip link del", &e);
		for (i = 0; i < 2; i++)
			kept[i] = lab_ns_exists(l->ns[i]);
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
	json_decref(rec);
	buf_release(&e);
	*found = n;
	return rc;
}

void lab_state_read(const struct lab *l, struct lab_state *st)
{
	json_t *rec = json_load_file(l->record, 0, NULL);
	const char *profile =
	    json_string_value(json_object_get(rec, "profile"));
	json_t *rate = json_object_get(rec, "rate");
	int i;
	memset(st, 0, sizeof *st);
	for (i = 0; i < 2; i++)
		st->ns_up[i] = lab_ns_exists(l->ns[i]);
	st->router_up = lab_ns_exists(l->rns);
	snprintf(st->profile, sizeof st->profile, "%s", profile ? profile : "");
	if ((st->has_rate = json_is_number(rate)))
		st->rate = json_number_value(rate);
	json_decref(rec);
}
