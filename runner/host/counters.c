/*
 * Counter snapshots and their deltas. A snapshot is one text document in
 * sections ("@@ netdev", "@@ ethtool", "@@ snmp", "@@ netstat", "@@ stat",
 * "@@ softirqs", "@@ procs"): a local host builds it with netlink, /proc
 * reads and the ETHTOOL_GSTATS ioctl (no subprocess: it is taken around
 * every run), and so does the sampler's thread inside a netns host's
 * namespace (a counters_reader of its own); any other host runs one fixed
 * sh script with the interface as a positional argument. One parser, so
 * what is stored cannot depend on the transport. This file holds the
 * producers; counters_script.c the far side's scripts; counters_parse.c
 * the parser and the deltas.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/gen_stats.h>
#include <linux/if_link.h>
#include <linux/pkt_sched.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "buf.h"
#include "counters.h"
#include "counter_group.h"
#include "counters_int.h"
#include "host.h"
#include "hostos.h"
#include "plan.h"
#include "proc.h"
#include "sysread.h"

#include "banned.h"

/*
 * The state of one producer of local documents: its netlink sockets, its
 * ethtool socket and its open /proc files. A socket stays in the network
 * namespace it was made in and an open /proc/.../net file keeps showing
 * the namespace it was opened in, so a reader made by a thread after
 * setns (sampler.c) reads that namespace and the process-wide reader
 * (counters_local_document) ours.
 */
#define READER_FILES 8
struct counters_reader {
	int netns; /* made in another namespace: no sysfs, thread-self */
	int link_fd, qdisc_fd, ioctl_fd;
	unsigned link_seq, qdisc_seq;
	struct {
		const char *path; /* a string literal: compared by address */
		int fd;
	} files[READER_FILES];
};

struct counters_reader *counters_reader_new(int netns)
{
	struct counters_reader *r = calloc(1, sizeof *r);
	if (!r)
		return NULL;
	r->netns = netns;
	r->link_fd = r->qdisc_fd = r->ioctl_fd = -1;
	return r;
}

void counters_reader_free(struct counters_reader *r)
{
	if (!r)
		return;
	if (r->link_fd >= 0)
		close(r->link_fd);
	if (r->qdisc_fd >= 0)
		close(r->qdisc_fd);
	if (r->ioctl_fd >= 0)
		close(r->ioctl_fd);
	for (size_t k = 0; k < READER_FILES && r->files[k].path; k++)
		close(r->files[k].fd);
	free(r);
}

/*
 * Append one of the /proc files of a snapshot; a missing or unreadable one
 * adds nothing. The files are opened once and read again from offset 0
 * (they are generated anew on every read, as top and vmstat rely on):
 * opening them was a good part of a snapshot's cost. The table holds the
 * few fixed paths of reader_document.
 */
static int add_file(struct counters_reader *r, struct buf *doc,
		    const char *path)
{
	char chunk[8192];
	size_t k;
	off_t off = 0;
	ssize_t n;
	int fd = -1;

	for (k = 0; k < READER_FILES; k++) {
		if (r->files[k].path == path) {
			fd = r->files[k].fd;
			break;
		}
		if (!r->files[k].path) {
			fd = open(path, O_RDONLY | O_CLOEXEC);
			if (fd < 0)
				return 0;
			r->files[k].path = path;
			r->files[k].fd = fd;
			break;
		}
	}
	if (fd < 0) /* table full: read it the plain way */
		fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	for (;;) {
		n = pread(fd, chunk, sizeof chunk, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		if (buf_add(doc, chunk, (size_t)n) < 0 || doc->len > (size_t)4
									 << 20)
			break;
		off += n;
	}
	if (k == READER_FILES)
		close(fd);
	if (doc->truncated)
		return -XR_ENOMEM;
	if (doc->len && doc->s[doc->len - 1] != '\n')
		buf_addc(doc, '\n');
	return 0;
}

/* Read a one-line sysfs/proc file (relative to dirfd) into out. Paths
 * relative to an open directory save a lookup per file, which matters
 * when /proc holds hundreds of processes. */
static ssize_t read_small(int dirfd, const char *path, char *out, size_t outsz)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	if (fd < 0)
		return -XR_EIO;
	do
		n = read(fd, out, outsz - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -XR_EIO;
	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' '))
		n--;
	out[n] = '\0';
	return n;
}

#define S64(f)                                                                 \
	{                                                                      \
#f, offsetof(struct rtnl_link_stats64, f)                      \
	}
/* The counters of IFLA_STATS64, named as /sys/class/net/IF/statistics. */
static const struct {
	const char *name;
	size_t off;
} stats64_fields[] = {
    S64(collisions),	    S64(multicast),
    S64(rx_bytes),	    S64(rx_compressed),
    S64(rx_crc_errors),	    S64(rx_dropped),
    S64(rx_errors),	    S64(rx_fifo_errors),
    S64(rx_frame_errors),   S64(rx_length_errors),
    S64(rx_missed_errors),  S64(rx_nohandler),
    S64(rx_over_errors),    S64(rx_packets),
    S64(tx_aborted_errors), S64(tx_bytes),
    S64(tx_carrier_errors), S64(tx_compressed),
    S64(tx_dropped),	    S64(tx_errors),
    S64(tx_fifo_errors),    S64(tx_heartbeat_errors),
    S64(tx_packets),	    S64(tx_window_errors),
};
#undef S64

union nl_resp {
	struct nlmsghdr nh;
	char b[16384];
};

/*
 * Send RTM_GETLINK for iface asking for its statistics only, and receive
 * the answer to it into resp. Returns the answer's length, or 0 (no
 * netlink, a name too long, a broken socket).
 */
static ssize_t getlink_stats(struct counters_reader *r, const char *iface,
			     union nl_resp *resp)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
		char attrs[64];
	} req;
	struct rtattr *rta;
	size_t namelen = strlen(iface) + 1;
	ssize_t n;

	if (namelen > IFNAMSIZ)
		return 0;
	if (r->link_fd < 0)
		r->link_fd =
		    socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (r->link_fd < 0)
		return 0;
	memset(&req, 0, sizeof req);
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof req.ifi);
	req.nh.nlmsg_type = RTM_GETLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.nh.nlmsg_seq = ++r->link_seq;
	req.ifi.ifi_family = AF_UNSPEC;
	/* By name (no if_nametoindex, which opens a socket of its own). */
	rta = (struct rtattr *)((char *)&req + NLMSG_ALIGN(req.nh.nlmsg_len));
	rta->rta_type = IFLA_IFNAME;
	rta->rta_len = RTA_LENGTH(namelen);
	memcpy(RTA_DATA(rta), iface, namelen);
	req.nh.nlmsg_len =
	    NLMSG_ALIGN(req.nh.nlmsg_len) + RTA_ALIGN(rta->rta_len);
	/* Only the statistics, not the whole link description. */
	rta = (struct rtattr *)((char *)&req + req.nh.nlmsg_len);
	rta->rta_type = IFLA_EXT_MASK;
	rta->rta_len = RTA_LENGTH(sizeof(uint32_t));
	memset(RTA_DATA(rta), 0, sizeof(uint32_t));
	req.nh.nlmsg_len += RTA_ALIGN(rta->rta_len);
	if (send(r->link_fd, &req, req.nh.nlmsg_len, 0) < 0) {
		close(r->link_fd);
		r->link_fd = -1;
		return 0;
	}
	/* The answer to this request: the link, or an error (no such
	 * interface); anything older on the socket is skipped. */
	for (;;) {
		do
			n = recv(r->link_fd, resp, sizeof *resp, 0);
		while (n < 0 && errno == EINTR);
		if (n < (ssize_t)sizeof(struct nlmsghdr) ||
		    !NLMSG_OK(&resp->nh, (size_t)n)) {
			close(r->link_fd);
			r->link_fd = -1;
			return 0;
		}
		if (resp->nh.nlmsg_seq == r->link_seq)
			return n;
	}
}

/*
 * The interface's statistics in one netlink request (RTM_GETLINK,
 * IFLA_STATS64): the same dev_get_stats() numbers as the 24 files of
 * /sys/class/net/IF/statistics, under the same names, without 24 opens
 * and reads per snapshot. Returns 1 when done, 0 to read sysfs instead
 * (no netlink, no such interface, an old kernel).
 */
static int add_netdev_netlink(struct counters_reader *r, struct buf *doc,
			      const char *iface)
{
	union nl_resp resp;
	struct rtattr *rta;
	const struct rtnl_link_stats64 *st = NULL;
	ssize_t n = getlink_stats(r, iface, &resp);
	int len;
	size_t i;

	if (n <= 0 || resp.nh.nlmsg_type != RTM_NEWLINK ||
	    n < (ssize_t)NLMSG_LENGTH(sizeof(struct ifinfomsg)))
		return 0;
	len = (int)IFLA_PAYLOAD(&resp.nh);
	for (rta = IFLA_RTA(NLMSG_DATA(&resp.nh)); RTA_OK(rta, len);
	     rta = RTA_NEXT(rta, len))
		if (rta->rta_type == IFLA_STATS64 &&
		    RTA_PAYLOAD(rta) >= sizeof *st)
			st = RTA_DATA(rta);
	if (!st)
		return 0;
	buf_adds(doc, "@@ netdev\n");
	for (i = 0; i < sizeof stats64_fields / sizeof stats64_fields[0]; i++) {
		uint64_t v;
		memcpy(&v, (const char *)st + stats64_fields[i].off, sizeof v);
		buf_addf(doc, "%s %llu\n", stats64_fields[i].name,
			 (unsigned long long)v);
	}
	return 1;
}

static int add_netdev(struct counters_reader *r, struct buf *doc,
		      const char *iface)
{
	char dir[128], val[64];
	struct dirent *de;
	DIR *d;

	if (add_netdev_netlink(r, doc, iface))
		return doc->truncated ? -XR_ENOMEM : 0;
	/* sysfs shows the namespace it was mounted in, not the thread's:
	 * another namespace's interface is netlink's answer or none. */
	if (r->netns)
		return buf_adds(doc, "@@ noiface\n");
	snprintf(dir, sizeof dir, "/sys/class/net/%s/statistics", iface);
	d = opendir(dir);
	if (!d)
		return buf_adds(doc, "@@ noiface\n");
	buf_adds(doc, "@@ netdev\n");
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] == '.')
			continue;
		if (read_small(dirfd(d), de->d_name, val, sizeof val) < 0)
			continue;
		buf_addf(doc, "%s %s\n", de->d_name, val);
	}
	closedir(d);
	return doc->truncated ? -XR_ENOMEM : 0;
}

/* One RTM_NEWQDISC: when it is idx's root (1) or its ingress or clsact
 * qdisc (2: parent TC_H_INGRESS, whose drops are the TC_ACT_SHOT of its
 * filters, a policer's among them: net/core/dev.c tc_run and
 * sch_handle_ingress, mini_qdisc_qstats_cpu_drop), its statistics as a
 * JSON object appended to objs; 0 otherwise, or when found has it. */
static int qdisc_one(struct buf *objs, struct nlmsghdr *nh, unsigned idx,
		     int found)
{
	const struct tcmsg *tc = NLMSG_DATA(nh);
	struct gnet_stats_basic sb = {0};
	struct gnet_stats_queue sq = {0};
	char kind[32] = "";
	struct rtattr *rta;
	int len, stats = 0;

	if (nh->nlmsg_len < NLMSG_LENGTH(sizeof *tc) ||
	    (unsigned)tc->tcm_ifindex != idx ||
	    (tc->tcm_parent != TC_H_ROOT && tc->tcm_parent != TC_H_INGRESS) ||
	    (found & (tc->tcm_parent == TC_H_ROOT ? 1 : 2)))
		return 0;
	len = (int)(nh->nlmsg_len - NLMSG_LENGTH(sizeof *tc));
	for (rta = TCA_RTA(tc); RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
		if (rta->rta_type == TCA_KIND)
			snprintf(kind, sizeof kind, "%.*s",
				 (int)RTA_PAYLOAD(rta), (char *)RTA_DATA(rta));
		if (rta->rta_type == TCA_STATS2) {
			struct rtattr *in = RTA_DATA(rta);
			int il = (int)RTA_PAYLOAD(rta);
			for (; RTA_OK(in, il); in = RTA_NEXT(in, il)) {
				size_t pl = RTA_PAYLOAD(in);
				if (in->rta_type == TCA_STATS_BASIC)
					memcpy(&sb, RTA_DATA(in),
					       pl < sizeof sb ? pl : sizeof sb);
				if (in->rta_type == TCA_STATS_QUEUE)
					memcpy(&sq, RTA_DATA(in),
					       pl < sizeof sq ? pl : sizeof sq);
			}
			stats = 1;
		}
	}
	if (!stats)
		return 0;
	buf_adds(objs, objs->len ? ",{\"kind\":" : "{\"kind\":");
	buf_add_json_str(objs, kind);
	buf_adds(objs, tc->tcm_parent == TC_H_ROOT
			   ? ",\"root\":true"
			   : ",\"parent\":\"ffff:fff1\"");
	buf_addf(objs,
		 ",\"bytes\":%llu,\"packets\":%u,"
		 "\"drops\":%u,\"overlimits\":%u,\"requeues\":%u,"
		 "\"backlog\":%u,\"qlen\":%u}",
		 (unsigned long long)sb.bytes, sb.packets, sq.drops,
		 sq.overlimits, sq.requeues, sq.backlog, sq.qlen);
	return tc->tcm_parent == TC_H_ROOT ? 1 : 2;
}

/*
 * The interface's root qdisc statistics and its ingress (or clsact)
 * qdisc's (RTM_GETQDISC dump, filtered here by interface and parent:
 * older kernels dump every interface), written in `tc -s -j qdisc show`
 * form for the one parser. No answer adds nothing.
 */
static int add_qdisc(struct counters_reader *r, struct buf *doc,
		     const char *iface)
{
	struct {
		struct nlmsghdr nh;
		struct tcmsg tc;
	} req;
	union nl_resp resp;
	unsigned idx = if_nametoindex(iface);
	int done = 0, found = 0; /* 1: the root seen, 2: the ingress */
	struct buf objs = BUF_INIT;

	if (!idx)
		return 0;
	if (r->qdisc_fd < 0)
		r->qdisc_fd =
		    socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (r->qdisc_fd < 0)
		return 0;
	memset(&req, 0, sizeof req);
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof req.tc);
	req.nh.nlmsg_type = RTM_GETQDISC;
	req.nh.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	req.nh.nlmsg_seq = ++r->qdisc_seq;
	req.tc.tcm_family = AF_UNSPEC;
	req.tc.tcm_ifindex = (int)idx;
	if (send(r->qdisc_fd, &req, req.nh.nlmsg_len, 0) < 0) {
		close(r->qdisc_fd);
		r->qdisc_fd = -1;
		return 0;
	}
	while (!done) {
		ssize_t got;
		struct nlmsghdr *nh;
		unsigned int n; /* NLMSG_OK compares it with the u32 length */
		do
			got = recv(r->qdisc_fd, &resp, sizeof resp, 0);
		while (got < 0 && errno == EINTR);
		n = got > 0 ? (unsigned int)got : 0;
		if (got <= 0) {
			close(r->qdisc_fd);
			r->qdisc_fd = -1;
			break;
		}
		for (nh = &resp.nh; NLMSG_OK(nh, n); nh = NLMSG_NEXT(nh, n)) {
			if (nh->nlmsg_seq != r->qdisc_seq)
				continue;
			if (nh->nlmsg_type == NLMSG_DONE ||
			    nh->nlmsg_type == NLMSG_ERROR) {
				done = 1;
				break;
			}
			if (nh->nlmsg_type == RTM_NEWQDISC && found != 3)
				found |= qdisc_one(&objs, nh, idx, found);
		}
	}
	if (objs.len)
		buf_addf(doc, "@@ qdisc\n[%s]\n", objs.s);
	buf_release(&objs);
	return doc->truncated ? -XR_ENOMEM : 0;
}

/*
 * Written in `ethtool -S` form so that the remote path and this one meet
 * in the same parser. Interfaces without statistics (lo) add nothing.
 */
static int add_ethtool(struct counters_reader *r, struct buf *doc,
		       const char *iface)
{
	struct ethtool_sset_info *ss = NULL;
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	struct ifreq ifr;
	uint32_t n;
	int fd, rc = 0;

	if (r->ioctl_fd < 0)
		r->ioctl_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	fd = r->ioctl_fd;
	if (fd < 0)
		return 0;
	memset(&ifr, 0, sizeof ifr);
	snprintf(ifr.ifr_name, sizeof ifr.ifr_name, "%s", iface);

	ss = calloc(1, sizeof *ss + sizeof(uint32_t));
	if (!ss)
		goto oom;
	ss->cmd = ETHTOOL_GSSET_INFO;
	ss->sset_mask = 1ULL << ETH_SS_STATS;
	ifr.ifr_data = (void *)ss;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0 || !ss->sset_mask)
		goto out;
	n = ss->data[0];
	if (n == 0 || n > 65536)
		goto out;

	gs = calloc(1, sizeof *gs + (size_t)n * ETH_GSTRING_LEN);
	st = calloc(1, sizeof *st + (size_t)n * sizeof(uint64_t));
	if (!gs || !st)
		goto oom;
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_STATS;
	gs->len = n;
	ifr.ifr_data = (void *)gs;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		goto out;
	st->cmd = ETHTOOL_GSTATS;
	st->n_stats = n;
	ifr.ifr_data = (void *)st;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		goto out;
	/* The kernel may shrink the counts if the set changed in between. */
	if (gs->len < n)
		n = gs->len;
	if (st->n_stats < n)
		n = st->n_stats;

	buf_adds(doc, "@@ ethtool\nNIC statistics:\n");
	for (uint32_t i = 0; i < n; i++) {
		const char *name = (const char *)gs->data + i * ETH_GSTRING_LEN;
		buf_addf(doc, "     %.*s: %llu\n", ETH_GSTRING_LEN, name,
			 (unsigned long long)st->data[i]);
	}
	rc = doc->truncated ? -XR_ENOMEM : 0;
	goto out;
oom:
	rc = -XR_ENOMEM;
out:
	free(ss);
	free(gs);
	free(st);
	return rc;
}

/*
 * Capture tools running on this machine, from /proc/N/comm. Reading the
 * comm of every process is most of the cost of a local snapshot (hundreds
 * of opens, twice per run), so a list at most CAPTURE_REUSE_S old is
 * reused: a run of a second or more (every iperf3 run) always gets a
 * fresh look before and after; back-to-back short runs see a tool started
 * within the last second one run later (docs/hosts.md).
 */
#define CAPTURE_REUSE_S 1.0

static int scan_procs(struct buf *out)
{
	char path[300], comm[32];
	struct dirent *de;
	DIR *d = opendir("/proc");

	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "%s/comm", de->d_name);
		if (read_small(dirfd(d), path, comm, sizeof comm) <= 0)
			continue;
		if (counters_is_capture_tool(comm))
			buf_addf(out, "%s\n", comm);
	}
	closedir(d);
	return out->truncated ? -XR_ENOMEM : 0;
}

/* The list of add_procs is one for the process: any reader's thread. */
static pthread_mutex_t procs_lock = PTHREAD_MUTEX_INITIALIZER;

static int add_procs(struct buf *doc)
{
	static struct buf last = BUF_INIT;
	static double last_at = -1e9;
	double now = proc_now_mono();

	buf_adds(doc, "@@ procs\n");
	if (now - last_at >= CAPTURE_REUSE_S || now < last_at) {
		buf_reset(&last);
		if (scan_procs(&last) < 0) {
			last_at = -1e9;
			return -XR_ENOMEM;
		}
		last_at = now;
	}
	if (last.len)
		buf_add(doc, last.s, last.len);
	return doc->truncated ? -XR_ENOMEM : 0;
}

/* The process-wide reader (counters_local_document): the sampler's
 * thread of this machine and the run loop both take local snapshots. */
static pthread_mutex_t local_lock = PTHREAD_MUTEX_INITIALIZER;
static struct counters_reader local_reader = {0, -1, -1,	  -1,
					      0, 0,  {{NULL, -1}}};

/* Per-namespace /proc files: /proc/net follows the thread-group leader,
 * /proc/thread-self/net the calling thread (after setns). */
static const char snmp_path[] = "/proc/net/snmp",
		  netstat_path[] = "/proc/net/netstat",
		  snmp_ts_path[] = "/proc/thread-self/net/snmp",
		  netstat_ts_path[] = "/proc/thread-self/net/netstat";

/*
 * One counter group's sections of the document, read here: doc_ID for
 * each row of COUNTER_GROUP_MAP (runner/desc/counter_group.h), which the
 * table below takes by the row's id, so that a group without its reader
 * does not compile.
 */
static int doc_NIC(struct counters_reader *r, const char *iface,
		   struct buf *doc)
{
	int rc;
	if (!iface)
		return 0;
	rc = add_netdev(r, doc, iface);
	if (rc == 0)
		rc = add_ethtool(r, doc, iface);
	if (rc == 0)
		rc = add_qdisc(r, doc, iface);
	return rc;
}

static int doc_TCP(struct counters_reader *r, const char *iface,
		   struct buf *doc)
{
	int rc;
	(void)iface;
	buf_adds(doc, "@@ snmp\n");
	rc = add_file(r, doc, r->netns ? snmp_ts_path : snmp_path);
	buf_adds(doc, "@@ netstat\n");
	if (rc == 0)
		rc =
		    add_file(r, doc, r->netns ? netstat_ts_path : netstat_path);
	return rc;
}

static int doc_CPU(struct counters_reader *r, const char *iface,
		   struct buf *doc)
{
	int rc;
	(void)iface;
	/* not per namespace */
	buf_adds(doc, "@@ stat\n");
	rc = add_file(r, doc, "/proc/stat");
	buf_adds(doc, "@@ softirqs\n");
	if (rc == 0)
		rc = add_file(r, doc, "/proc/softirqs");
	return rc;
}

static int doc_CAPTURE(struct counters_reader *r, const char *iface,
		       struct buf *doc)
{
	int rc;
	(void)r, (void)iface;
	pthread_mutex_lock(&procs_lock);
	rc = add_procs(doc);
	pthread_mutex_unlock(&procs_lock);
	return rc;
}

static int (*const group_docs[COUNTER_GROUP_COUNT])(struct counters_reader *,
						    const char *,
						    struct buf *) = {
#define COUNTERS_GROUP_DOC(id, name, letter, os, doc)                          \
	[COUNTER_GROUP_##id] = doc_##id,
    COUNTER_GROUP_MAP(COUNTERS_GROUP_DOC)
#undef COUNTERS_GROUP_DOC
};

int counters_reader_document(struct counters_reader *r, const char *iface,
			     unsigned what, struct buf *doc)
{
	int rc = buf_adds(doc, "@@ xrun-counters 1\n");
	for (int g = 0; rc == 0 && g < COUNTER_GROUP_COUNT; g++)
		if (what & (1u << g))
			rc = group_docs[g](r, iface, doc);
	if (rc == 0 && doc->truncated)
		rc = -XR_ENOMEM;
	return rc;
}

int counters_local_document(const char *iface, unsigned what, struct buf *doc)
{
	int rc;
	pthread_mutex_lock(&local_lock);
	rc = counters_reader_document(&local_reader, iface, what, doc);
	pthread_mutex_unlock(&local_lock);
	return rc;
}

/* The section letters of what (the groups' letter column), or "-" for
 * none. */
void counters_letters(unsigned what, char letters[8])
{
	size_t k = 0;
	for (int g = 0; g < COUNTER_GROUP_COUNT && k < 7; g++)
		if (what & (1u << g))
			letters[k++] = counter_group_letter(g)[0];
	if (k == 0)
		letters[k++] = '-';
	letters[k] = '\0';
}

static int remote_document(struct host *h, const char *iface, unsigned what,
			   struct buf *doc, struct xr_err *err)
{
	char letters[8];
	const char *argv[7];

	counters_letters(what, letters);
	if (host_os(h) != PLAN_OS_LINUX)
		return hostos_read(h, HOSTOS_COUNTERS, iface, letters, doc,
				   err);
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = counters_remote_script();
	argv[3] = "sh";
	argv[4] = iface ? iface : "";
	argv[5] = letters;
	argv[6] = NULL;
	return sysread_run(h, argv, 20.0, doc, err);
}

int counters_snapshot(struct host *h, const char *iface, unsigned what,
		      struct counters_snap **out, struct xr_err *err)
{
	struct buf doc;
	int rc;

	*out = NULL;
	if (iface &&
	    hostos_iface_ok(sysread_is_local(h) ? PLAN_OS_LINUX : host_os(h),
			    iface, err) < 0)
		return -XR_EUSAGE;
	buf_init(&doc, 64 << 20);
	if (sysread_is_local(h)) {
		rc = counters_local_document(iface, what, &doc);
		if (rc < 0)
			xr_err_set(err, rc, NULL, 0, 0,
				   "counter snapshot on host '%s' is too "
				   "large or out of memory",
				   sysread_host_name(h));
	} else {
		rc = remote_document(h, iface, what, &doc, err);
	}
	if (rc == 0) {
		rc = counters_parse(doc.s, doc.len, out);
		if (rc < 0)
			xr_err_set(err, rc, NULL, 0, 0,
				   "cannot parse the counter snapshot of host "
				   "'%s'",
				   sysread_host_name(h));
	}
	if (rc == 0 && counters_snap_missing_iface(*out)) {
		counters_snap_free(*out);
		*out = NULL;
		rc = xr_err_set(err, XR_EENV, NULL, 0, 0,
				"no interface '%s' on host '%s' (see `%s` "
				"there for valid names)",
				iface, sysread_host_name(h),
				sysread_is_local(h) ? "ip link"
				: host_os(h) == PLAN_OS_WINDOWS
				    ? "Get-NetAdapter"
				: host_os(h) == PLAN_OS_MACOS ? "ifconfig -l"
							      : "ip link");
	}
	buf_release(&doc);
	return rc;
}
