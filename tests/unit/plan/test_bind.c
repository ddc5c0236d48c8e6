/*
 * Unit tests for factor-bound hosts (runner/plan/plan_bind.c): which host
 * plays a role in a cell (a plain binding, a host name holding another
 * factor's level, the engine's defaults), the model the loader builds,
 * and the cell context that `xrun plan` and the runner share resolving
 * {{client}}, {{target}} and {{iface}} from the bound hosts.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "catalog.h"
#include "cellctx.h"
#include "plan.h"
#include "tap.h"

static const char text[] =
    "xrun: 1\n"
    "name: b\n"
    "hosts:\n"
    "  x570-win: { ssh: \"me@x570.example\", os: windows, iface: \"Ethernet "
    "2\","
    " address: 192.0.2.31, wait: 10m }\n"
    "  x570-ubu: { ssh: \"me@x570.example\", port: 2222, iface: enp5s0 }\n"
    "  b550-win: { ssh: \"me@b550.example\", os: windows, iface: \"Ethernet\" "
    "}\n"
    "  b550-ubu: { ssh: \"me@b550.example\", port: 2222, iface: enp6s0 }\n"
    "  s1: { ssh: \"lab@s1.example\", address: 192.0.2.10 }\n"
    "  s2: { ssh: \"lab@s2.example\", address: 192.0.2.11 }\n"
    "engine:\n"
    "  type: iperf3\n"
    "  client: x570-ubu\n"
    "  server: { host: s1, start: true }\n"
    "factors:\n"
    "  os: { levels: [win, ubu], manual: \"Boot into {{os}}\", wait: 5m }\n"
    "  pc:\n"
    "    levels: [x570, b550]\n"
    "    manual: \"Use the {{pc}}\"\n"
    "    hosts: { client: { x570: \"x570-{{os}}\", b550: \"b550-{{ os }}\" } "
    "}\n"
    "  far:\n"
    "    levels: [near, remote]\n"
    "    hosts: { server: { near: s1, remote: s2 } }\n";

int main(void)
{
	struct xr_diag d;
	struct plan *p = NULL;
	struct cellctx c;
	struct buf b = BUF_INIT;
	struct xr_err e = {0};
	uint32_t lv[3];
	int rc, f;

	tap_plan(20);
	xr_diag_init(&d, "b.yaml");
	rc = plan_load_mem("b.yaml", text, strlen(text), catalog_builtin(), &p,
			   &d);
	is_int(rc, 0, "plan with bindings loads");
	if (rc) {
		xr_diag_print(&d, stderr);
		return tap_done();
	}
	ok(plan_has_bindings(p), "has bindings");
	is_int(plan_role_factor(p, "client"), 1, "client bound by pc");
	is_int(plan_role_factor(p, "server"), 2, "server bound by far");
	is_int(plan_role_factor(p, "dut"), -1, "dut bound by none");
	is_int((int)(p->factors[0].wait + 0.5), 300, "factor wait 5m");
	is_int((int)(plan_host_find(p, "x570-win")->wait + 0.5), 600,
	       "host wait 10m");
	f = 1;
	is_int(p->factors[f].bind[0].nref, 1, "one factor in the host names");
	is_int((int)p->factors[f].bind[0].nways, 2, "two combinations");

	is_str(plan_role_host(p, "client", NULL), "x570-ubu",
	       "no cell: the engine's client");
	is_str(plan_role_host(p, "server", NULL), "s1",
	       "no cell: the engine's server");
	lv[0] = 0, lv[1] = 1, lv[2] = 1;
	is_str(plan_role_host(p, "client", lv), "b550-win", "os=win pc=b550");
	is_str(plan_role_host(p, "server", lv), "s2", "far=remote");
	lv[0] = 1, lv[1] = 0, lv[2] = 0;
	is_str(plan_role_host(p, "client", lv), "x570-ubu", "os=ubu pc=x570");
	is_str(plan_role_host(p, "server", lv), "s1", "far=near");
	is_str(plan_role_host(p, "s2", lv), "s2", "a host is its own role");
	ok(plan_role_host(p, "nosuch", lv) == NULL, "unknown role: none");

	/* The shared cell context resolves from the bound hosts. */
	lv[0] = 0, lv[1] = 0, lv[2] = 1;
	cellctx_init(&c, p, lv);
	rc = cellctx_expand(&c, "{{client}} {{server}} {{target}} [{{iface}}]",
			    &b, &e);
	is_int(rc, 0, "expands");
	is_str(b.s, "192.0.2.31 192.0.2.11 192.0.2.11 [Ethernet 2]",
	       "client, server, target and iface of the bound hosts");
	cellctx_release(&c);
	buf_reset(&b);
	lv[0] = 1, lv[1] = 1, lv[2] = 0;
	cellctx_init(&c, p, lv);
	rc = cellctx_expand(&c, "{{client}} {{target}} [{{iface}}]", &b, &e);
	is_str(b.s, "b550.example 192.0.2.10 [enp6s0]",
	       "ssh host part when the bound host has no address");
	cellctx_release(&c);
	buf_release(&b);
	plan_free(p);
	xr_diag_release(&d);
	return tap_done();
}
