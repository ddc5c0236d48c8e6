/*
 * The link rates of a NIC that is not on PCIe or not on a wire: a USB
 * adapter's negotiated USB link (sysfs `speed` and `version` of the USB
 * device, Documentation/ABI/testing/sysfs-bus-usb) and a Wi-Fi
 * interface's PHY rates (`iw dev IF link` on Linux, `netsh wlan show
 * interfaces` on Windows, `system_profiler -json SPAirPortDataType` on
 * macOS). Pure text functions, so that recordings test them
 * (tests/data/linux, tests/data/windows, tests/data/macos; their
 * README.md files name where each format comes from).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_NICRATE_H
#define XR_NICRATE_H

struct buf;

/* sysfs speed in Mbit/s ("480", "5000", "10000", "20000") and version
 * (" 3.20"; NULL or "" when unread) -> "5 Gb/s (USB 3.20)" in out (the
 * form macOS's fact has: "5 Gb/s (super_speed)"). -1 (out untouched) for
 * a speed that is not a number ("unknown"). */
int nicrate_usb_link(const char *speed, const char *version, struct buf *out);

/* The output of `iw dev IF link` -> "tx 866.7 Mbit/s, rx 780.0 Mbit/s"
 * (either alone when only one is printed). -1 (out untouched) when it
 * names no bitrate ("Not connected."). */
int nicrate_iw_link(const char *text, struct buf *out);

/* The output of `netsh wlan show interfaces` and the adapter's Name
 * (Get-NetAdapter's, which netsh prints as its "Name") -> that
 * interface's "tx 400.0 Mbit/s, rx 400.0 Mbit/s (802.11ac)": Transmit and
 * Receive rate (Mbps), Radio type. The labels are localized: English and
 * Japanese are read (nicrate.c says which is verified). -1 (out
 * untouched) when no block has that Name or it names no rate (a
 * disconnected interface prints none; "The Wireless AutoConfig Service
 * (wlansvc) is not running."). */
int nicrate_netsh_wlan(const char *text, const char *name, struct buf *out);

/* The JSON of `system_profiler -json SPAirPortDataType` and a BSD
 * interface name -> "tx 1152.0 Mbit/s (802.11ax)" from that interface's
 * spairport_current_network_information: spairport_network_rate (the
 * "Transmit Rate" of the text form; no receive rate is given) and
 * spairport_network_phymode. -1 (out untouched) when the interface is not
 * there, is not associated or names no rate. */
int nicrate_airport_json(const char *json, const char *iface, struct buf *out);

#endif
