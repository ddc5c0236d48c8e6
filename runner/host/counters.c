/*
 * Counter snapshots and their deltas. A snapshot is one text document in
 * sections ("@@ netdev", "@@ ethtool", "@@ snmp", "@@ netstat", "@@ stat",
 * "@@ softirqs", "@@ procs"): a local host builds it by reading sysfs and
 * /proc directly plus the ETHTOOL_GSTATS ioctl (no subprocess: it is taken
 * around every run), any other host by running one fixed sh script with
 * the interface as a positional argument. Both go through one parser, so
 * what is stored cannot depend on the transport. This file holds the
 * producers; counters_parse.c the parser and the deltas.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "buf.h"
#include "counters.h"
#include "counters_int.h"
#include "host.h"
#include "hostos.h"
#include "plan.h"
#include "proc.h"
#include "sysread.h"

#include "banned.h"

/*
 * The remote producer. $1 is the interface ("" for none), $2 a word of
 * section letters (n: netdev+ethtool, t: snmp+netstat, c: stat+softirqs,
 * p: procs). Neither is ever spliced into this text. ethtool lives in
 * /usr/sbin, which is not in a non-root ssh user's PATH on Debian.
 */
static const char counters_script[] =
    "PATH=$PATH:/usr/sbin:/sbin\n"
    "echo '@@ xrun-counters 1'\n"
    "case $2 in *n*)\n"
    "  if [ -n \"$1\" ]; then\n"
    "    if [ -d \"/sys/class/net/$1/statistics\" ]; then\n"
    "      echo '@@ netdev'\n"
    "      for f in \"/sys/class/net/$1/statistics/\"*; do\n"
    "        v=; { read -r v <\"$f\"; } 2>/dev/null\n"
    "        printf '%s %s\\n' \"${f##*/}\" \"$v\"\n"
    "      done\n"
    "      if command -v ethtool >/dev/null 2>&1; then\n"
    "        echo '@@ ethtool'; ethtool -S \"$1\" 2>/dev/null\n"
    "      fi\n"
    "    else echo '@@ noiface'; fi\n"
    "  fi;;\n"
    "esac\n"
    "case $2 in *t*)\n"
    "  echo '@@ snmp'; cat /proc/net/snmp\n"
    "  echo '@@ netstat'; cat /proc/net/netstat 2>/dev/null;;\n"
    "esac\n"
    "case $2 in *c*)\n"
    "  echo '@@ stat'; cat /proc/stat\n"
    "  echo '@@ softirqs'; cat /proc/softirqs;;\n"
    "esac\n"
    "case $2 in *p*)\n"
    "  echo '@@ procs'\n"
    "  for f in /proc/[0-9]*/comm; do\n"
    "    c=; { read -r c <\"$f\"; } 2>/dev/null\n"
    "    case $c in " COUNTERS_CAPTURE_CASE ") printf '%s\\n' \"$c\";; "
    "esac\n"
    "  done;;\n"
    "esac\n"
    "exit 0\n";

const char *counters_remote_script(void)
{
	return counters_script;
}

/* Append a small file; a missing or unreadable one adds nothing. */
static int add_file(struct buf *doc, const char *path)
{
	int rc = buf_read_file(doc, path, 4 << 20);
	if (rc == -XR_EIO)
		return 0;
	if (doc->len && doc->s[doc->len - 1] != '\n')
		buf_addc(doc, '\n');
	return rc;
}

/* Read a one-line sysfs/proc file (relative to dirfd) into out. Paths
 * relative to an open directory save a lookup per file, which matters
 * when /proc holds hundreds of processes. */
static ssize_t read_small(int dirfd, const char *path, char *out, size_t outsz)
{
	int fd = openat(dirfd, path, O_RDONLY | O_CLOEXEC);
	ssize_t n;
	if (fd < 0)
		return -1;
	do
		n = read(fd, out, outsz - 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	if (n < 0)
		return -1;
	while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' '))
		n--;
	out[n] = '\0';
	return n;
}

static int add_netdev(struct buf *doc, const char *iface)
{
	char dir[128], val[64];
	struct dirent *de;
	DIR *d;

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

/*
 * Written in `ethtool -S` form so that the remote path and this one meet
 * in the same parser. Interfaces without statistics (lo) add nothing.
 */
static int add_ethtool(struct buf *doc, const char *iface)
{
	struct ethtool_sset_info *ss = NULL;
	struct ethtool_gstrings *gs = NULL;
	struct ethtool_stats *st = NULL;
	struct ifreq ifr;
	uint32_t n;
	int fd, rc = 0;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
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
	close(fd);
	return rc;
}

static int add_procs(struct buf *doc)
{
	char path[300], comm[32];
	struct dirent *de;
	DIR *d = opendir("/proc");

	buf_adds(doc, "@@ procs\n");
	if (!d)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof path, "%s/comm", de->d_name);
		if (read_small(dirfd(d), path, comm, sizeof comm) <= 0)
			continue;
		if (counters_is_capture_tool(comm))
			buf_addf(doc, "%s\n", comm);
	}
	closedir(d);
	return doc->truncated ? -XR_ENOMEM : 0;
}

int counters_local_document(const char *iface, unsigned what, struct buf *doc)
{
	int rc = buf_adds(doc, "@@ xrun-counters 1\n");
	if (rc == 0 && (what & PLAN_COUNTER_NIC) && iface) {
		rc = add_netdev(doc, iface);
		if (rc == 0)
			rc = add_ethtool(doc, iface);
	}
	if (rc == 0 && (what & PLAN_COUNTER_TCP)) {
		buf_adds(doc, "@@ snmp\n");
		rc = add_file(doc, "/proc/net/snmp");
		buf_adds(doc, "@@ netstat\n");
		if (rc == 0)
			rc = add_file(doc, "/proc/net/netstat");
	}
	if (rc == 0 && (what & PLAN_COUNTER_CPU)) {
		buf_adds(doc, "@@ stat\n");
		rc = add_file(doc, "/proc/stat");
		buf_adds(doc, "@@ softirqs\n");
		if (rc == 0)
			rc = add_file(doc, "/proc/softirqs");
	}
	if (rc == 0 && (what & PLAN_COUNTER_CAPTURE))
		rc = add_procs(doc);
	if (rc == 0 && doc->truncated)
		rc = -XR_ENOMEM;
	return rc;
}

/* The section letters of what: n t c p, or "-" for none. */
static void letters_of(unsigned what, char letters[8])
{
	size_t k = 0;
	if (what & PLAN_COUNTER_NIC)
		letters[k++] = 'n';
	if (what & PLAN_COUNTER_TCP)
		letters[k++] = 't';
	if (what & PLAN_COUNTER_CPU)
		letters[k++] = 'c';
	if (what & PLAN_COUNTER_CAPTURE)
		letters[k++] = 'p';
	if (k == 0)
		letters[k++] = '-';
	letters[k] = '\0';
}

static int remote_document(struct host *h, const char *iface, unsigned what,
			   struct buf *doc, struct xr_err *err)
{
	char letters[8];
	const char *argv[7];

	letters_of(what, letters);
	if (host_os(h) != PLAN_OS_LINUX)
		return hostos_read(h, HOSTOS_COUNTERS, iface, letters, doc,
				   err);
	argv[0] = "sh";
	argv[1] = "-c";
	argv[2] = counters_script;
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
		rc = xr_err_set(err, XR_EHOST, NULL, 0, 0,
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
