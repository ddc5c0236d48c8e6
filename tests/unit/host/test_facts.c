/* Host facts of this machine, checked against independent readings; a
 * program's version is read only when the caller names it (the plan's
 * engine's version command, runner/desc), never otherwise.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "engine_cond.h"
#include "facts.h"
#include "proc.h"
#include "tap.h"

static const char *get(struct fact *f, size_t n, const char *key)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(f[i].key, key) == 0)
			return f[i].value;
	return NULL;
}

int main(void)
{
	tap_plan(40); /* at least: the facts depend on the machine */
	static const char *const keys[] = {
	    "hostname",	 "os_release",	  "kernel",	    "cpu_model",
	    "cpu_count", "mem_bytes",	  "nic_driver",	    "nic_firmware",
	    "nic_link",	 "nic_pcie_link", "iperf3_version", "capture_running",
	    "nic_mtu",	 "qdisc_root",	  "nic_offloads",   "qdisc_root_queue",
	    NULL};
	struct fact *f = NULL;
	size_t n = 0;
	struct utsname u;
	char host[256] = "";
	const char *v;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	const struct engine_version *ev = engine_version_of("iperf3");
	const struct facts_tool tools[] = {
	    {ev ? ev->fact : NULL, ev ? ev->argv : NULL}, {NULL, NULL}};

	ok(facts_collect(NULL, "lo", tools, &f, &n) == 0, "local facts");
	for (size_t i = 0; i < n; i++)
		printf("# %s = %s\n", f[i].key, f[i].value);
	for (size_t i = 0; i < n; i++) {
		int known = 0;
		for (int k = 0; keys[k]; k++)
			known |= strcmp(keys[k], f[i].key) == 0;
		ok(known && f[i].value[0] && !strchr(f[i].value, '\n'),
		   "fact %s is documented, one line, non-empty", f[i].key);
		for (size_t j = i + 1; j < n; j++)
			ok(strcmp(f[i].key, f[j].key) != 0, "no duplicate %s",
			   f[i].key);
	}
	/* nic_offloads against ethtool's own lines, read by awk */
	if (system("command -v ethtool >/dev/null 2>&1") == 0) {
		FILE *pp = popen(
		    "ethtool -k lo | awk -F': ' '"
		    "/^tcp-segmentation-offload/{t=$2} "
		    "/^generic-segmentation-offload/{g=$2} "
		    "/^generic-receive-offload/{r=$2} "
		    "/^large-receive-offload/{l=$2} END{sub(/ .*/,\"\",l); "
		    "printf \"tso %s, gso %s, gro %s, lro %s\", t, g, r, l}'",
		    "r");
		char want[128] = "";
		if (pp) {
			if (!fgets(want, sizeof want, pp))
				want[0] = '\0';
			pclose(pp);
		}
		v = get(f, n, "nic_offloads");
		ok(v && !strcmp(v, want), "nic_offloads '%s' = ethtool's '%s'",
		   v ? v : "", want);
	}
	gethostname(host, sizeof host - 1);
	v = get(f, n, "hostname");
	ok(v && strcmp(v, host) == 0, "hostname '%s'", v ? v : "");
	uname(&u);
	v = get(f, n, "kernel");
	ok(v && strcmp(v, u.release) == 0, "kernel '%s'", v ? v : "");
	v = get(f, n, "cpu_count");
	ok(v && atol(v) == ncpu, "cpu_count %s = %ld", v ? v : "", ncpu);
	v = get(f, n, "mem_bytes");
	ok(v && atof(v) == (double)sysconf(_SC_PHYS_PAGES) *
			       (double)sysconf(_SC_PAGESIZE),
	   "mem_bytes %s = pages x page size", v ? v : "");
	ok(get(f, n, "cpu_model") != NULL, "cpu_model present");
	ok(get(f, n, "os_release") != NULL, "os_release present");
	v = get(f, n, "nic_driver");
	ok(v && strcmp(v, "loopback") == 0, "nic_driver of lo");
	ok(get(f, n, "nic_pcie_link") == NULL,
	   "no PCIe link on lo: left out, not an error");
	ok(get(f, n, "nic_firmware") == NULL, "no firmware on lo: left out");
	v = get(f, n, "nic_link");
	ok(v && strcmp(v, "unknown") == 0, "lo link speed unknown");
	v = get(f, n, "capture_running");
	ok(v && (strcmp(v, "no") == 0 || strncmp(v, "yes: ", 5) == 0),
	   "capture_running '%s'", v ? v : "");
	if (proc_which("iperf3")) {
		v = get(f, n, "iperf3_version");
		ok(v && strncmp(v, "iperf 3.", 8) == 0, "iperf3_version '%s'",
		   v ? v : "");
	}
	facts_free(f, n);

	/* A plan whose engine has no version command (command) names no
	 * tool: no version fact, though iperf3 is installed. */
	ok(facts_collect_some(NULL, "lo", FACTS_TOOLS, NULL, &f, &n) == 0,
	   "tools group without tools");
	is_int((long long)n, 0, "no tool named: no fact read");
	facts_free(f, n);
	is_int(facts_key_group("iperf3_version", NULL), 0,
	       "iperf3_version: no group when no tool names it");
	is_int(facts_key_group("iperf3_version", tools), FACTS_TOOLS,
	       "iperf3_version: the tools group when named");
	is_int(facts_key_group("kernel", NULL), FACTS_OS, "kernel: os group");
	ok(facts_collect(NULL, "xrnosuch0", NULL, &f, &n) == 0,
	   "a missing interface is not an error");
	ok(get(f, n, "kernel") && !get(f, n, "nic_driver"),
	   "other facts kept, nic facts left out");
	ok(!get(f, n, "iperf3_version"),
	   "no tools: facts without iperf3_version");
	facts_free(f, n);
	ok(facts_collect(NULL, NULL, NULL, &f, &n) == 0, "no interface");
	ok(!get(f, n, "nic_link"), "no nic facts without interface");
	facts_free(f, n);
	return tap_done();
}
