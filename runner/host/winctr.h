/*
 * A Windows host's during-the-run sampler stream (winctr.c): the far-side
 * PowerShell loop around Get-Counter, and the reader of the framed lines
 * it prints. Pure functions: the sampler (sampler_remote.c) starts the
 * argv through host_spawn_stream and feeds the stream to winctr_take.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_WINCTR_H
#define XR_WINCTR_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"
#include "strv.h"

/* Which counters a CPU instance or the NIC had in a frame. */
enum {
	WINCTR_BUSY = 1,  /* % Processor Time */
	WINCTR_DPC = 2,	  /* % DPC Time */
	WINCTR_IRQ = 4,	  /* % Interrupt Time */
	WINCTR_DISC = 8,  /* Packets Received Discarded */
	WINCTR_RXERR = 16 /* Packets Received Errors */
};

/* One processor instance "G,N" (Processor Information) or "N" (the older
 * Processor set, group 0): cooked percentages over Get-Counter's last
 * interval. */
struct winctr_cpu {
	unsigned long group, number;
	double busy, dpc, irq;
	unsigned have; /* WINCTR_BUSY | WINCTR_DPC | WINCTR_IRQ */
};

/* One sample set. cpu[] is in (group, number) order, so that cpu[i] is
 * the flat CPU i, as oswin.c numbers them in the counters rows. */
struct winctr_frame {
	double up; /* far side's Stopwatch seconds when the set arrived */
	struct winctr_cpu *cpu;
	size_t ncpu;
	struct winctr_cpu all; /* the "_Total" instance; have 0 if absent */
	uint64_t rx_discarded, rx_errors; /* raw counts since boot */
	unsigned nic;			  /* WINCTR_DISC | WINCTR_RXERR */
};

/* Get-Counter takes whole seconds, at least 1 (its -SampleInterval is an
 * Int32, "the minimum value ... is 1 second"): period rounded. */
long winctr_interval(double period);

/* The script: iface (may be NULL or "") is the adapter's Name,
 * InterfaceDescription or InterfaceIndex, set as a PowerShell literal;
 * secs from winctr_interval; samples the number of sets before the far
 * side ends by itself. Appends to out. 0 or -XR_ENOMEM. */
int winctr_script(const char *iface, long secs, long samples, struct buf *out);
/* powershell.exe -NoProfile -NonInteractive -EncodedCommand BASE64 of
 * that script, pushed onto out. 0 or -XR_ENOMEM. */
int winctr_argv(const char *iface, long secs, long samples, struct strv *out);

/* Every complete frame of acc, in order, to fn (which returns 0 or a
 * negative code that stops the reading); what was read is removed from
 * acc, an incomplete frame stays. 0; -XR_EPARSE when a frame is not of
 * the script's format; fn's code. */
int winctr_take(struct buf *acc,
		int (*fn)(void *arg, const struct winctr_frame *f), void *arg);

#endif
