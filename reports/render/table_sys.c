/*
 * The system table (rt_system, rtable.h): what was measured on, near the
 * top of a report as published comparison pages put it (Phoronix's
 * result pages open with the system table), from the host facts: one row
 * per key of a short list (OS, kernel, CPU, memory, NIC driver, link,
 * PCIe link, MTU, root qdisc, iperf3), one column per host. A fact that
 * changed between sessions shows each value ("6.1 / 6.18"); every fact
 * with its sessions stays in the appendix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arena.h"
#include "buf.h"
#include "err.h"
#include "rtable.h"

#include "banned.h"

#define T(id) report_text(r, REPORT_T_##id)

/* The keys shown, in order, with their labels (English, Japanese). */
static const struct sys_key {
	const char *key, *en, *ja;
} sys_keys[] = {
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
#define NSYS (sizeof sys_keys / sizeof sys_keys[0])

/* "25275990016" -> "23.5 GiB"; anything else as it is. */
static void show_value(const char *key, const char *v, char *out, size_t n)
{
	char *end;
	double b;
	if (!strcmp(key, "mem_bytes")) {
		b = strtod(v, &end);
		if (end != v && !*end && b > 0) {
			snprintf(out, n, "%.1f GiB",
				 b / (1024.0 * 1024 * 1024));
			return;
		}
	}
	snprintf(out, n, "%s", v);
}

/* Every distinct value of (host, key), in session order, " / " between. */
static int values(const struct report *r, const char *host, const char *key,
		  struct buf *s)
{
	char one[256];
	int rc = 0;
	buf_reset(s);
	for (int k = 0; k < r->nfacts && rc == 0; k++) {
		const struct report_fact *f = &r->facts[k];
		if (strcmp(f->host, host) || strcmp(f->key, key) ||
		    !strcmp(f->value, "unknown") || !*f->value)
			continue;
		show_value(key, f->value, one, sizeof one);
		if (s->len && strstr(s->s, one))
			continue;
		rc = buf_addf(s, "%s%s", s->len ? " / " : "", one) < 0;
	}
	return rc ? -XR_ENOMEM : 0;
}

int rt_system(const struct report *r, struct arena *a, struct rtable *t)
{
	int nh = r->span.nhosts, ja = r->about.lang == REPORT_LANG_JA, rc = 0;
	int row = 0;
	struct buf s = BUF_INIT;

	memset(t, 0, sizeof *t);
	t->unit = "";
	t->ncols = nh + 1;
	t->col = arena_alloc(a, (size_t)(nh + 1) * sizeof *t->col);
	t->cell = arena_alloc(a, (size_t)(nh + 1) * NSYS * sizeof *t->cell);
	if (!t->col || !t->cell)
		return -XR_ENOMEM;
	t->title = T(SYSTEM);
	t->col[0] = (struct rt_col){"", RT_LEFT, 0};
	for (int h = 0; h < nh; h++)
		t->col[h + 1] = (struct rt_col){r->span.hosts[h], RT_LEFT, 1};
	for (size_t k = 0; k < NSYS && rc == 0; k++) {
		int any = 0;
		for (int h = 0; h < nh && rc == 0; h++) {
			const char *v;
			rc = values(r, r->span.hosts[h], sys_keys[k].key, &s);
			v = rc ? NULL : arena_strdup(a, s.len ? s.s : "");
			if (!v)
				rc = -XR_ENOMEM;
			else
				t->cell[row * t->ncols + h + 1] = v;
			any |= s.len > 0;
		}
		if (rc == 0 && any) {
			t->cell[row * t->ncols] =
			    ja ? sys_keys[k].ja : sys_keys[k].en;
			row++;
		}
	}
	buf_release(&s);
	t->nrows = row;
	return rc ? -XR_ENOMEM : 0;
}
