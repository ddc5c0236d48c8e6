/*
 * Windows hosts in another language (issue 20): the Japanese-locale
 * recordings of tests/data/windows (README.md there says what is
 * documented and what reconstructed) read by keyword and registry value,
 * the adapter found by Name, InterfaceDescription or InterfaceIndex, and
 * plans/win-tuning.yaml's probes reading the same on an English and a
 * Japanese Windows.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "catalog.h"
#include "hostos.h"
#include "oswin.h"
#include "plan.h"
#include "probe.h"
#include "probe_int.h"
#include "strv.h"
#include "tap.h"

static char *slurp(const char *dir, const char *name)
{
	const char *src = getenv("XRUN_SOURCE_DIR");
	char path[512];
	struct buf b = BUF_INIT;
	snprintf(path, sizeof path, "%s/%s/%s", src ? src : XRUN_SOURCE_DIR,
		 dir, name);
	if (buf_read_file(&b, path, 0) < 0) {
		buf_release(&b);
		return NULL;
	}
	return buf_detach(&b, NULL);
}

static int doc_of(const char *file, struct buf *doc)
{
	char *t = slurp("tests/data/windows", file);
	int rc = t ? hostos_translate(PLAN_OS_WINDOWS, HOSTOS_NIC, t, NULL, doc)
		   : -1;
	free(t);
	return rc;
}

static void probe_is(const char *doc, const char *name, const char *want)
{
	struct buf out = BUF_INIT;
	struct xr_err err = {0};
	int rc =
	    probe_from_nic_doc(NULL, name, "イーサネット 2", doc, &out, &err);
	if (want) {
		ok(rc == 0, "%s reads (%s)", name, rc ? err.msg : "");
		is_str(out.s ? out.s : "", want, name);
	} else {
		ok(rc < 0, "%s is an error: %s", name, err.msg);
	}
	buf_release(&out);
}

static void test_ja_nic(void)
{
	struct buf doc = BUF_INIT;
	is_int(doc_of("nic_ja.txt", &doc), 0, "nic_ja.txt translates");
	probe_is(doc.s, "nic.driver", "rt25cx21x64.sys");
	probe_is(doc.s, "nic.driver_version", "10.68.1223.2024");
	probe_is(doc.s, "nic.link_speed", "10000Mb/s");
	probe_is(doc.s, "nic.pcie_link", "16.0 GT/s x1 (max 16.0 GT/s x1)");
	/* localized DisplayName and DisplayValue, as the driver gives them */
	probe_is(doc.s, "nic.property:受信バッファー", "1024");
	probe_is(doc.s, "nic.property:*InterruptModeration", "有効");
	/* the keyword and its registry value are the same in every language */
	probe_is(doc.s, "nic.registry:*InterruptModeration", "1");
	probe_is(doc.s, "nic.registry:割り込みモデレーション", "1");
	probe_is(doc.s, "nic.registry:*RSS", "1");
	probe_is(doc.s, "nic.registry:*JumboPacket", "1514");
	probe_is(doc.s, "nic.registry:Interrupt Moderation", NULL);
	ok(strstr(doc.s, "name: イーサネット 2\n") &&
	       strstr(doc.s, "index: 12\n"),
	   "the adapter's Name and InterfaceIndex are in the document");
	buf_release(&doc);
}

static void test_script(void)
{
	struct buf s = BUF_INIT;
	oswin_script(HOSTOS_NIC, "Realtek Gaming 10GbE Family Controller", NULL,
		     &s);
	ok(strstr(s.s, "$_.InterfaceDescription -eq $n -or "
		       "[string]$_.InterfaceIndex -eq $n"),
	   "nic script finds the adapter by description or index");
	ok(strstr(s.s, "$n = $a.Name"),
	   "then names it by Name for the other cmdlets");
	ok(strstr(s.s, "$_.RegistryValue -join ','"),
	   "RegistryValue (a string[]) read as one text");
	buf_reset(&s);
	oswin_script(HOSTOS_COUNTERS, "12", "n", &s);
	ok(strstr(s.s, "InterfaceIndex") &&
	       strstr(s.s, "Get-NetAdapterStatistics -Name $n"),
	   "counters find the adapter the same way");
	buf_release(&s);
}

/* Each verify probe of plans/win-tuning.yaml reads the level's value
 * from the English and from the Japanese recording. */
static void test_win_tuning(void)
{
	char *text = slurp("plans", "win-tuning.yaml");
	struct plan *p = NULL;
	struct xr_diag d;
	static const char *const files[] = {"nic_x550.txt", "nic_ja.txt"};
	int f, j, rc;
	xr_diag_init(&d, "win-tuning.yaml");
	rc = text ? plan_load_mem("win-tuning.yaml", text, strlen(text),
				  catalog_builtin(), &p, &d)
		  : -1;
	is_int(rc, 0, "plans/win-tuning.yaml loads");
	xr_diag_release(&d);
	free(text);
	if (rc < 0)
		return;
	for (j = 0; j < 2; j++) {
		struct buf doc = BUF_INIT;
		int nread = 0, nprop = 0;
		doc_of(files[j], &doc);
		for (f = 0; f < p->nfactors; f++) {
			const struct plan_verify *v = p->factors[f].verify;
			struct buf out = BUF_INIT;
			struct xr_err err = {0};
			if (!v || !v->probe || strncmp(v->probe, "nic.", 4))
				continue;
			nprop++;
			if (probe_from_nic_doc(NULL, v->probe, "x", doc.s, &out,
					       &err) == 0 &&
			    out.len && !strchr(out.s, ' '))
				nread++;
			else
				printf("# %s on %s: %s\n", v->probe, files[j],
				       err.msg);
			buf_release(&out);
		}
		ok(nprop == 2 && nread == nprop,
		   "win-tuning's %d adapter probes read a registry value from "
		   "%s (%d)",
		   nprop, files[j], nread);
		buf_release(&doc);
	}
	plan_free(p);
}

int main(void)
{
	tap_plan(30);
	test_ja_nic();
	test_script();
	test_win_tuning();
	return tap_done();
}
