/*
 * Unit tests for a factor's `verify:` list (issue 20): one mapping or a
 * list of them, each entry with its own probe or run, expect and match;
 * errors in an entry name it ("verify[1]") at its line:col.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "catalog.h"
#include "plan.h"
#include "tap.h"

#define HEAD                                                                   \
	"xrun: 1\n"                                                            \
	"name: t\n"                                                            \
	"engine: { type: iperf3, server: local, duration: 1s }\n"

static int load(const char *text, struct plan **p, struct xr_diag *d)
{
	xr_diag_init(d, "t.yaml");
	return plan_load_mem("t.yaml", text, strlen(text), catalog_builtin(), p,
			     d);
}

static int has(const struct xr_diag *d, int line, int col, const char *sub)
{
	size_t i;
	for (i = 0; i < d->n; i++)
		if (d->items[i].line == line && d->items[i].col == col &&
		    strstr(d->items[i].msg, sub))
			return 1;
	for (i = 0; i < d->n; i++)
		printf("#   %d:%d: %s\n", d->items[i].line, d->items[i].col,
		       d->items[i].msg);
	return 0;
}

static void test_list(void)
{
	static const char text[] =
	    HEAD "factors:\n"
		 "  drv:\n"
		 "    levels: [old, new]\n"
		 "    verify:\n"
		 "      - { probe: nic.driver }\n"
		 "      - { probe: \"nic.property:*RSS\", expect: \"1\" }\n"
		 "      - run: [cat, /sys/x]\n"
		 "        expect: { old: a, new: b }\n"
		 "        match: prefix\n";
	struct plan *p = NULL;
	struct xr_diag d;
	const struct plan_factor *f;
	if (!ok(load(text, &p, &d) == 0 && p, "a verify list loads")) {
		has(&d, 0, 0, "");
		xr_diag_release(&d);
		return;
	}
	f = &p->factors[0];
	is_int(f->nverify, 3, "three entries");
	is_str(f->verify[0].probe, "nic.driver", "entry 0 probe");
	ok(!f->verify[0].expect && !f->verify[0].expect_by_level,
	   "entry 0 expects the level");
	is_str(f->verify[1].expect, "1", "entry 1 expect");
	is_int(f->verify[1].pos.line, 9, "entry 1 line");
	is_int(f->verify[2].run.argc, 2, "entry 2 run");
	is_str(f->verify[2].expect_by_level[1], "b", "entry 2 expect map");
	is_int(f->verify[2].match, PLAN_MATCH_PREFIX, "entry 2 match");
	plan_free(p);
	xr_diag_release(&d);
}

static void test_single(void)
{
	static const char text[] = HEAD "factors:\n"
					"  a:\n"
					"    levels: [x]\n"
					"    verify: { probe: kernel }\n";
	struct plan *p = NULL;
	struct xr_diag d;
	ok(load(text, &p, &d) == 0 && p && p->factors[0].nverify == 1 &&
	       strcmp(p->factors[0].verify->probe, "kernel") == 0,
	   "one mapping is a list of one");
	plan_free(p);
	xr_diag_release(&d);
}

static void test_errors(void)
{
	static const struct {
		const char *text;
		int line, col;
		const char *msg;
	} bad[] = {
	    {HEAD "factors:\n  a:\n    levels: [x]\n    verify: []\n", 7, 13,
	     "'verify' of factor 'a' is an empty list"},
	    {HEAD "factors:\n  a:\n    levels: [x]\n    verify:\n"
		  "      - { probe: kernel }\n      - { expect: x }\n",
	     9, 9, "'verify[1]' of factor 'a' needs exactly one of 'probe'"},
	    {HEAD "factors:\n  a:\n    levels: [x]\n    verify:\n"
		  "      - { probe: kernel }\n      - { probe: nic.mtux }\n",
	     9, 9, "unknown probe 'nic.mtux' in factor 'a'"},
	    {HEAD "factors:\n  a:\n    levels: [x]\n    verify:\n"
		  "      - { probe: kernel, matc: exact }\n",
	     8, 26, "did you mean 'match'?"},
	    {HEAD "factors:\n  a:\n    levels: [x]\n    verify: [kernel]\n", 7,
	     14, "'verify' must be a mapping"},
	};
	size_t i;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct plan *p = NULL;
		struct xr_diag d;
		int rc = load(bad[i].text, &p, &d);
		ok(rc < 0 && !p, "case %zu refused", i);
		ok(has(&d, bad[i].line, bad[i].col, bad[i].msg),
		   "case %zu: %d:%d '%s'", i, bad[i].line, bad[i].col,
		   bad[i].msg);
		plan_free(p);
		xr_diag_release(&d);
	}
}

int main(void)
{
	tap_plan(20);
	test_list();
	test_single();
	test_errors();
	return tap_done();
}
