/*
 * Readers of the USB link and the Wi-Fi PHY rate of an interface
 * (nicrate.h): text in, a fact value out, no I/O.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buf.h"
#include "nicrate.h"

#include "banned.h"

int nicrate_usb_link(const char *speed, const char *version, struct buf *out)
{
	char *end;
	double mbps;
	size_t vl;
	if (!speed)
		return -1;
	mbps = strtod(speed, &end);
	if (end == speed || mbps <= 0)
		return -1;
	while (version && (*version == ' ' || *version == '\t'))
		version++;
	vl = version ? strcspn(version, " \t\r\n") : 0;
	buf_reset(out);
	if (mbps >= 1000)
		buf_addf(out, "%g Gb/s", mbps / 1000);
	else
		buf_addf(out, "%g Mb/s", mbps);
	if (vl)
		buf_addf(out, " (USB %.*s)", (int)vl, version);
	return 0;
}

/* iw prints "\ttx bitrate: 866.7 MBit/s VHT-MCS 9 ..." (station.c,
 * parse_bitrate(): "%d.%d MBit/s"); a line start is required so that
 * "rx bitrate" does not match inside another label. */
static int iw_rate(const char *text, const char *label, double *mbps)
{
	size_t n = strlen(label);
	for (const char *p = text; p && *p; p = strchr(p, '\n')) {
		char *end;
		if (*p == '\n')
			p++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (strncmp(p, label, n) != 0)
			continue;
		*mbps = strtod(p + n, &end);
		if (end != p + n && *mbps > 0 &&
		    strncmp(end, " MBit/s", 7) == 0)
			return 0;
	}
	return -1;
}

int nicrate_iw_link(const char *text, struct buf *out)
{
	double tx = 0, rx = 0;
	int ht, hr;
	if (!text)
		return -1;
	ht = iw_rate(text, "tx bitrate:", &tx) == 0;
	hr = iw_rate(text, "rx bitrate:", &rx) == 0;
	if (!ht && !hr)
		return -1;
	buf_reset(out);
	if (ht)
		buf_addf(out, "tx %.1f Mbit/s", tx);
	if (hr)
		buf_addf(out, "%srx %.1f Mbit/s", ht ? ", " : "", rx);
	return 0;
}
