/*
 * Reads what an iperf3 client printed with -J (3.12 layout) into a
 * struct iperf3_report, and turns a report into engine metrics. Nothing
 * here trusts the input: every member is looked up by name and
 * type-checked, because a crashed or killed iperf3 leaves partial JSON and
 * a fuzzer feeds worse.
 */
#include "iperf3_json.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "banned.h"

/* Numbers are only taken when finite: a NaN would poison the statistics
 * downstream. */
static int get_num(const json_t *obj, const char *key, double *out)
{
	const json_t *v =
	    json_is_object(obj) ? json_object_get(obj, key) : NULL;
	double d;
	if (!v || !json_is_number(v))
		return 0;
	d = json_number_value(v);
	if (!isfinite(d))
		return 0;
	*out = d;
	return 1;
}

static int get_str(const json_t *obj, const char *key, char *out, size_t outsz)
{
	const json_t *v =
	    json_is_object(obj) ? json_object_get(obj, key) : NULL;
	if (!v || !json_is_string(v))
		return 0;
	snprintf(out, outsz, "%s", json_string_value(v));
	return 1;
}

static const json_t *get_obj(const json_t *obj, const char *key)
{
	const json_t *v =
	    json_is_object(obj) ? json_object_get(obj, key) : NULL;
	return json_is_object(v) ? v : NULL;
}

static int add_interval(struct iperf3_report *r, double start, double end,
			double bps)
{
	size_t n = (size_t)r->nintervals + 1;
	double *s = realloc(r->iv_start, n * sizeof *s);
	if (!s)
		return -XR_ENOMEM;
	r->iv_start = s;
	s = realloc(r->iv_end, n * sizeof *s);
	if (!s)
		return -XR_ENOMEM;
	r->iv_end = s;
	s = realloc(r->iv_bps, n * sizeof *s);
	if (!s)
		return -XR_ENOMEM;
	r->iv_bps = s;
	r->iv_start[r->nintervals] = start;
	r->iv_end[r->nintervals] = end;
	r->iv_bps[r->nintervals] = bps;
	r->nintervals++;
	return 0;
}

/* Omitted (-O) intervals are warm-up and left out, as iperf3 leaves them
 * out of its own end totals. With --bidir both directions are summed so
 * the series matches the primary metric. */
static int parse_intervals(const json_t *root, struct iperf3_report *r)
{
	const json_t *ivs = json_object_get(root, "intervals");
	size_t i;
	if (!json_is_array(ivs))
		return 0;
	for (i = 0; i < json_array_size(ivs); i++) {
		const json_t *iv = json_array_get(ivs, i);
		const json_t *sum = get_obj(iv, "sum");
		const json_t *rev = get_obj(iv, "sum_bidir_reverse");
		const json_t *om;
		double start, end, bps, rbps;
		if (!sum || !get_num(sum, "start", &start) ||
		    !get_num(sum, "end", &end) ||
		    !get_num(sum, "bits_per_second", &bps))
			continue;
		om = json_object_get(sum, "omitted");
		if (json_is_true(om))
			continue;
		if (rev && get_num(rev, "bits_per_second", &rbps))
			bps += rbps;
		if (add_interval(r, start, end, bps) < 0)
			return -XR_ENOMEM;
	}
	return 0;
}

static void parse_start(const json_t *start, struct iperf3_report *r)
{
	const json_t *ts = get_obj(start, "test_start");
	double d;
	get_str(start, "version", r->version, sizeof r->version);
	get_str(ts, "protocol", r->protocol, sizeof r->protocol);
	if (get_num(ts, "num_streams", &d) && d >= 0 && d < 1e6)
		r->num_streams = (int)d;
	if (get_num(ts, "reverse", &d))
		r->reverse = d != 0;
	if (get_num(ts, "duration", &d) && d > 0 && d < 1e9)
		r->duration = d;
	r->udp = strcmp(r->protocol, "UDP") == 0;
	/* -M sets "tcp_mss"; without it iperf3 reports the default */
	r->have_mss = get_num(start, "tcp_mss", &r->mss) ||
		      get_num(start, "tcp_mss_default", &r->mss);
	r->have_sndbuf = get_num(start, "sndbuf_actual", &r->sndbuf);
	r->have_rcvbuf = get_num(start, "rcvbuf_actual", &r->rcvbuf);
	r->have_sock_bufsize = get_num(start, "sock_bufsize", &r->sock_bufsize);
}

static void parse_end(const json_t *end, struct iperf3_report *r)
{
	const json_t *recv = get_obj(end, "sum_received");
	const json_t *sent = get_obj(end, "sum_sent");
	const json_t *udpsum = get_obj(end, "sum");
	const json_t *rrev = get_obj(end, "sum_received_bidir_reverse");
	const json_t *srev = get_obj(end, "sum_sent_bidir_reverse");
	const json_t *cpu = get_obj(end, "cpu_utilization_percent");
	double d;

	/* UDP in 3.12 has both "sum" (client view with loss) and
	 * "sum_received"; older versions only "sum". */
	if (!recv && r->udp)
		recv = udpsum;
	r->have_recv = get_num(recv, "bits_per_second", &r->recv_bps);
	if (!get_num(recv, "bytes", &r->recv_bytes))
		r->recv_bytes = 0;
	r->have_sent = get_num(sent, "bits_per_second", &r->sent_bps);
	if (!get_num(sent, "bytes", &r->sent_bytes))
		r->sent_bytes = 0;

	r->bidir = rrev != NULL;
	r->have_recv_rev = get_num(rrev, "bits_per_second", &r->recv_rev_bps);
	if (!get_num(rrev, "bytes", &r->recv_rev_bytes))
		r->recv_rev_bytes = 0;
	r->have_sent_rev = get_num(srev, "bits_per_second", &r->sent_rev_bps);
	if (!get_num(srev, "bytes", &r->sent_rev_bytes))
		r->sent_rev_bytes = 0;

	if (!r->udp && get_num(sent, "retransmits", &r->retransmits)) {
		r->have_retransmits = 1;
		if (get_num(srev, "retransmits", &d))
			r->retransmits += d;
	}

	r->have_cpu_host = get_num(cpu, "host_total", &r->cpu_host);
	r->have_cpu_remote = get_num(cpu, "remote_total", &r->cpu_remote);

	if (r->udp) {
		const json_t *u = udpsum ? udpsum : recv;
		double jit_ms;
		if (get_num(u, "jitter_ms", &jit_ms)) {
			r->have_udp_stats = 1;
			r->jitter = jit_ms / 1000.0;
			get_num(u, "lost_packets", &r->lost_packets);
			get_num(u, "lost_percent", &r->lost_percent);
			get_num(u, "packets", &r->packets);
		}
	}

	get_str(end, "sender_tcp_congestion", r->congestion,
		sizeof r->congestion);
	get_str(end, "receiver_tcp_congestion", r->receiver_congestion,
		sizeof r->receiver_congestion);
}

int iperf3_json_parse(const char *text, size_t len, struct iperf3_report *r,
		      struct xr_err *err)
{
	json_error_t je;
	json_t *root;
	const json_t *e;
	size_t i;
	int rc = 0;

	memset(r, 0, sizeof *r);
	for (i = 0; i < len && text[i] && strchr(" \t\r\n", text[i]); i++)
		;
	if (i == len || !text[i])
		return xr_err_set(err, XR_EPARSE, NULL, 0, 0,
				  "iperf3 printed no JSON on stdout");
	root = json_loadb(text, len, 0, &je);
	if (!root)
		return xr_err_set(err, XR_EPARSE, NULL, 0, 0,
				  "iperf3 output is %s JSON "
				  "(line %d, column %d: %s)",
				  strstr(je.text, "end of file") ? "truncated"
								 : "not valid",
				  je.line, je.column, je.text);
	if (!json_is_object(root)) {
		json_decref(root);
		return xr_err_set(err, XR_EPARSE, NULL, 0, 0,
				  "iperf3 output is JSON but not an object");
	}

	parse_start(get_obj(root, "start"), r);
	parse_end(get_obj(root, "end"), r);
	if (parse_intervals(root, r) < 0) {
		json_decref(root);
		return xr_err_set(err, XR_ENOMEM, NULL, 0, 0,
				  "out of memory reading iperf3 intervals");
	}

	/* iperf3 3.12 exits 0 on e.g. a refused connection with -J: the
	 * "error" key is the only sign of failure. */
	e = json_object_get(root, "error");
	if (e) {
		if (json_is_string(e) && json_string_length(e) > 0)
			rc = xr_err_set(err, XR_EENGINE, NULL, 0, 0, "%s",
					json_string_value(e));
		else
			rc = xr_err_set(err, XR_EENGINE, NULL, 0, 0,
					"iperf3 reported an error without "
					"a message");
	} else if (!r->have_recv) {
		rc = xr_err_set(err, XR_EPARSE, NULL, 0, 0,
				"iperf3 JSON has no receiver total "
				"(end.sum_received.bits_per_second)");
	}
	json_decref(root);
	return rc;
}

void iperf3_report_release(struct iperf3_report *r)
{
	free(r->iv_start);
	free(r->iv_end);
	free(r->iv_bps);
	r->iv_start = r->iv_end = r->iv_bps = NULL;
	r->nintervals = 0;
}

static int add_obs_num(struct engine_result *res, const char *key, double v)
{
	char s[64];
	snprintf(s, sizeof s, "%.0f", v);
	return engine_result_add_observed(res, key, s);
}

int iperf3_report_to_result(const struct iperf3_report *r,
			    struct engine_result *res)
{
	int rc = 0;
	size_t n;
	double thr = r->recv_bps;

	if (r->bidir && r->have_recv_rev)
		thr += r->recv_rev_bps;
	if (r->have_recv)
		rc |= engine_result_add_metric(res, "throughput", thr, "bit/s");
	if (r->bidir) {
		/* up: client to server; down: server to client */
		if (r->have_recv)
			rc |= engine_result_add_metric(res, "throughput_up",
						       r->recv_bps, "bit/s");
		if (r->have_recv_rev)
			rc |= engine_result_add_metric(
			    res, "throughput_down", r->recv_rev_bps, "bit/s");
	}
	if (r->have_sent)
		rc |= engine_result_add_metric(
		    res, "sender_throughput",
		    r->sent_bps + (r->have_sent_rev ? r->sent_rev_bps : 0),
		    "bit/s");
	if (r->have_recv)
		rc |= engine_result_add_metric(
		    res, "bytes",
		    r->recv_bytes + (r->bidir ? r->recv_rev_bytes : 0), "B");
	if (r->have_retransmits)
		rc |= engine_result_add_metric(res, "retransmits",
					       r->retransmits, "1");
	if (r->have_cpu_host)
		rc |=
		    engine_result_add_metric(res, "cpu_host", r->cpu_host, "%");
	if (r->have_cpu_remote)
		rc |= engine_result_add_metric(res, "cpu_remote", r->cpu_remote,
					       "%");
	if (r->have_udp_stats) {
		rc |= engine_result_add_metric(res, "jitter", r->jitter, "s");
		rc |= engine_result_add_metric(res, "lost_packets",
					       r->lost_packets, "1");
		rc |= engine_result_add_metric(res, "lost_percent",
					       r->lost_percent, "%");
		rc |= engine_result_add_metric(res, "packets", r->packets, "1");
	}

	if (r->congestion[0])
		rc |= engine_result_add_observed(res, "congestion",
						 r->congestion);
	if (r->receiver_congestion[0])
		rc |= engine_result_add_observed(res, "receiver_congestion",
						 r->receiver_congestion);
	if (r->have_mss && !r->udp)
		rc |= add_obs_num(res, "mss", r->mss);
	if (r->have_sndbuf)
		rc |= add_obs_num(res, "sndbuf", r->sndbuf);
	if (r->have_rcvbuf)
		rc |= add_obs_num(res, "rcvbuf", r->rcvbuf);
	if (r->have_sock_bufsize)
		rc |= add_obs_num(res, "sock_bufsize", r->sock_bufsize);
	if (r->num_streams > 0)
		rc |= add_obs_num(res, "parallel", r->num_streams);
	if (r->protocol[0])
		rc |= engine_result_add_observed(res, "protocol", r->protocol);
	if (r->version[0])
		rc |= engine_result_add_observed(res, "version", r->version);
	/* For the report's conditions; not named after a parameter, so that
	 * no factor is "verified" against them. */
	rc |= engine_result_add_observed(res, "direction",
					 r->bidir     ? "bidir"
					 : r->reverse ? "reverse"
						      : "forward");
	if (r->duration > 0)
		rc |= add_obs_num(res, "test_duration", r->duration);
	if (rc)
		return -XR_ENOMEM;

	if (r->nintervals > 0) {
		n = (size_t)r->nintervals;
		free(res->iv_start);
		free(res->iv_end);
		free(res->iv_value);
		res->iv_start = malloc(n * sizeof(double));
		res->iv_end = malloc(n * sizeof(double));
		res->iv_value = malloc(n * sizeof(double));
		res->nintervals = 0;
		if (!res->iv_start || !res->iv_end || !res->iv_value)
			return -XR_ENOMEM;
		memcpy(res->iv_start, r->iv_start, n * sizeof(double));
		memcpy(res->iv_end, r->iv_end, n * sizeof(double));
		memcpy(res->iv_value, r->iv_bps, n * sizeof(double));
		res->nintervals = r->nintervals;
	}
	return 0;
}
