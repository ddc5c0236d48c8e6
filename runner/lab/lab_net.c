/*
 * The network side of the lab (lab_net.h): namespaces, the veth pair
 * addressed from 198.18.0.0/15 (RFC 2544's benchmarking range) and its tc
 * shaping, and what ip and tc say of them for `status`, everything
 * through proc as argv (ip, tc).
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "buf.h"
#include "xr_err.h"
#include "lab_net.h"
#include "proc.h"
#include "banned.h"

static const char *const lab_addrs[2] = {"198.18.0.1", "198.18.0.2"};
const char *const lab_role[2] = {"client", "server"};

int lab_init(struct lab *l, const char *prefix, struct xr_err *err)
{
	const char *p;
	int i, ok = *prefix && strlen(prefix) <= LAB_MAX_PREFIX;
	for (p = prefix; ok && *p; p++)
		ok = (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') ||
		     (*p == '-' && p != prefix);
	if (!ok)
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "invalid lab prefix '%s' (valid: 1 to %d "
				  "lowercase letters, digits or '-', not "
				  "starting with '-')",
				  prefix, LAB_MAX_PREFIX);
	memset(l, 0, sizeof *l);
	snprintf(l->prefix, sizeof l->prefix, "%s", prefix);
	for (i = 0; i < 2; i++) {
		snprintf(l->ns[i], sizeof l->ns[i], "%s-%s", prefix,
			 lab_role[i]);
		/* The same name at both ends (each in its own namespace):
		 * a hook written once as `ip link set dev {{iface}}` is
		 * right on either host. */
		snprintf(l->ifname[i], sizeof l->ifname[i], "%s-veth", prefix);
		l->addr[i] = lab_addrs[i];
	}
	snprintf(l->record, sizeof l->record, "%s/%s.json", LAB_RUN_DIR,
		 prefix);
	snprintf(l->rns, sizeof l->rns, "%s-router", prefix);
	snprintf(l->rif[0], sizeof l->rif[0], "%s-c", prefix);
	snprintf(l->rif[1], sizeof l->rif[1], "%s-s", prefix);
	return 0;
}

/* Run argv; 0 when it exited 0. stderr (trimmed) goes to errtext. */
int lab_run(const char *const *argv, struct buf *out, struct buf *errtext)
{
	struct proc_opts o = {0};
	struct proc_result r;
	struct xr_err e = {0};
	int rc;
	o.argv = argv;
	o.timeout = LAB_CMD_TIMEOUT;
	if ((rc = proc_run(&o, &r, &e)) < 0) {
		if (errtext)
			buf_adds(errtext, e.msg);
		return rc;
	}
	/* A command that ran and failed: the environment is not as needed. */
	rc = r.status == PROC_EXITED && r.exit_code == 0 ? 0 : -XR_EENV;
	if (out)
		buf_add(out, r.out, r.out_len);
	if (errtext) {
		size_t n = r.err_len;
		char d[256];
		while (n && (r.err[n - 1] == '\n' || r.err[n - 1] == ' '))
			n--;
		buf_reset(errtext);
		if (n)
			buf_add(errtext, r.err, n);
		else if (rc)
			buf_adds(errtext, proc_describe(&r, d, sizeof d));
	}
	proc_result_release(&r);
	return rc;
}

int lab_ns_exists(const char *ns)
{
	struct buf p = BUF_INIT;
	struct stat st;
	int ok;
	buf_addf(&p, "/var/run/netns/%s", ns);
	ok = stat(p.s, &st) == 0;
	buf_release(&p);
	return ok;
}

int lab_link_exists(const char *ns, const char *ifname)
{
	const char *argv[] = {"ip",   "-n",  ns,     "link",
			      "show", "dev", ifname, NULL};
	return lab_run(argv, NULL, NULL) == 0;
}

int lab_cmd_fail(struct xr_err *err, const char *what, struct buf *e)
{
	return xr_err_set(err, XR_EENV, NULL, 0, 0, "%s failed: %s", what,
			  e->len ? e->s : "(no message)");
}

/* Build the namespaces and the veth pair; idempotent. created[] says which
 * namespaces this call made, *veth whether it made the pair. */
/* The router's side: its two pairs, forwarding, proxy ARP (answered at
 * once: proxy_delay 0) and a /32 route to each end, so that the ends
 * keep their one /30 and every plan written for the lab still works. */
static int build_router(struct lab *l, int *veth, struct buf *e,
			struct xr_err *err)
{
	char fwd[64], pa[2][64], pd[2][64], a[32];
	int i;
	for (i = 0; i < 2; i++) {
		const char *pair[] = {
		    "ip",      "link",	"add",	l->ifname[i], "netns",
		    l->ns[i],  "type",	"veth", "peer",	      "name",
		    l->rif[i], "netns", l->rns, NULL};
		const char *up[] = {"ip",  "-n",      l->rns, "link", "set",
				    "dev", l->rif[i], "up",   NULL};
		const char *route[] = {"ip",	"-n",	   l->rns,
				       "route", "replace", a,
				       "dev",	l->rif[i], NULL};
		if (!lab_link_exists(l->ns[i], l->ifname[i])) {
			if (lab_run(pair, NULL, e) < 0)
				return lab_cmd_fail(
				    err, "creating the router's veth pair", e);
			*veth = 1;
		}
		snprintf(a, sizeof a, "%s/32", l->addr[i]);
		if (lab_run(up, NULL, e) < 0 || lab_run(route, NULL, e) < 0)
			return lab_cmd_fail(err, "configuring the router", e);
		snprintf(pa[i], sizeof pa[i], "net.ipv4.conf.%s.proxy_arp=1",
			 l->rif[i]);
		snprintf(pd[i], sizeof pd[i], "net.ipv4.neigh.%s.proxy_delay=0",
			 l->rif[i]);
	}
	snprintf(fwd, sizeof fwd, "net.ipv4.ip_forward=1");
	{
		const char *sys[] = {"ip",     "netns", "exec", l->rns,
				     "sysctl", "-qw",	fwd,	pa[0],
				     pa[1],    pd[0],	pd[1],	NULL};
		const char *lo[] = {"ip",  "-n", l->rns, "link", "set",
				    "dev", "lo", "up",	 NULL};
		if (lab_run(sys, NULL, e) < 0 || lab_run(lo, NULL, e) < 0)
			return lab_cmd_fail(err, "configuring the router", e);
	}
	return 0;
}

int lab_build(struct lab *l, int created[3], int *veth, struct xr_err *err)
{
	struct buf e = BUF_INIT;
	char a[32];
	int i, rc = 0;
	for (i = 0; i < 3 && !rc; i++) {
		const char *ns = i < 2 ? l->ns[i] : l->rns;
		const char *argv[] = {"ip", "netns", "add", ns, NULL};
		created[i] = 0;
		if ((i == 2 && !l->router) || lab_ns_exists(ns))
			continue;
		if (lab_run(argv, NULL, &e) < 0)
			rc = lab_cmd_fail(err, "ip netns add", &e);
		else
			created[i] = 1;
	}
	if (!rc && l->router)
		rc = build_router(l, veth, &e, err);
	else if (!rc && !lab_link_exists(l->ns[0], l->ifname[0])) {
		const char *argv[] = {
		    "ip",	  "link",  "add",    l->ifname[0], "netns",
		    l->ns[0],	  "type",  "veth",   "peer",	   "name",
		    l->ifname[1], "netns", l->ns[1], NULL};
		/* A half-built pair from an interrupted up: start over. */
		if (lab_link_exists(l->ns[1], l->ifname[1])) {
			const char *del[] = {"ip",  "-n",  l->ns[1],	 "link",
					     "del", "dev", l->ifname[1], NULL};
			lab_run(del, NULL, NULL);
		}
		if (lab_run(argv, NULL, &e) < 0)
			rc = lab_cmd_fail(err, "creating the veth pair", &e);
		else
			*veth = 1;
	}
	for (i = 0; i < 2 && !rc; i++) {
		const char *lo[] = {"ip",  "-n", l->ns[i], "link", "set",
				    "dev", "lo", "up",	   NULL};
		const char *addr[] = {"ip",   "-n",	    l->ns[i],
				      "addr", "replace",    a,
				      "dev",  l->ifname[i], NULL};
		const char *up[] = {"ip",	  "-n",	 l->ns[i],
				    "link",	  "set", "dev",
				    l->ifname[i], "up",	 NULL};
		snprintf(a, sizeof a, "%s/30", l->addr[i]);
		if (lab_run(lo, NULL, &e) < 0 || lab_run(addr, NULL, &e) < 0 ||
		    lab_run(up, NULL, &e) < 0)
			rc = lab_cmd_fail(err, "configuring the veth", &e);
	}
	buf_release(&e);
	return rc;
}

static void fmt_rate(char *s, size_t n, double bps)
{
	snprintf(s, n, "%.0fkbit", bps / 1e3);
}

/* Shape both ends. `replace` keeps the old qdisc when the kernel refuses
 * the new one, so a failed re-shape leaves the lab as it was. */
int lab_shape(struct lab *l, const struct lab_profile *pr, struct xr_err *err)
{
	struct buf e = BUF_INIT;
	char rate[32], burst[32], limit[32], delay[32], plimit[32];
	int i, rc = 0;
	for (i = 0; i < 2 && l->router; i++) {
		/* the ends stay unshaped: the queue is the router's */
		const char *del[] = {"tc",	   "-n",   l->ns[i],
				     "qdisc",	   "del",  "dev",
				     l->ifname[i], "root", NULL};
		lab_run(del, NULL, NULL);
	}
	for (i = 0; i < 2 && !rc; i++) {
		/* the router's egress toward the other end of direction i */
		const char *ns = l->router ? l->rns : l->ns[i];
		const char *dev = l->router ? l->rif[1 - i] : l->ifname[i];
		const char *del[] = {"tc",  "-n", ns,	  "qdisc", "del",
				     "dev", dev,  "root", NULL};
		if (pr->shape == LAB_NONE) {
			/* veth's default is noqueue: deleting the root
			 * qdisc fails harmlessly when there is none. */
			lab_run(del, NULL, NULL);
		} else if (pr->shape == LAB_TBF) {
			double bytes_ms = pr->rate / 8 / 1000;
			const char *argv[] = {
			    "tc",  "-n",    ns,	   "qdisc", "replace", "dev",
			    dev,   "root",  "tbf", "rate",  rate,      "burst",
			    burst, "limit", limit, NULL};
			fmt_rate(rate, sizeof rate, pr->rate);
			snprintf(burst, sizeof burst, "%.0f",
				 pr->burst > 0 ? pr->burst
					       : 4 * 65536 + bytes_ms);
			snprintf(limit, sizeof limit, "%.0f",
				 4 * 65536 + 8 * bytes_ms);
			if (pr->latency_ms > 0) {
				/* tc takes latency in place of limit. */
				argv[13] = "latency";
				snprintf(limit, sizeof limit, "%gms",
					 pr->latency_ms);
			}
			if (lab_run(argv, NULL, &e) < 0)
				rc = lab_cmd_fail(
				    err, "shaping the link with tbf", &e);
		} else {
			const char *argv[] = {
			    "tc", "-n",	   ns,	    "qdisc", "replace", "dev",
			    dev,  "root",  "netem", "delay", delay,	"rate",
			    rate, "limit", plimit,  NULL};
			fmt_rate(rate, sizeof rate, pr->rate);
			snprintf(delay, sizeof delay, "%.0fms", pr->delay_ms);
			/* Two bandwidth-delay products of full frames. */
			snprintf(plimit, sizeof plimit, "%.0f",
				 2 * pr->rate * 2 * pr->delay_ms / 1000 / 8 /
					 1500 +
				     1000);
			if (lab_run(argv, NULL, &e) < 0) {
				if (strstr(e.s, "qdisc kind is unknown") ||
				    strstr(e.s, "not supported"))
					rc = xr_err_set(
					    err, XR_EENV, NULL, 0, 0,
					    "profile '%s' needs the netem "
					    "qdisc, which is unavailable in "
					    "this kernel (CONFIG_NET_SCH_"
					    "NETEM / module sch_netem); tc "
					    "said: %s",
					    pr->name, e.s);
				else
					rc = lab_cmd_fail(
					    err,
					    "shaping the link with "
					    "netem",
					    &e);
			}
		}
	}
	buf_release(&e);
	return rc;
}

int lab_down_ns(const char *ns, struct buf *e)
{
	const char *argv[] = {"ip", "netns", "del", ns, NULL};
	if (!lab_ns_exists(ns))
		return 0;
	return lab_run(argv, NULL, e);
}

/* Delete the veth pair (one end takes the other with it). */
int lab_del_veth(struct lab *l, struct buf *e)
{
	int i;
	for (i = 0; i < 2; i++)
		if (lab_ns_exists(l->ns[i]) &&
		    lab_link_exists(l->ns[i], l->ifname[i])) {
			const char *argv[] = {"ip",	    "-n",  l->ns[i],
					      "link",	    "del", "dev",
					      l->ifname[i], NULL};
			return lab_run(argv, NULL, e);
		}
	return 0;
}

void lab_read_addr(const struct lab *l, int i, struct buf *out)
{
	const char *argv[] = {"ip",   "-n",   l->ns[i], "-br",
			      "addr", "show", NULL};
	lab_run(argv, out, NULL); /* its output, whatever its status */
}

void lab_read_qdisc(const struct lab *l, int i, struct buf *out)
{
	const char *argv[] = {"tc",   "-n",  l->ns[i],	   "qdisc",
			      "show", "dev", l->ifname[i], NULL};
	lab_run(argv, out, NULL);
}

void lab_read_router_qdisc(const struct lab *l, struct buf *out)
{
	const char *argv[] = {"tc", "-n", l->rns, "qdisc", "show", NULL};
	lab_run(argv, out, NULL);
}

/* End i's root qdiscs from tc's JSON (rates there in bytes per second,
 * latencies in microseconds). */
size_t lab_read_shaping(const struct lab *l, int i, struct lab_qdisc *q,
			size_t max)
{
	const char *argv[] = {"tc",   "-j",  "-n",	   l->ns[i], "qdisc",
			      "show", "dev", l->ifname[i], NULL};
	struct buf out = BUF_INIT;
	json_t *a, *e, *o, *v;
	size_t k, n = 0;
	lab_run(argv, &out, NULL);
	a = json_loadb(out.s, out.len, 0, NULL);
	json_array_foreach(a, k, e)
	{
		const char *kind =
		    json_string_value(json_object_get(e, "kind"));
		if (!json_is_true(json_object_get(e, "root")) || !kind ||
		    n == max)
			continue;
		memset(&q[n], 0, sizeof q[n]);
		snprintf(q[n].kind, sizeof q[n].kind, "%s", kind);
		o = json_object_get(e, "options");
		v = json_object_get(o, "rate");
		if ((q[n].has_rate = json_is_number(v)))
			q[n].rate_bps = json_number_value(v) * 8;
		v = json_object_get(o, "burst");
		if ((q[n].has_burst = json_is_number(v)))
			q[n].burst = json_number_value(v);
		v = json_object_get(o, "lat");
		if ((q[n].has_lat = json_is_number(v)))
			q[n].lat_ms = json_number_value(v) / 1e3;
		v = json_object_get(o, "delay");
		q[n].has_delay = json_is_object(v) || json_is_number(v);
		n++;
	}
	json_decref(a);
	buf_release(&out);
	return n;
}
