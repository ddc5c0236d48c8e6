/* The rehearsal lab's layer (runner/lab/lab.h) without root: the names a
 * prefix gives (docs/lab.md, "What `up` builds": PREFIX-client and
 * PREFIX-server, PREFIX-veth at both ends, 198.18.0.1 and 198.18.0.2,
 * PREFIX-router), the prefixes refused (1 to 10 lowercase letters, digits
 * or '-', not first; 10 + "-veth" is the 15 bytes an interface name
 * holds), and the profile table against docs/lab.md's table of profiles,
 * row by row, with the rates and delay written there.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "lab.h"
#include "xr_err.h"
#include "tap.h"

static void test_names(void)
{
	struct xr_err err = {0};
	struct lab *l = NULL;
	is_int(lab_new("b7", &l, &err), 0, "prefix b7 is valid");
	if (!l)
		return;
	is_str(lab_prefix(l), "b7", "its prefix");
	is_str(lab_ns(l, 0), "b7-client", "the client's namespace");
	is_str(lab_ns(l, 1), "b7-server", "the server's namespace");
	is_str(lab_ifname(l, 0), "b7-veth", "the client's veth end");
	is_str(lab_ifname(l, 1), "b7-veth", "the server's: the same name");
	is_str(lab_addr(l, 0), "198.18.0.1", "the client's address");
	is_str(lab_addr(l, 1), "198.18.0.2", "the server's address");
	is_str(lab_router_ns(l), "b7-router", "the router's namespace");
	is_int(lab_has_router(l), 0, "no router unless asked");
	lab_set_router(l, 1);
	is_int(lab_has_router(l), 1, "--bottleneck router");
	lab_free(l);

	is_int(lab_new("abcdefghij", &l, &err), 0, "10 characters are valid");
	if (l) {
		is_int((int)strlen(lab_ifname(l, 0)), 15,
		       "its veth name is 15 bytes, IFNAMSIZ - 1");
		lab_free(l);
	}
	is_int(lab_new("a-", &l, &err), 0, "'-' after the first character");
	lab_free(l);
}

static void test_refused(void)
{
	static const char *const bad[] = {"abcdefghijk", "",	"-a",  "Ab",
					  "a_b",	 "a.b", "BAD!"};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct xr_err err = {0};
		struct lab *l = (struct lab *)&err; /* set to NULL on refusal */
		struct buf want = BUF_INIT;
		is_int(lab_new(bad[i], &l, &err), -XR_EUSAGE, bad[i]);
		ok(l == NULL, "'%s': no lab handed out", bad[i]);
		buf_addf(&want,
			 "invalid lab prefix '%s' (valid: 1 to 10 "
			 "lowercase letters, digits or '-', not "
			 "starting with '-')",
			 bad[i]);
		is_str(err.msg, want.s,
		       "the message names it and what is valid");
		buf_release(&want);
	}
}

/* The profile names of docs/lab.md's "## Profiles" table, in its order. */
static int doc_profiles(char names[][16], int max)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	char path[1024], line[1024];
	int n = 0, in = 0;
	FILE *f;
	snprintf(path, sizeof path, "%s/docs/lab.md",
		 src ? src : XRUN_SOURCE_DIR);
	if (!(f = fopen(path, "r")))
		return -1;
	while (fgets(line, sizeof line, f) && n < max) {
		char *e;
		if (!strncmp(line, "## ", 3))
			in = !strncmp(line, "## Profiles", 11);
		if (!in || strncmp(line, "| `", 3) ||
		    !(e = strchr(line + 3, '`')))
			continue;
		snprintf(names[n++], 16, "%.*s", (int)(e - line - 3), line + 3);
	}
	fclose(f);
	return n;
}

static void test_profiles(void)
{
	char names[16][16];
	int n = doc_profiles(names, 16), i;
	const struct lab_profile *pr;
	ok(n == 5, "docs/lab.md lists 5 profiles (got %d)", n);
	for (i = 0; i < n; i++)
		is_str(lab_profile_name((size_t)i), names[i],
		       "the table's row is docs/lab.md's, in order");
	ok(lab_profile_name((size_t)n) == NULL, "and no row more");
	ok(lab_profile_at((size_t)n) == NULL, "lab_profile_at ends there");

	/* docs/lab.md: none, tbf 6.2 Gbit/s, 2.5 Gbit/s, 1 Gbit/s, netem
	 * 1 Gbit/s with 10 ms each way. */
	pr = lab_profile_find("10gbe");
	ok(pr && pr->shape == LAB_NONE && pr->rate == 0, "10gbe: unshaped");
	pr = lab_profile_find("pcie3x1");
	ok(pr && pr->shape == LAB_TBF && pr->rate == 6.2e9,
	   "pcie3x1: tbf 6.2G");
	pr = lab_profile_find("2g5");
	ok(pr && pr->shape == LAB_TBF && pr->rate == 2.5e9, "2g5: tbf 2.5G");
	pr = lab_profile_find("1g");
	ok(pr && pr->shape == LAB_TBF && pr->rate == 1e9, "1g: tbf 1G");
	pr = lab_profile_find("wan");
	ok(pr && pr->shape == LAB_NETEM && pr->rate == 1e9 &&
	       2 * pr->delay_ms == 20,
	   "wan: netem 1G, 20 ms RTT");
	ok(lab_profile_find("10GbE") == NULL, "names are matched exactly");
	ok(lab_profile_find("rate") == NULL, "--rate is not a row");
}

int main(void)
{
	test_names();
	test_refused();
	test_profiles();
	return tap_done();
}
