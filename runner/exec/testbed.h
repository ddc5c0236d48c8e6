/*
 * A shard's testbed (testbed.c; docs/shards.md): its name as the store
 * and the report know it, and the lock that keeps a second shard off the
 * same bench while one runs. Private to runner/exec.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef XR_TESTBED_H
#define XR_TESTBED_H

struct buf;
struct plan;
struct plan_host;
struct runctx;
struct xr_err;

/* given (--testbed), else "label=identity, ..." of the hosts the plan
 * uses: the machine's hostname, HOSTNAME/netns:NAME, ssh:USER@HOST[:PORT]. */
void testbed_name(const struct plan *p, const char *given, struct buf *out);

/* With --shard: take the lock on the plan's client host, waiting up to
 * o->lock_wait seconds while another run holds it. 0, or -XR_EENV with
 * the holder's tag (busy, or the lock cannot be made). */
int testbed_lock(struct runctx *rc, struct xr_err *err);
/* Release it (no-op when not held). */
void testbed_unlock(struct runctx *rc);

/* The lock directory on client host h: /tmp/xrun-testbed.lock, or
 * /tmp/xrun-testbed.netns-NAME.lock for a namespace of this machine. */
void testbed_lock_path(const struct plan_host *h, struct buf *out);
/* Whether a lock's tag ("controller HOST pid PID ...") names a process of
 * this machine that no longer runs (a lock to take over); 0 for a holder
 * on another controller, whatever its pid. */
int testbed_tag_stale(const char *tag);

#endif
