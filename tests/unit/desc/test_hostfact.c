/* The host facts' table (runner/desc/hostfact.c) against what it
 * replaced and what documents it: schema/store.md's table of host facts
 * holds exactly its rows, in its order, each column as the row says; the
 * system table's labels are the ones reports printed before the table
 * (reports/render/table_sys.c's own list, copied here by hand, English
 * and Japanese, in its order); the groups an apply hook makes xrun read
 * again are the ones runner/host/facts.h named FACTS_APPLY (nic, qdisc,
 * tools, capture); a group is read whole, so its keys agree on whether a
 * factor changes them; a Windows or macOS system document gives the nine
 * keys facts.c listed for it.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "facts.h"
#include "hostfact.h"
#include "tap.h"

/* Row f as schema/store.md writes it. */
static void doc_row(const struct hostfact *f, struct buf *b)
{
	buf_reset(b);
	buf_addf(b, "| `%s` | %s | %s |", f->key, hostfact_group_name(f->group),
		 f->by_factor ? "yes" : "no");
	for (int os = 0; os < HOSTFACT_NOS; os++) {
		if (f->argv) {
			buf_adds(b, " `");
			for (int k = 0; f->argv[k]; k++)
				buf_addf(b, "%s%s", k ? " " : "", f->argv[k]);
			buf_adds(b, "` |");
		} else {
			buf_addf(b, " %s |",
				 f->reader[os] ? f->reader[os] : "—");
		}
	}
	if (f->en)
		buf_addf(b, " %s / %s |", f->en, f->ja);
	else
		buf_adds(b, " — |");
}

static void test_doc(const char *src)
{
	static const char head[] = "| key | read with | a factor changes it "
				   "| Linux | Windows | macOS | system table "
				   "(English / Japanese) |";
	struct buf path = BUF_INIT, doc = BUF_INIT, want = BUF_INIT;
	const struct hostfact *f;
	const char *p;
	int i = 0, bad = 0;
	buf_addf(&path, "%s/schema/store.md", src);
	ok(buf_read_file(&doc, path.s, 1 << 22) == 0, "read %s", path.s);
	p = doc.s ? strstr(doc.s, head) : NULL;
	ok(p != NULL, "store.md has the host facts' table");
	/* the header, its rule, then one line a row */
	for (int skip = 0; p && skip < 2; skip++)
		p = (p = strchr(p, '\n')) ? p + 1 : NULL;
	for (; p && *p == '|'; i++) {
		size_t n = strcspn(p, "\n");
		f = hostfact_at(i);
		if (f)
			doc_row(f, &want);
		if (!f || strlen(want.s) != n || strncmp(p, want.s, n)) {
			bad++;
			printf("# store.md: %.*s\n", (int)n, p);
		}
		if (f && (strlen(want.s) != n || strncmp(p, want.s, n)))
			printf("# table:    %s\n", want.s);
		p += n + (p[n] == '\n');
	}
	for (; (f = hostfact_at(i)); i++, bad++) {
		doc_row(f, &want);
		printf("# missing:  %s\n", want.s);
	}
	is_int(bad, 0, "store.md's rows are the table's, in its order");
	buf_release(&path);
	buf_release(&doc);
	buf_release(&want);
}

int main(void)
{
	/* reports/render/table_sys.c's sys_keys before the table, then the
	 * engine version row (engine_cond.c: iperf3) */
	static const char *const labels[][3] = {
	    {"os_release", "OS", "OS"},
	    {"kernel", "Kernel", "カーネル"},
	    {"cpu_model", "CPU", "CPU"},
	    {"cpu_count", "CPU threads", "CPU スレッド数"},
	    {"mem_bytes", "Memory", "メモリ"},
	    {"nic_driver", "NIC driver", "NIC ドライバ"},
	    {"nic_firmware", "NIC firmware", "NIC ファームウェア"},
	    {"nic_link", "Link", "リンク"},
	    {"nic_pcie_link", "PCIe link", "PCIe リンク"},
	    {"nic_mtu", "MTU", "MTU"},
	    {"qdisc_root", "Root qdisc", "ルート qdisc"},
	    {"iperf3_version", "iperf3", "iperf3"},
	};
	/* facts.c's system_facts list before the table */
	static const char *const sysdoc =
	    "hostname os_release kernel cpu_model cpu_count mem_bytes "
	    "tcp_cc tcp_cc_template pktmon";
	const char *src = getenv("XRUN_SOURCE_DIR");
	const struct hostfact *f;
	struct buf b = BUF_INIT;
	size_t k = 0;
	unsigned fixed = 0, changes = 0;
	static const struct facts_tool tools[] = {{"iperf3_version", NULL},
						  {NULL, NULL}};

	if (!src)
		src = XRUN_SOURCE_DIR;
	tap_plan(51);
	for (int i = 0; (f = hostfact_at(i)); i++) {
		if (!f->en)
			continue;
		ok(k < sizeof labels / sizeof labels[0] &&
		       !strcmp(f->key, labels[k][0]) &&
		       !strcmp(f->en, labels[k][1]) &&
		       !strcmp(f->ja, labels[k][2]),
		   "system table row %zu: %s \"%s\" / \"%s\"", k, f->key, f->en,
		   f->ja);
		k++;
	}
	is_int((long long)k, (long long)(sizeof labels / sizeof labels[0]),
	       "12 labelled rows");
	is_int(hostfact_factor_groups(),
	       FACTS_NIC | FACTS_QDISC | FACTS_TOOLS | FACTS_CAPTURE,
	       "an apply hook: nic, qdisc, tools, capture read again");
	for (int i = 0; (f = hostfact_at(i)); i++) {
		*(f->by_factor ? &changes : &fixed) |= f->group;
		ok(hostfact_find(f->key) == f, "%s: one row", f->key);
		if (f->group & (FACTS_HOST | FACTS_OS) &&
		    (f->reader[HOSTFACT_WINDOWS] || f->reader[HOSTFACT_MACOS]))
			buf_addf(&b, "%s%s", b.len ? " " : "", f->key);
	}
	is_int(fixed & changes, 0, "no group holds both kinds");
	is_str(b.s, sysdoc, "a system document's keys");
	ok(hostfact_find("nic_mtu")->by_factor &&
	       !hostfact_find("kernel")->by_factor &&
	       !hostfact_find("cpu_model")->by_factor,
	   "MTU changes with a factor; kernel and CPU do not");
	is_int(facts_key_group("iperf3_version", tools), FACTS_TOOLS,
	       "an engine's version: tools, when it is read");
	is_int(facts_key_group("iperf3_version", NULL), 0,
	       "... and in no group when it is not");
	is_int(facts_key_group("xrun_version", tools), 0, "xrun's own: none");
	is_int(facts_key_group("police_ingress", NULL), FACTS_QDISC,
	       "police_ingress: qdisc");
	ok(hostfact_find("nope") == NULL && hostfact_at(-1) == NULL,
	   "no row: NULL");
	test_doc(src);
	buf_release(&b);
	return tap_done();
}
