/*
 * proc's registry of live process groups (each child leads one, leader pid
 * == pgid): what a deadline, an interrupt or exit kills (proc_group.c),
 * and what tells an orphan from a member of a running command
 * (proc_orphan.c). Read by the signal handler, so entries are plain ints
 * written in one store.
 *
 * SPDX-License-Identifier: MIT
 */
#include <signal.h>
#include <sys/types.h>

#include "proc_int.h"
#include "banned.h"

static volatile sig_atomic_t groups[PROC_MAX_GROUPS];

void proc_int_group_add(pid_t pgid)
{
	int i;
	for (i = 0; i < PROC_MAX_GROUPS; i++)
		if (groups[i] == 0) {
			groups[i] = pgid;
			return;
		}
	/* Full: the group is still killed by its own proc_run/proc_stop. */
}

int proc_int_group_known(pid_t pgid)
{
	int i;
	for (i = 0; i < PROC_MAX_GROUPS; i++)
		if (groups[i] == pgid)
			return 1;
	return 0;
}

void proc_int_group_del(pid_t pgid)
{
	int i;
	for (i = 0; i < PROC_MAX_GROUPS; i++)
		if (groups[i] == pgid)
			groups[i] = 0;
}

pid_t proc_int_group_slot(int i)
{
	return (pid_t)groups[i];
}
