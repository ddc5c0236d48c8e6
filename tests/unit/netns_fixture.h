/*
 * A real network namespace for the host unit tests (test_sampler.c,
 * test_counters_netns.c): fx_ns.ns, named from a prefix and our pid so
 * that tests running at once never share one, holding fx_ns.vb, the peer
 * of the veth fx_ns.va left in our namespace; both ends up, with IPv6 off
 * on both so that nothing but a test's own traffic moves their counters.
 * vb has 10.99.0.2/24 and a static neighbour 10.99.0.1 (no address in our
 * namespace, so nothing clashes with other tests' networks): fx_ns_udp
 * sends from inside. Root only; removed at exit. fx_run runs a command
 * through the one forking module (argv, never a shell).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_NETNS_FIXTURE_H
#define XR_NETNS_FIXTURE_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "buf.h"
#include "proc.h"

static struct {
	char ns[16], va[24], vb[24];
} fx_ns;

/* Run argv (NULL-terminated varargs): 0 when it exits 0. Its stdout,
 * without the final newlines, into out if given. */
static inline int fx_run(struct buf *out, const char *a0, ...)
{
	const char *argv[24];
	struct proc_opts o = {0};
	struct proc_result r = {0};
	struct xr_err err;
	va_list ap;
	int n = 0, rc;

	argv[n++] = a0;
	va_start(ap, a0);
	while (n < 23 && (argv[n] = va_arg(ap, const char *)) != NULL)
		n++;
	va_end(ap);
	argv[n] = NULL;
	o.argv = argv;
	o.timeout = 20;
	rc = proc_run(&o, &r, &err);
	if (rc == 0 && (r.status != PROC_EXITED || r.exit_code != 0)) {
		printf("# '%s %s' failed: %s\n", a0, argv[1] ? argv[1] : "",
		       r.err ? r.err : "");
		rc = -1;
	}
	if (out) {
		buf_reset(out);
		if (r.out)
			buf_adds(out, r.out);
		while (out->len && out->s[out->len - 1] == '\n')
			out->s[--out->len] = '\0';
	}
	proc_result_release(&r);
	return rc;
}

static inline void fx_netns_down(void)
{
	if (fx_ns.ns[0])
		fx_run(NULL, "ip", "netns", "del", fx_ns.ns, NULL);
}

/* Create the namespace and the veth pair (removed at exit): 0 or -1. */
static inline int fx_netns_up(const char *prefix)
{
	char conf[64];

	snprintf(fx_ns.ns, sizeof fx_ns.ns, "%.4s%d", prefix,
		 (int)getpid() % 1000000);
	snprintf(fx_ns.va, sizeof fx_ns.va, "%sa", fx_ns.ns);
	snprintf(fx_ns.vb, sizeof fx_ns.vb, "%sb", fx_ns.ns);
	snprintf(conf, sizeof conf, "net.ipv6.conf.%s.disable_ipv6=1",
		 fx_ns.va);
	atexit(fx_netns_down);
	if (fx_run(NULL, "ip", "netns", "add", fx_ns.ns, NULL) < 0)
		return -1;
	/* IPv6 off before the interfaces exist: a new one takes "default" */
	if (fx_run(NULL, "ip", "netns", "exec", fx_ns.ns, "sysctl", "-q", "-w",
		   "net.ipv6.conf.default.disable_ipv6=1",
		   "net.ipv6.conf.all.disable_ipv6=1", NULL) < 0 ||
	    fx_run(NULL, "ip", "link", "add", fx_ns.va, "type", "veth", "peer",
		   "name", fx_ns.vb, "netns", fx_ns.ns, NULL) < 0 ||
	    fx_run(NULL, "sysctl", "-q", "-w", conf, NULL) < 0 ||
	    fx_run(NULL, "ip", "link", "set", fx_ns.va, "up", NULL) < 0 ||
	    fx_run(NULL, "ip", "-n", fx_ns.ns, "link", "set", fx_ns.vb, "up",
		   NULL) < 0 ||
	    fx_run(NULL, "ip", "-n", fx_ns.ns, "addr", "add", "10.99.0.2/24",
		   "dev", fx_ns.vb, NULL) < 0 ||
	    fx_run(NULL, "ip", "-n", fx_ns.ns, "neigh", "add", "10.99.0.1",
		   "lladdr", "02:00:00:00:00:01", "nud", "permanent", "dev",
		   fx_ns.vb, NULL) < 0)
		return -1;
	return 0;
}

/* count UDP datagrams of 1000 bytes from inside the namespace to
 * 10.99.0.1:9 (bash's /dev/udp: one socket, one send each). */
static inline int fx_ns_udp(int count)
{
	char n[16];
	snprintf(n, sizeof n, "%d", count);
	return fx_run(NULL, "ip", "netns", "exec", fx_ns.ns, "bash", "-c",
		      "p=$(printf '%1000s' x); for i in $(seq \"$1\"); do "
		      "printf '%s' \"$p\" >/dev/udp/10.99.0.1/9 2>/dev/null; "
		      "done; exit 0",
		      "bash", n, NULL);
}

#endif
