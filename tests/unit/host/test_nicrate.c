/* Unit tests of runner/host/nicrate.c from recordings (tests/data/linux,
 * README.md there names their sources): iw's link output to the
 * nic_wifi_rate fact, sysfs's USB speed and version to nic_usb_link. */
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
	tap_plan(22);
	iw("iw_link_vht.txt", 0, "tx 866.7 Mbit/s, rx 780.0 Mbit/s");
	iw("iw_link_ht_tx.txt", 0, "tx 13.0 Mbit/s");
	iw("iw_link_rx_only.txt", 0, "rx 300.0 Mbit/s");
	iw("iw_link_not_connected.txt", -1, NULL);
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
