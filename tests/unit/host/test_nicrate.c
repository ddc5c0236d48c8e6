/* Unit tests of runner/host/nicrate.c from recordings (tests/data/linux,
 * tests/data/windows, tests/data/macos; the README.md of each names their
 * sources): iw's link output, netsh's interfaces and system_profiler's
 * SPAirPortDataType to the nic_wifi_rate fact, sysfs's USB speed and
 * version to nic_usb_link.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>
#include <string.h>

#include "buf.h"
#include "nicrate.h"
#include "tap.h"

static void iw(const char *file, int rc, const char *want)
{
	char path[512];
	struct buf t = BUF_INIT, out = BUF_INIT;
	snprintf(path, sizeof path, "%s/tests/data/linux/%s", XRUN_SOURCE_DIR,
		 file);
	is_int(buf_read_file(&t, path, 65536), 0, file);
	is_int(nicrate_iw_link(t.s, &out), rc, file);
	if (want)
		is_str(out.s, want, file);
	buf_release(&t);
	buf_release(&out);
}

/* A recording of tests/data/DIR read by netsh's (name given) or
 * system_profiler's reader (iface given). */
static void wifi(const char *dir, const char *file, const char *name,
		 const char *iface, int rc, const char *want)
{
	char path[512], what[160];
	struct buf t = BUF_INIT, out = BUF_INIT;
	snprintf(path, sizeof path, "%s/tests/data/%s/%s", XRUN_SOURCE_DIR, dir,
		 file);
	snprintf(what, sizeof what, "%s %s", file, name ? name : iface);
	is_int(buf_read_file(&t, path, 65536), 0, path);
	is_int(name ? nicrate_netsh_wlan(t.s, name, &out)
		    : nicrate_airport_json(t.s, iface, &out),
	       rc, what);
	if (want)
		is_str(out.s, want, what);
	else
		ok(out.s == NULL || out.len == 0, "%s: out untouched", what);
	buf_release(&t);
	buf_release(&out);
}

static void usb(const char *speed, const char *version, int rc,
		const char *want)
{
	struct buf out = BUF_INIT;
	is_int(nicrate_usb_link(speed, version, &out), rc, speed);
	if (want)
		is_str(out.s, want, speed);
	buf_release(&out);
}

int main(void)
{
	tap_plan(61);
	iw("iw_link_vht.txt", 0, "tx 866.7 Mbit/s, rx 780.0 Mbit/s");
	iw("iw_link_ht_tx.txt", 0, "tx 13.0 Mbit/s");
	iw("iw_link_rx_only.txt", 0, "rx 300.0 Mbit/s");
	iw("iw_link_not_connected.txt", -1, NULL);
	/* Windows: both rates and the radio type, CR LF lines */
	wifi("windows", "wlan_en.txt", "Wi-Fi", NULL, 0,
	     "tx 866.7 Mbit/s, rx 780.0 Mbit/s (802.11ac)");
	/* the block of the adapter named, not the first one */
	wifi("windows", "wlan_two.txt", "Wi-Fi 2", NULL, 0,
	     "tx 144.4 Mbit/s, rx 150.0 Mbit/s (802.11n)");
	wifi("windows", "wlan_two.txt", "Wi-Fi", NULL, -1, NULL);
	wifi("windows", "wlan_two.txt", "Wi-F", NULL, -1, NULL);
	wifi("windows", "wlan_en.txt", "Ethernet", NULL, -1, NULL);
	wifi("windows", "wlan_ja.txt", "Wi-Fi", NULL, 0,
	     "tx 1441.0 Mbit/s, rx 1201.0 Mbit/s (802.11ax)");
	wifi("windows", "wlan_svc_off.txt", "Wi-Fi", NULL, -1, NULL);
	/* macOS: en0's transmit rate; awdl0 has no rate, en1 no network */
	wifi("macos", "airport.json", NULL, "en0", 0,
	     "tx 867.0 Mbit/s (802.11ac)");
	wifi("macos", "airport.json", NULL, "awdl0", -1, NULL);
	wifi("macos", "airport.json", NULL, "en1", -1, NULL);
	wifi("macos", "airport.json", NULL, "en7", -1, NULL);
	{
		struct buf out = BUF_INIT;
		is_int(nicrate_netsh_wlan("    Name : W\r\n    Receive rate "
					  "(Mbps) : 0\r\n",
					  "W", &out),
		       -1, "netsh: a zero rate is no rate");
		is_int(nicrate_netsh_wlan("    Name : W\n    Transmit rate "
					  "(Mbps)    : 54\n",
					  "W", &out),
		       0, "netsh: LF lines, tx only");
		is_str(out.s, "tx 54.0 Mbit/s", "no radio type: none said");
		is_int(nicrate_airport_json("{\"SPAirPortDataType\":[{\""
					    "spairport_airport_interfaces\":[{"
					    "\"_name\":\"en0\",\"spairport_"
					    "current_network_information\":{"
					    "\"spairport_network_rate\":\"216"
					    "\"}}]}]}",
					    "en0", &out),
		       0, "airport: a rate as a string");
		is_str(out.s, "tx 216.0 Mbit/s", "airport: string rate");
		is_int(nicrate_airport_json("not json", "en0", &out), -1,
		       "airport: not JSON");
		buf_release(&out);
	}
	usb("480", " 2.10", 0, "480 Mb/s (USB 2.10)");
	usb("5000", " 3.20", 0, "5 Gb/s (USB 3.20)");
	usb("10000", " 3.20", 0, "10 Gb/s (USB 3.20)");
	usb("20000", NULL, 0, "20 Gb/s");
	usb("unknown", " 3.00", -1, NULL);
	{
		struct buf out = BUF_INIT;
		is_int(nicrate_iw_link("\ttx bitrate: 0.0 MBit/s\n", &out), -1,
		       "a zero rate is no rate");
		ok(out.s == NULL || out.len == 0, "out untouched");
		buf_release(&out);
	}
	return tap_done();
}
