/*
 * Readers of the USB link and the Wi-Fi PHY rate of an interface
 * (nicrate.h): text in, a fact value out, no I/O. Every Wi-Fi reader
 * writes the form of nicrate_iw_link ("tx R Mbit/s, rx R Mbit/s"), which
 * reports/explain reads whatever the OS.
 *
 * SPDX-License-Identifier: MIT
 */
#include <jansson.h>
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

/* One "tx .., rx .. (radio)" value; tx or rx <= 0: not given. */
static int wifi_value(double tx, double rx, const char *radio, size_t rl,
		      struct buf *out)
{
	if (!(tx > 0) && !(rx > 0))
		return -1;
	buf_reset(out);
	if (tx > 0)
		buf_addf(out, "tx %.1f Mbit/s", tx);
	if (rx > 0)
		buf_addf(out, "%srx %.1f Mbit/s", tx > 0 ? ", " : "", rx);
	if (radio && rl && rl < 32)
		buf_addf(out, " (%.*s)", (int)rl, radio);
	return 0;
}

/*
 * netsh's labels, English and Japanese. English as published verbatim
 * (tests/data/windows/README.md: wlan_en.txt); the Japanese ones as five
 * independent public code bases that parse or mock a Japanese Windows'
 * output spell them, not checked against a Japanese Windows.
 */
enum { WL_NAME, WL_RX, WL_TX, WL_RADIO, WL_COUNT };
static const char *const wlan_labels[WL_COUNT][2] = {
    [WL_NAME] = {"Name", "名前"},
    [WL_RX] = {"Receive rate (Mbps)", "受信速度 (Mbps)"},
    [WL_TX] = {"Transmit rate (Mbps)", "送信速度 (Mbps)"},
    [WL_RADIO] = {"Radio type", "無線の種類"},
};

/* "    Label        : value\r" -> the label's index, the value trimmed. */
static int wlan_line(const char *s, const char *e, const char **v, size_t *vl)
{
	const char *colon = memchr(s, ':', (size_t)(e - s)), *k = s, *ke;
	while (k < e && (*k == ' ' || *k == '\t'))
		k++;
	if (!colon)
		return -1;
	for (ke = colon; ke > k && (ke[-1] == ' ' || ke[-1] == '\t');)
		ke--;
	for (*v = colon + 1; *v < e && (**v == ' ' || **v == '\t');)
		(*v)++;
	while (e > *v && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'))
		e--;
	*vl = (size_t)(e - *v);
	for (int i = 0; i < WL_COUNT; i++)
		for (int l = 0; l < 2; l++)
			if ((size_t)(ke - k) == strlen(wlan_labels[i][l]) &&
			    !memcmp(k, wlan_labels[i][l], (size_t)(ke - k)))
				return i;
	return -1;
}

int nicrate_netsh_wlan(const char *text, const char *name, struct buf *out)
{
	double rate[WL_COUNT] = {0};
	const char *radio = NULL;
	size_t rl = 0;
	int mine = 0;
	if (!text || !name)
		return -1;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n'), *e = nl ? nl : p + strlen(p);
		const char *v;
		size_t vl;
		int k = wlan_line(p, e, &v, &vl);
		if (k == WL_NAME) {
			if (mine)
				break; /* the next interface */
			mine = vl == strlen(name) && !memcmp(v, name, vl);
		} else if (mine && (k == WL_RX || k == WL_TX)) {
			rate[k] = strtod(v, NULL);
		} else if (mine && k == WL_RADIO) {
			radio = v;
			rl = vl;
		}
		p = nl ? nl + 1 : e;
	}
	return wifi_value(rate[WL_TX], rate[WL_RX], radio, rl, out);
}

/* A rate given as a JSON number or a numeric string ("216"). */
static double json_rate(json_t *v)
{
	if (json_is_number(v))
		return json_number_value(v);
	if (json_is_string(v)) {
		char *end;
		double r = strtod(json_string_value(v), &end);
		return end != json_string_value(v) ? r : 0;
	}
	return 0;
}

int nicrate_airport_json(const char *json, const char *iface, struct buf *out)
{
	json_t *root = json ? json_loads(json, 0, NULL) : NULL, *d, *it;
	size_t i, j;
	int rc = -1;
	json_array_foreach(json_object_get(root, "SPAirPortDataType"), i, d)
	{
		json_array_foreach(
		    json_object_get(d, "spairport_airport_interfaces"), j, it)
		{
			const char *n =
			    json_string_value(json_object_get(it, "_name"));
			json_t *cur = json_object_get(
			    it, "spairport_current_network_information");
			const char *phy = json_string_value(
			    json_object_get(cur, "spairport_network_phymode"));
			if (rc == 0 || !n || !iface || strcmp(n, iface))
				continue;
			rc = wifi_value(json_rate(json_object_get(
					    cur, "spairport_network_rate")),
					0, phy, phy ? strlen(phy) : 0, out);
		}
	}
	json_decref(root);
	return rc;
}
