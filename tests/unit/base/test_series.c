/* Unit tests for series.c: sets of (host, name) series and their points.
 *
 * SPDX-License-Identifier: MIT
 */
#include <string.h>

#include "series.h"
#include "tap.h"
#include "xr_err.h"

int main(void)
{
	tap_plan(22);
	struct series_set a = {0}, b = {0};
	const struct series *s;
	char longname[SERIES_NAME_MAX + 8];
	int i;

	is_int(series_set_add(&a, "client", "nic.rx_bytes", "B", 1.0, 100), 0,
	       "first point");
	is_int(series_set_add(&a, "client", "nic.rx_bytes", "B", 2.0, 250), 0,
	       "second point, same series");
	is_int(series_set_add(&a, "server", "nic.rx_bytes", "B", 1.0, 7), 0,
	       "same name, other host");
	is_int((long long)a.n, 2, "two series");
	s = series_set_find(&a, "client", "nic.rx_bytes");
	ok(s && s->n == 2 && s->t[1] == 2.0 && s->v[1] == 250,
	   "client's series holds both points in order");
	is_str(s ? s->unit : "", "B", "unit kept");
	s = series_set_find(&a, NULL, "nic.rx_bytes");
	ok(s && !strcmp(s->host, "client"), "host NULL finds the first host");
	ok(!series_set_find(&a, "client", "cpu.0.busy"), "absent is NULL");
	for (i = 0; i < 1000; i++)
		if (series_set_add(&a, "client", "cpu.0.busy", "%", i * 0.1,
				   i % 100) < 0)
			break;
	is_int(i, 1000, "1000 points grow the arrays");
	s = series_set_find(&a, "client", "cpu.0.busy");
	ok(s && s->n == 1000 && s->v[999] == 99 && s->t[999] > 99.8,
	   "the last of 1000 points");
	memset(longname, 'x', sizeof longname - 1);
	longname[sizeof longname - 1] = 0;
	ok(!series_set_get(&a, "client", longname, "1"),
	   "a name longer than SERIES_NAME_MAX is refused");
	is_int(series_set_add(&a, "client", longname, "1", 0, 0), -XR_ENOMEM,
	       "adding to it fails, not truncates");
	is_int((long long)a.n, 3, "nothing added for it");

	is_int(series_set_add(&b, "client", "nic.rx_bytes", "B", 3.0, 400), 0,
	       "b: a later point of a's series");
	memcpy(b.note, "sampler on 'server' died", 25);
	is_int(series_set_take(&a, &b), 0, "take b into a");
	is_int((long long)b.n, 0, "b is empty");
	s = series_set_find(&a, "client", "nic.rx_bytes");
	ok(s && s->n == 3 && s->v[2] == 400, "b's point appended to a's");
	is_str(a.note, "sampler on 'server' died", "the note moves with it");
	is_int((long long)a.n, 3, "no new series for a known name");
	series_set_release(&a);
	series_set_release(&b);
	is_int((long long)a.n, 0, "released set is empty");
	ok(a.s == NULL, "and holds no memory");
	is_int(series_set_add(&a, "h", "n", NULL, 0, 1), 0,
	       "a released set can be used again");
	series_set_release(&a);
	return tap_done();
}
