/*
 * Reads what an iperf3 client printed with -J (3.12 layout) into a
 * struct iperf3_report, and turns a report into engine metrics. Nothing
 * here trusts the input: every member is looked up by name and
 * type-checked, because a crashed or killed iperf3 leaves partial JSON and
 * a fuzzer feeds worse.
 *
 * SPDX-License-Identifier: MIT
 */
#include "iperf3_json.h"

#include <jansson.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "series_name.h"
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

/* One side's view of the test (the client's JSON, or the server's in
 * server_output_json): its intervals, receiving and sending. */
struct side_iv {
	double start, end, recv, send;	     /* bit/s; NAN when none */
	double retr, cwnd, wnd, rtt, rttvar; /* NAN when no stream gave it */
	int omitted;
};

struct side {
	struct side_iv *iv;
	size_t n;
	int has_recv;
};

/* A sum's or a stream's "sender" flag (iperf3 >= 3.8); older outputs
 * leave it out: dflt, what the side's role and the direction imply. */
static int is_sender(const json_t *o, int dflt)
{
	const json_t *v =
	    json_is_object(o) ? json_object_get(o, "sender") : NULL;
	return json_is_boolean(v) ? json_is_true(v) : dflt;
}

static void acc(double *sum, double v)
{
	*sum = isnan(*sum) ? v : *sum + v;
}

/* Sending streams of one interval: retransmits, snd_cwnd and snd_wnd (the
 * peer's advertised window, tcpi_snd_wnd: iperf3 >= 3.10, RELNOTES #1148)
 * summed, rtt and rttvar (us in the JSON) averaged. */
static void side_streams(const json_t *streams, int dflt, struct side_iv *o)
{
	double v, rtt = 0, var = 0;
	int nrtt = 0, nvar = 0;
	size_t i;
	for (i = 0; json_is_array(streams) && i < json_array_size(streams);
	     i++) {
		const json_t *st = json_array_get(streams, i);
		if (!is_sender(st, dflt))
			continue;
		if (get_num(st, "retransmits", &v))
			acc(&o->retr, v);
		if (get_num(st, "snd_cwnd", &v))
			acc(&o->cwnd, v);
		if (get_num(st, "snd_wnd", &v))
			acc(&o->wnd, v);
		if (get_num(st, "rtt", &v) && ++nrtt)
			rtt += v / 1e6;
		if (get_num(st, "rttvar", &v) && ++nvar)
			var += v / 1e6;
	}
	if (nrtt)
		o->rtt = rtt / nrtt;
	if (nvar)
		o->rttvar = var / nvar;
}

/* Read doc's intervals; sender_dflt: does this side send in "sum" when
 * the JSON does not say (the client unless -R). */
static int side_read(const json_t *doc, int sender_dflt, struct side *sd)
{
	const json_t *ivs = json_object_get(doc, "intervals");
	size_t i, k;
	double v, maxlen = 0;
	if (!json_is_array(ivs))
		return 0;
	sd->iv = calloc(json_array_size(ivs) + 1, sizeof *sd->iv);
	if (!sd->iv)
		return -XR_ENOMEM;
	for (i = 0; i < json_array_size(ivs); i++) {
		const json_t *iv = json_array_get(ivs, i);
		const json_t *sums[2] = {get_obj(iv, "sum"),
					 get_obj(iv, "sum_bidir_reverse")};
		struct side_iv *o = &sd->iv[sd->n];
		if (!get_num(sums[0], "start", &o->start) ||
		    !get_num(sums[0], "end", &o->end))
			continue;
		o->recv = o->send = o->retr = o->cwnd = o->wnd = o->rtt =
		    o->rttvar = NAN;
		o->omitted = json_is_true(json_object_get(sums[0], "omitted"));
		for (k = 0; k < 2; k++) {
			int snd =
			    is_sender(sums[k], k ? !sender_dflt : sender_dflt);
			if (!get_num(sums[k], "bits_per_second", &v))
				continue;
			acc(snd ? &o->send : &o->recv, v);
			sd->has_recv |= !snd;
		}
		side_streams(json_object_get(iv, "streams"), sender_dflt, o);
		if (o->end - o->start > maxlen)
			maxlen = o->end - o->start;
		sd->n++;
	}
	/* a runt (iperf3's server adds the few ms after the client's end)
	 * measures a burst, not a rate: it would make the peak */
	for (i = 0; i < sd->n; i++)
		if (sd->iv[i].end - sd->iv[i].start < 0.25 * maxlen)
			sd->iv[i].omitted = 1;
	return 0;
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

/* Sending-side series of one side, on host role. */
static int side_series(struct iperf3_report *r, const struct side *sd,
		       const char *role)
{
	static const struct {
		const char *name, *unit;
		size_t off;
	} cols[] = {
	    {SERIES_ENGINE_SENDER_THROUGHPUT, "bit/s",
	     offsetof(struct side_iv, send)},
	    {SERIES_ENGINE_RETRANSMITS, "1", offsetof(struct side_iv, retr)},
	    {SERIES_ENGINE_SND_CWND, "B", offsetof(struct side_iv, cwnd)},
	    {SERIES_ENGINE_SND_WND, "B", offsetof(struct side_iv, wnd)},
	    {SERIES_ENGINE_RTT, "s", offsetof(struct side_iv, rtt)},
	    {SERIES_ENGINE_RTTVAR, "s", offsetof(struct side_iv, rttvar)},
	};
	size_t i, c;
	for (i = 0; i < sd->n; i++)
		for (c = 0; c < sizeof cols / sizeof *cols; c++) {
			double v = *(const double *)((const char *)&sd->iv[i] +
						     cols[c].off);
			if (sd->iv[i].omitted || isnan(v))
				continue;
			if (series_set_add(&r->series, role, cols[c].name,
					   cols[c].unit, sd->iv[i].end, v) < 0)
				return -XR_ENOMEM;
		}
	return 0;
}

/*
 * The receiver's intervals into r->iv_*: the one side that receives, or
 * with --bidir both, summed interval by interval on the client's times.
 * Without the server's JSON, a forward test has only the client's
 * sending intervals: they are taken (the old behaviour), marked so.
 */
static int receiver_intervals(struct iperf3_report *r, const struct side *c,
			      const struct side *s)
{
	const struct side *a = c->has_recv ? c : s, *b = NULL;
	size_t i, j = 0;
	/* --bidir without the server: the client's two sums, as before */
	int fallback = !s->has_recv && (!c->has_recv || r->bidir);
	if (c->has_recv && s->has_recv)
		b = s;
	if (fallback)
		a = c;
	r->iv_receiver = !fallback;
	r->iv_on_server = !fallback && !c->has_recv;
	for (i = 0; i < a->n; i++) {
		const struct side_iv *o = &a->iv[i];
		double v = fallback ? o->send : o->recv;
		if (o->omitted)
			continue;
		if (fallback && !isnan(o->recv))
			v = isnan(v) ? o->recv : v + o->recv;
		if (b) {
			while (j < b->n && b->iv[j].omitted)
				j++;
			if (j >= b->n)
				break;
			v += isnan(b->iv[j].recv) ? 0 : b->iv[j++].recv;
		}
		if (isnan(v))
			continue;
		if (add_interval(r, o->start, o->end, v) < 0)
			return -XR_ENOMEM;
	}
	return 0;
}

static int parse_intervals(const json_t *root, struct iperf3_report *r)
{
	const json_t *srv = get_obj(root, "server_output_json");
	struct side c = {0}, s = {0};
	int rc;
	r->have_server = srv != NULL;
	rc = side_read(root, !r->reverse, &c);
	if (!rc)
		rc = side_read(srv, r->reverse, &s);
	if (!rc)
		rc = receiver_intervals(r, &c, &s);
	if (!rc)
		rc = side_series(r, &c, "client");
	if (!rc)
		rc = side_series(r, &s, "server");
	free(c.iv);
	free(s.iv);
	return rc;
}

/* end.streams[].sender of doc's sending streams: rtt in us, 0 when the
 * side did not measure it. */
static void parse_rtt(const json_t *doc, int sender_dflt,
		      struct iperf3_report *r, int *n)
{
	const json_t *st = json_object_get(get_obj(doc, "end"), "streams");
	double mean, lo, hi;
	size_t i;
	for (i = 0; json_is_array(st) && i < json_array_size(st); i++) {
		const json_t *snd = get_obj(json_array_get(st, i), "sender");
		if (!snd || !is_sender(snd, sender_dflt) ||
		    !get_num(snd, "mean_rtt", &mean) ||
		    !get_num(snd, "min_rtt", &lo) ||
		    !get_num(snd, "max_rtt", &hi) || !(hi > 0))
			continue;
		r->rtt_mean += mean / 1e6;
		if (!*n || lo / 1e6 < r->rtt_min)
			r->rtt_min = lo / 1e6;
		if (!*n || hi / 1e6 > r->rtt_max)
			r->rtt_max = hi / 1e6;
		++*n;
	}
}

static void parse_rtts(const json_t *root, struct iperf3_report *r)
{
	int n = 0;
	if (r->udp)
		return;
	parse_rtt(root, !r->reverse, r, &n);
	parse_rtt(get_obj(root, "server_output_json"), r->reverse, r, &n);
	r->have_rtt = n > 0;
	if (n)
		r->rtt_mean /= n;
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
	parse_rtts(root, r);
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
	series_set_release(&r->series);
}

static int add_obs_num(struct engine_result *res, const char *key, double v)
{
	char s[64];
	snprintf(s, sizeof s, "%.0f", v);
	return engine_result_add_observed(res, key, s);
}

static const char *role_label(const struct iperf3_report *r, int server)
{
	if (server)
		return r->server_host[0] ? r->server_host : "server";
	return r->client_host[0] ? r->client_host : "client";
}

/* r's series into res, the roles as host labels. */
static int iperf3_json_series_copy(const struct iperf3_report *r,
				   struct engine_result *res)
{
	size_t i, k;
	for (i = 0; i < r->series.n; i++) {
		const struct series *s = &r->series.s[i];
		const char *host = role_label(r, !strcmp(s->host, "server"));
		struct series *d =
		    series_set_get(&res->series, host, s->name, s->unit);
		if (!d)
			return -XR_ENOMEM;
		for (k = 0; k < s->n; k++)
			if (series_add(d, s->t[k], s->v[k]) < 0)
				return -XR_ENOMEM;
	}
	return 0;
}

/* The receiver's intervals into res->iv_* (replacing any). */
static int intervals_copy(const struct iperf3_report *r,
			  struct engine_result *res)
{
	int i;
	free(res->iv_start);
	free(res->iv_end);
	free(res->iv_value);
	res->iv_start = res->iv_end = res->iv_value = NULL;
	res->nintervals = 0;
	for (i = 0; i < r->nintervals; i++)
		if (engine_result_add_interval(res, r->iv_start[i],
					       r->iv_end[i], r->iv_bps[i]) < 0)
			return -XR_ENOMEM;
	if (r->nintervals > 0)
		snprintf(res->iv_host, sizeof res->iv_host, "%s",
			 role_label(r, r->iv_on_server && !r->bidir));
	return 0;
}

const char *const iperf3_json_metrics[] = {
    "throughput",   "throughput_up", "throughput_down", "sender_throughput",
    "bytes",	    "retransmits",   "cpu_host",	"cpu_remote",
    "rtt_mean",	    "rtt_min",	     "rtt_max",		"jitter",
    "lost_packets", "lost_percent",  "packets",		NULL,
};

int iperf3_report_to_result(const struct iperf3_report *r,
			    struct engine_result *res)
{
	int rc = 0;
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
	if (r->have_rtt) {
		rc |=
		    engine_result_add_metric(res, "rtt_mean", r->rtt_mean, "s");
		rc |= engine_result_add_metric(res, "rtt_min", r->rtt_min, "s");
		rc |= engine_result_add_metric(res, "rtt_max", r->rtt_max, "s");
	}
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
	if (r->nintervals > 0)
		rc |= engine_result_add_observed(res, "interval_side",
						 r->iv_receiver ? "receiver"
								: "sender");
	if (rc)
		return -XR_ENOMEM;
	if (iperf3_json_series_copy(r, res) < 0)
		return -XR_ENOMEM;

	return intervals_copy(r, res);
}
