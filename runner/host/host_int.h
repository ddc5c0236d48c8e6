/*
 * Internals shared by the host transports (host.c: table, local, netns,
 * quoting; host_ssh.c: OpenSSH). Not for other modules: use host.h.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_HOST_INT_H
#define XR_HOST_INT_H

#include <stddef.h>

#include "host.h"
#include "strv.h"
#include "plan.h"

/* wrap's flags. BACKGROUND: a long-lived child (a server). FARPID: the
 * far side says its process id first on stderr (host_ssh.c strips it
 * again), so that a far side that stalls past the local deadline can be
 * killed over a second connection. */
#define HOST_WRAP_BACKGROUND 1u
#define HOST_WRAP_FARPID 2u
/* WATCH: on a Linux sh host the command is exec'd by a far sh that first
 * leaves an empty file named for its pid (HOST_WATCH_FILE), which the
 * host's far sampler loop reads (counters.c, sampler_engine.c). */
#define HOST_WRAP_WATCH 4u

/* One transport (after Redis's ConnectionType). */
struct host_ops {
	const char *kind;
	int (*open)(struct host *h, const char *control_dir,
		    struct xr_err *err);
	void (*close)(struct host *h);
	/* Build the local argv for argv on h. timeout > 0 asks for a
	 * far-side deadline; flags: HOST_WRAP_*. */
	int (*wrap)(struct host *h, const char *const *argv,
		    const char *const *env, double timeout, unsigned flags,
		    struct strv *out);
	/* Added to the local deadline so that the far side's own deadline
	 * fires first and reports normally. */
	double margin;
	/* Read a finished run in the transport's terms (NULL: as is). */
	void (*finish)(struct host *h, const struct proc_opts *o,
		       struct proc_result *res);
	/* Is the connection up (host_check)? NULL: always. */
	int (*check)(struct host *h, struct buf *why);
};

struct host {
	const struct host_ops *ops;
	char *name, *address, *iface;
	char *ssh, *identity, *netns;
	int port;
	enum plan_shell shell;
	enum plan_os os;
	int os_known;  /* os given by the plan, or detected once */
	int detecting; /* asking uname -s: the OS is not known yet */
	struct strv ssh_options;
	struct strv path;	      /* plan's path:, before the far PATH */
	char *cache_key, *cache_text; /* host_cache_get/set */
	/* ssh: ControlPath directory and whether we created it. */
	char *control_dir;
	int own_control_dir;
	char *target; /* "user@host" as given */
	/* The transport failed (host_is_down): since when (wall clock), and
	 * what ssh said. */
	int down;
	double down_since;
	char down_why[256];
	/* The persistent shell of the host readings (host_session.c), NULL
	 * until first used and after host_close; a session killed at a
	 * deadline keeps its record (what it learned, e.g. that inline
	 * PowerShell scripts fail there) with no shell running until the
	 * next reading starts one. session_off: the plan's session: false. */
	struct host_session *session;
	int session_off;
	/* ssh: the random word of this session's watch files ("" before
	 * host_open), host_watch_token. */
	char watch_token[17];
	int watch_used;	 /* a command was wrapped so: host_close removes
			  * the files left over there */
	long master_pid; /* ssh: the ControlMaster's, host_conn_changed */
};

/* Mark h down with why (the first line kept); the time of the first mark
 * stays until host_check finds it up again. */
void host_mark_down(struct host *h, const char *why);

extern const struct host_ops host_ssh_ops;

/* The address an ssh host is reached at when the plan gives no address:
 * the HostName `ssh -G` reports (~/.ssh/config applied, no connection),
 * else the host part of ssh:. OUT: caller frees; NULL when out of memory. */
char *host_ssh_address(struct host *h);

/* host_ssh.c for host_session.c: the command string the far shell
 * parses for argv (far-side deadline included on sh hosts; none on
 * PowerShell hosts, whose wrapper ends in `exit`), the local argv of the
 * session's shell (`ssh -T ... -- TARGET 'sh -s'` or PowerShell reading
 * stdin), and ssh_finish's reading of a result. */
struct buf;
int host_ssh_remote(struct host *h, const char *const *argv,
		    const char *const *env, double timeout, struct buf *cmd);
int host_ssh_shell_argv(struct host *h, struct strv *out);
void host_ssh_finish(struct host *h, const struct proc_opts *o,
		     struct proc_result *res);
/* host_session.c: stop h's session (closing its stdin, then its group). */
void host_session_stop(struct host *h);

#endif
