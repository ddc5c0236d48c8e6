/* The rehearsal lab as root, made for real (runner/lab, lab.h): what `up`
 * says it owns and `down` removes (docs/lab.md: "Namespaces of those names
 * that existed before `up` are used but not owned: `up` says so, and
 * `down` removes only the veth pair it made in them"; "`up` is
 * idempotent"), and the rate `status` prints from `tc -j qdisc show`
 * (tc's JSON gives bytes per second; `status` shows bit/s), checked
 * against tc's own text line. No traffic is measured: a few ip and tc
 * commands, under a second. Names from our pid (l<pid>-client, ...), so
 * that runs at once never share a lab; everything removed at exit.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "lab.h"
#include "proc.h"
#include "xr_err.h"
#include "netns_fixture.h" /* fx_run: argv through proc, never a shell */
#include "tap.h"

static char pfx[2][16]; /* the owned lab, the lab in foreign namespaces */

static int ns_exists(const char *ns)
{
	char p[64];
	snprintf(p, sizeof p, "/var/run/netns/%s", ns);
	return access(p, F_OK) == 0;
}

static void cleanup(void)
{
	static const char *const role[] = {"client", "server", "router"};
	char ns[48], rec[64];
	int k, i;
	for (k = 0; k < 2; k++) {
		if (!pfx[k][0])
			continue;
		for (i = 0; i < 3; i++) {
			snprintf(ns, sizeof ns, "%s-%s", pfx[k], role[i]);
			if (ns_exists(ns))
				fx_run(NULL, "ip", "netns", "del", ns, NULL);
		}
		snprintf(rec, sizeof rec, "/run/xrun-lab/%s.json", pfx[k]);
		unlink(rec);
	}
}

/* Whether ns has a link ifname: `ip -br link show` lists them all, one a
 * line, "NAME@PEER  STATE ...", and exits 0 either way. */
static int link_exists(const char *ns, const char *ifname)
{
	struct buf out = BUF_INIT;
	const char *p;
	size_t n = strlen(ifname);
	int found = 0;
	if (fx_run(&out, "ip", "-n", ns, "-br", "link", "show", NULL) == 0)
		for (p = out.s; p && *p && !found;
		     p = strchr(p, '\n'), p += !!p)
			found = !strncmp(p, ifname, n) &&
				(p[n] == '@' || p[n] == ' ');
	buf_release(&out);
	return found;
}

/* The record's text (/run/xrun-lab/PREFIX.json, docs/lab.md). */
static int record_says(const char *prefix, const char *text)
{
	char path[64], s[4096];
	size_t n;
	FILE *f;
	snprintf(path, sizeof path, "/run/xrun-lab/%s.json", prefix);
	if (!(f = fopen(path, "r")))
		return 0;
	n = fread(s, 1, sizeof s - 1, f);
	fclose(f);
	s[n] = '\0';
	return strstr(s, text) != NULL;
}

/* A lab up twice, its shaping read back, then down. */
static void test_owned(void)
{
	/* a --rate profile: tbf at 250 Mbit/s */
	struct lab_profile pr = {"rate", LAB_TBF, 250e6, 0, "tbf", 0, 0};
	struct lab_qdisc q[8];
	struct xr_err err = {0};
	struct buf tc = BUF_INIT;
	struct lab *l = NULL;
	int foreign[2] = {-1, -1}, found = -1, kept[2] = {-1, -1}, i;
	size_t n;

	is_int(lab_new(pfx[0], &l, &err), 0, "lab handle");
	if (!l)
		return;
	is_int(lab_up(l, &pr, foreign, &err), 0, "first up");
	if (err.msg[0])
		printf("# %s\n", err.msg);
	ok(foreign[0] == 0 && foreign[1] == 0,
	   "first up: both namespaces made by up, none foreign (%d %d)",
	   foreign[0], foreign[1]);

	/* What `status` prints as "shaping: tbf 250 Mbit/s": tc's JSON says
	 * 31250000 (bytes/s) and tc's own text line "rate 250Mbit"; 250e6
	 * bit/s = 31250000 B/s x 8, by hand. */
	for (i = 0; i < 2; i++) {
		n = lab_read_shaping(l, i, q, 8);
		is_int((long long)n, 1, "one root qdisc at the end");
		if (n != 1)
			continue;
		is_str(q[0].kind, "tbf", "it is tbf");
		ok(q[0].has_rate && q[0].rate_bps == 250e6,
		   "%s end: rate %.0f bit/s, the 250 Mbit/s asked for",
		   lab_role[i], q[0].rate_bps);
		fx_run(&tc, "tc", "-n", lab_ns(l, i), "qdisc", "show", "dev",
		       lab_ifname(l, i), NULL);
		ok(strstr(tc.s, " rate 250Mbit ") != NULL,
		   "tc's own line says rate 250Mbit: %s", tc.s);
	}
	buf_release(&tc);

	/* docs/lab.md: up is idempotent; the namespaces are still ours. */
	foreign[0] = foreign[1] = -1;
	is_int(lab_up(l, &pr, foreign, &err), 0, "second up of the same lab");
	ok(foreign[0] == 0 && foreign[1] == 0,
	   "second up: no 'existed before and was not made by xrun lab up' "
	   "note (%d %d)",
	   foreign[0], foreign[1]);
	ok(record_says(pfx[0], "\"namespaces\": [\n    \"") &&
	       record_says(pfx[0], lab_ns(l, 0)),
	   "the record still owns the namespaces");

	is_int(lab_down(l, &found, kept, &err), 0, "down");
	is_int(found, 2, "down found the two namespaces");
	ok(kept[0] == 0 && kept[1] == 0, "and kept none");
	ok(!ns_exists(lab_ns(l, 0)) && !ns_exists(lab_ns(l, 1)),
	   "both namespaces are gone");
	lab_free(l);
}

/* A lab in namespaces that existed before: up uses them, down removes
 * the veth pair it made and leaves them. */
static void test_foreign(void)
{
	const struct lab_profile *pr = lab_profile_find("10gbe");
	struct xr_err err = {0};
	struct lab *l = NULL;
	int foreign[2] = {-1, -1}, found = -1, kept[2] = {-1, -1}, i;

	is_int(lab_new(pfx[1], &l, &err), 0, "lab handle");
	if (!l)
		return;
	for (i = 0; i < 2; i++)
		ok(fx_run(NULL, "ip", "netns", "add", lab_ns(l, i), NULL) == 0,
		   "namespace %s made before up", lab_ns(l, i));
	is_int(lab_up(l, pr, foreign, &err), 0, "up in them");
	if (err.msg[0])
		printf("# %s\n", err.msg);
	ok(foreign[0] == 1 && foreign[1] == 1,
	   "both noted as existing before (%d %d)", foreign[0], foreign[1]);
	ok(link_exists(lab_ns(l, 0), lab_ifname(l, 0)), "up made the veth");
	ok(record_says(pfx[1], "\"veth_created\": true"),
	   "the record says up made the veth pair");
	/* Again: this up makes nothing, the pair is still up's. */
	is_int(lab_up(l, pr, foreign, &err), 0, "second up in them");
	ok(record_says(pfx[1], "\"veth_created\": true"),
	   "the record still says up made the veth pair");
	ok(record_says(pfx[1], "\"namespaces\": []"), "and owns no namespace");

	is_int(lab_down(l, &found, kept, &err), 0, "down");
	is_int(found, 2, "down found the pair's two ends");
	ok(kept[0] == 1 && kept[1] == 1,
	   "'namespace ... was not made by xrun lab up and is left in place' "
	   "for both (%d %d)",
	   kept[0], kept[1]);
	for (i = 0; i < 2; i++) {
		ok(ns_exists(lab_ns(l, i)), "%s is still there", lab_ns(l, i));
		ok(!link_exists(lab_ns(l, i), lab_ifname(l, i)),
		   "the veth pair up made is gone from %s", lab_ns(l, i));
	}
	lab_free(l);
}

int main(void)
{
	tap_plan(35);
	if (geteuid() != 0 || !proc_which("ip") || !proc_which("tc"))
		tap_skip_all("a real lab: needs root, ip and tc");
	snprintf(pfx[0], sizeof pfx[0], "lo%d", (int)getpid() % 10000000);
	snprintf(pfx[1], sizeof pfx[1], "lf%d", (int)getpid() % 10000000);
	atexit(cleanup);
	test_owned();
	test_foreign();
	return tap_done();
}
