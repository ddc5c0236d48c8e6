/*
 * Host facts, collected once per session and host: hostname, OS release,
 * kernel, CPU model and count, memory, NIC driver/firmware/link, iperf3
 * version (plus xrun version and plan hash added by the runner).
 */
#ifndef XR_FACTS_H
#define XR_FACTS_H

#include <stddef.h>

#include "err.h"

struct host;

struct fact {
	char key[32]; /* hostname, os_release, kernel, cpu_model, cpu_count,
			 mem_bytes, nic_driver, nic_firmware, nic_link,
			 nic_pcie_link, nic_mtu, qdisc_root (kind and
			 rate in bit/s: "tbf 1000000000"),
			 police_egress, police_ingress (a tc policer:
			 qdisc_police.h qdisc_police_fact),
			 iperf3_version, capture_running */
	char *value;  /* owned */
};

/* OUT: *facts (free with facts_free). A fact that cannot be read is
 * left out, never an error; returns negative only on OOM. */
int facts_collect(struct host *h, const char *iface, struct fact **facts,
		  size_t *n);
void facts_free(struct fact *facts, size_t n);

#endif
