/*
 * The iperf3 engine's parameters (split from engine_iperf3.c): what a
 * plan may set in the engine section or through a factor's `param:`,
 * how each is validated, and the client argv built from them.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_IPERF3_ARGS_H
#define XR_IPERF3_ARGS_H

#include "engine.h"
#include "xr_err.h"

struct plan;
struct engine_request;

/* Is key an iperf3 parameter (parallel, reverse, bidir, udp, zerocopy,
 * nodelay, bitrate, congestion, mss, window, length, port, cport, bind,
 * tos, dscp, affinity, connect_timeout, duration, omit, extra,
 * flows)? */
int iperf3_args_has_param(const char *key);
/* Parameter i's name and its JSON Schema fragment; NULL past the last
 * (engine_ops.param_schema). */
const char *iperf3_args_schema(int i, const char **fragment);
/* The parameter each published condition or factor name sets, ended by
 * a NULL name (engine_ops.ref_params: `xrun plan --from-reference`). */
extern const struct engine_ref_param iperf3_ref_params[];
/* Validate engine params and factor `param:` levels into d. */
void iperf3_args_check(const struct plan *p, struct xr_diag *d);
/* `iperf3 -c TARGET ... -J`. OUT: NULL-terminated, free with
 * engine_argv_free; NULL with err on a bad value. */
char **iperf3_args_build(const struct engine_request *rq, struct xr_err *err);
/* The most flows one run has (engine.flows). */
#define IPERF3_MAX_FLOWS 16
/* The port the session's server listens on (engine.port or 5201). */
int iperf3_args_server_port(const struct plan *p);
/* engine.flows: how many clients a run starts together, flow k against
 * its own server on port engine.port + k - 1; 1 when unset. A plain number
 * (iperf3_args_check says so), that no factor varies. */
int iperf3_args_flows(const struct plan *p);

#endif
