/* Unit tests of the USB and Wi-Fi rules in reports/explain/explain.c on
 * hand-built one-cell models whose host facts are set, no series. The
 * numbers were computed with python3:
 *   >>> u2 = 13*512*8*8000; u2*1448/1514, 330e6/(u2*1448/1514)
 *   (407414023.778..., 0.80998...)      USB 2.0 adapter, TCP at MTU 1500
 *   >>> 4e9*1448/1514, 3.5e9/(4e9*1448/1514)
 *   (3825627476.88..., 0.91488...)      USB 3.x Gen 1, TCP at MTU 1500
 *   >>> 600e6/866.7e6, 0.5*866.7e6
 *   (0.69228..., 433350000.0)           Wi-Fi PHY 866.7 Mbit/s
 * 0.75 * 407414023.78 = 305560517.8, so 250 Mbit/s over USB 2.0 is not
 * USB-bound (the cell's ceiling is then the line's, as for PCIe:
 * >>> 1e9*1448/1538, 250e6/(1e9*1448/1538): 941482444.733..., 0.26554); 400
 * Mbit/s over 866.7 Mbit/s Wi-Fi (0.4615) is not Wi-Fi-bound.
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>
#include <string.h>

#include "arena.h"
#include "explain.h"
#include "tap.h"

struct bcase {
	const char *name, *key, *value, *mtu, *link;
	double median; /* bit/s */
	const char *kind;
	double ceiling, fraction; /* NaN: none expected */
	const char *text;	  /* a part of the line */
};

static const struct bcase cases[] = {
    {"USB 2.0 adapter on 1GbE at 330 Mbit/s: USB-bound", "nic_usb_link",
     "480 Mb/s (USB 2.10)", "1500", "1000", 330e6, "usb", 407414023.778,
     0.80998, "USB 480 Mb/s (USB 2.10) on client, TCP at MTU 1500"},
    {"USB 3 Gen 1 adapter at 3.5 Gbit/s: USB-bound", "nic_usb_link",
     "5 Gb/s (super_speed)", "1500", NULL, 3.5e9, "usb", 3825627476.88, 0.91488,
     "USB-bound"},
    {"USB 2.0 adapter at 250 Mbit/s: below the share", "nic_usb_link",
     "480 Mb/s (USB 2.10)", "1500", "1000", 250e6, "none", 941482444.733,
     0.26554, NULL},
    {"USB link without an MTU: not used, the fact is missing", "nic_usb_link",
     "480 Mb/s (USB 2.10)", NULL, NULL, 330e6, "none", NAN, NAN,
     "facts missing: nic_mtu of client"},
    {"Wi-Fi PHY 866.7 at 600 Mbit/s: Wi-Fi-bound (estimate)", "nic_wifi_rate",
     "tx 866.7 Mbit/s, rx 780.0 Mbit/s", "1500", NULL, 600e6, "wifi", 866.7e6,
     0.69228, "an estimate"},
    {"Wi-Fi PHY 866.7 at 400 Mbit/s: below the share", "nic_wifi_rate",
     "tx 866.7 Mbit/s, rx 780.0 Mbit/s", "1500", NULL, 400e6, "none", NAN, NAN,
     NULL},
};

static const char *metrics[] = {"throughput"};
static const char *units[] = {"bit/s"};
static const char *hosts[] = {"client"};

static void one(const struct bcase *c)
{
	struct report r = {0};
	struct report_cell cell = {0};
	struct report_stats st[1] = {{0}};
	struct report_run u = {0};
	struct report_fact f[3];
	double vals[1] = {c->median};
	struct explain *x = NULL;
	int nf = 0;
	f[nf++] = (struct report_fact){1, "client", c->key, c->value};
	if (c->mtu)
		f[nf++] = (struct report_fact){1, "client", "nic_mtu", c->mtu};
	if (c->link)
		f[nf++] =
		    (struct report_fact){1, "client", "nic_link", c->link};
	r.arena = arena_new();
	r.met.metrics = metrics;
	r.met.metric_units = units;
	r.met.nmetrics = 1;
	r.met.display_unit = "Mbit/s";
	r.met.display_scale = 1e6;
	st[0].median = c->median;
	cell.st = st;
	cell.label = "x=a";
	r.cells = &cell;
	r.ncells = 1;
	r.span.hosts = hosts;
	r.span.nhosts = 1;
	r.facts = f;
	r.nfacts = nf;
	u.ok = 1;
	u.vals = vals;
	r.runs = &u;
	r.nruns = 1;
	is_int(explain_build(&r, &x), 0, c->name);
	if (x) {
		const struct explain_limit *l = &x->cells[0];
		is_str(explain_kind_name(l->kind), c->kind, c->name);
		if (isnan(c->ceiling))
			ok(strcmp(c->kind, "none") || isnan(l->ceiling) ||
			       l->ceiling < c->median,
			   "%s: no bus ceiling", c->name);
		else
			ok(fabs(l->ceiling - c->ceiling) < 1.0,
			   "%s: ceiling %.1f", c->name, l->ceiling);
		if (!isnan(c->fraction))
			ok(fabs(l->fraction - c->fraction) < 1e-4,
			   "%s: fraction %.5f", c->name, l->fraction);
		if (c->text)
			ok(strstr(l->line, c->text) != NULL, "%s: '%s' in '%s'",
			   c->name, c->text, l->line);
	}
	arena_free(r.arena);
}

int main(void)
{
	size_t n = sizeof cases / sizeof *cases;
	int checks = 0;
	for (size_t i = 0; i < n; i++)
		checks +=
		    3 + !isnan(cases[i].fraction) + (cases[i].text != NULL);
	tap_plan(checks);
	for (size_t i = 0; i < n; i++)
		one(&cases[i]);
	return tap_done();
}
