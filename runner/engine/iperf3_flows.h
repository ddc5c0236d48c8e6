/*
 * Many-to-one runs of the iperf3 engine (engine.flows): the results of
 * the N clients that ran together, one per server port, made into the
 * run's one result (the parameter itself is iperf3_args.c's). Kept apart
 * from the engine so that the rules (what is summed, what is per flow,
 * when the run fails) are unit-tested on recorded outputs.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_IPERF3_FLOWS_H
#define XR_IPERF3_FLOWS_H

struct engine_result;

/*
 * Merge flow[0..n) (flow k ran against port ports[k]) into res, which
 * must be empty. res is RUN_OK only when every flow is; otherwise it has
 * the first failed flow's status and a reason naming every failed flow
 * ("flow 2 of 2 (port 5302): ..."). Every flow's metric NAME is stored as
 * NAME.flowK (K from 1); an ok run also gets the run's metrics over the
 * flows, throughput first: sums of throughput, throughput_up,
 * throughput_down, sender_throughput, bytes, retransmits, packets and
 * lost_packets; rtt_min the least, rtt_max, cpu_host and cpu_remote (the
 * busiest client or server process) the most, rtt_mean and jitter the mean,
 * lost_percent from the sums. The intervals are summed index by index on flow
 * 1's times, the series are kept per flow (NAME.flowK), the observed settings
 * are flow 1's plus flows and ports. Returns 0 or -XR_ENOMEM.
 */
int iperf3_flows_merge(const struct engine_result *flow, int n,
		       const int *ports, struct engine_result *res);

#endif
