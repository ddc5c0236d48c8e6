/* Unit tests of the ceilings in reports/explain/explain.c. The numbers
 * were computed with python3:
 *   >>> 1e9*1448/1538, 1e9*1472/1538, 1e9*1448/1514, 1e10*8948/9038
 *   (941482444.733..., 957087126.137..., 956406869.220..., 9900420447.0...)
 *   >>> 8e9*1*128/130, 5e9*4*0.8, 6.2e9*1448/1514
 *   (7876923076.92..., 16000000000.0, 5929722589.16...)
 *   >>> 13*512*8*8000, 5e9*8/10, 10e9*128/132, 20e9*128/132
 *   (425984000, 4000000000.0, 9696969696.969..., 19393939393.939...)
 *   (USB 2.0 Table 5-10's 13 bulk packets of 512 B per microframe; USB
 *   3.2 Gen 1 8b/10b, Gen 2 128b/132b)
 * (1448 = 1500 - 20 IP - 20 TCP - 12 timestamps; 1472 = 1500 - 28;
 * 1538 = 1500 + 14 + 4 + 8 + 12 on the wire; tbf counts 1500 + 14).
 *
 * SPDX-License-Identifier: MIT
 */
#include <math.h>

#include "explain.h"
#include "tap.h"

int main(void)
{
	tap_plan(21);
	is_near(explain_eth_goodput(1e9, 1500, 0), 941482444.733, 1e-2,
		"1GbE TCP goodput at MTU 1500");
	is_near(explain_eth_goodput(1e9, 1500, 1), 957087126.137, 1e-2,
		"1GbE UDP goodput at MTU 1500");
	is_near(explain_eth_goodput(1e10, 9000, 0), 9900420447.0, 1.0,
		"10GbE TCP goodput at MTU 9000");
	is_near(explain_tbf_goodput(1e9, 1500, 0), 956406869.220, 1e-2,
		"tbf 1000mbit TCP goodput (frame without FCS/preamble)");
	is_near(explain_tbf_goodput(6.2e9, 1500, 0), 5929722589.16, 1e-1,
		"tbf 6.2gbit (the pcie3x1 lab profile)");
	is_near(explain_pcie_raw(8.0, 1), 7876923076.92, 1e-1,
		"PCIe 3.0 x1 raw, 128b/130b");
	is_near(explain_pcie_raw(5.0, 4), 16e9, 1e-3, "PCIe 2.0 x4, 8b/10b");
	ok(isnan(explain_eth_goodput(1e9, 0, 0)), "no MTU: no ceiling");
	ok(isnan(explain_pcie_raw(8.0, 0)), "no lanes: no ceiling");
	is_near(explain_usb_data(480e6), 425984000.0, 1e-3,
		"USB 2.0: the high-speed bulk limit");
	is_near(explain_usb_data(5e9), 4e9, 1e-3, "USB 3.x Gen 1, 8b/10b");
	is_near(explain_usb_data(10e9), 9696969696.97, 1e-1,
		"USB 3.x Gen 2, 128b/132b");
	is_near(explain_usb_data(20e9), 19393939393.94, 1e-1,
		"USB 3.2 Gen 2x2, 128b/132b");
	ok(isnan(explain_usb_data(12e6)), "full speed: no ceiling");
	is_near(explain_usb_signal("5 Gb/s (USB 3.20)"), 5e9, 1e-3,
		"Linux's nic_usb_link");
	is_near(explain_usb_signal("480 Mb/s (high_speed)"), 480e6, 1e-3,
		"macOS's nic_usb_link");
	ok(isnan(explain_usb_signal("super_speed")), "no rate: no ceiling");
	is_near(explain_wifi_phy("tx 866.7 Mbit/s, rx 780.0 Mbit/s"), 866.7e6,
		1e-3, "Wi-Fi: the higher of tx and rx");
	is_near(explain_wifi_phy("rx 1201.0 Mbit/s"), 1201e6, 1e-3,
		"Wi-Fi: rx alone");
	ok(isnan(explain_wifi_phy("tx ? Mbit/s")), "no number: no ceiling");
	is_str(explain_kind_name(EXPLAIN_FLOW_CONTROL), "flow_control",
	       "kind names are the JSON's");
	return tap_done();
}
