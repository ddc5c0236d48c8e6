/*
 * The link rates of a NIC that is not on PCIe or not on a wire: a USB
 * adapter's negotiated USB link (sysfs `speed` and `version` of the USB
 * device, Documentation/ABI/testing/sysfs-bus-usb) and a Wi-Fi
 * interface's PHY rates (`iw dev IF link`). Pure text functions, so that
 * recordings test them (tests/data/linux).
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

#endif
