/*
 * Allocation-failure injection for tests/e2e/fault_oom.sh: an LD_PRELOAD
 * shim that lets the first XR_FAILMALLOC allocations (malloc, calloc,
 * realloc, counted from the start of main: what the libraries' own
 * constructors allocate before is not xrun's to handle) succeed and makes
 * every later one fail with ENOMEM, as a process that has used up its
 * memory sees it. XR_FAILMALLOC_COUNT=FILE writes the number of
 * allocations made to FILE at exit (a run without XR_FAILMALLOC counts
 * how many points there are to fail at). The real allocator is the next
 * one in the search order (dlsym RTLD_NEXT): glibc's, or ASan's when the
 * shim is preloaded before libasan.
 *
 * SPDX-License-Identifier: MIT
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static void (*real_free)(void *);
static unsigned long limit = (unsigned long)-1, count;
static int resolving, armed;

/* dlsym may itself call calloc: serve it from here */
static char boot[8192];
static size_t boot_used;

static void *boot_alloc(size_t n)
{
	void *p;
	n = (n + 15) & ~(size_t)15;
	if (boot_used + n > sizeof boot)
		return NULL;
	p = boot + boot_used;
	boot_used += n;
	return p;
}

static int in_boot(const void *p)
{
	return (const char *)p >= boot && (const char *)p < boot + sizeof boot;
}

static void resolve(void)
{
	if (real_malloc || resolving)
		return;
	resolving = 1;
	real_malloc = (void *(*)(size_t))dlsym(RTLD_NEXT, "malloc");
	real_calloc = (void *(*)(size_t, size_t))dlsym(RTLD_NEXT, "calloc");
	real_realloc = (void *(*)(void *, size_t))dlsym(RTLD_NEXT, "realloc");
	real_free = (void (*)(void *))dlsym(RTLD_NEXT, "free");
	resolving = 0;
}

static int fail_now(void)
{
	if (!armed)
		return 0;
	if (++count > limit) {
		errno = ENOMEM;
		return 1;
	}
	return 0;
}

void *malloc(size_t n)
{
	resolve();
	if (!real_malloc)
		return boot_alloc(n);
	return fail_now() ? NULL : real_malloc(n);
}

void *calloc(size_t a, size_t b)
{
	resolve();
	if (!real_calloc)
		return boot_alloc(a * b); /* boot is zeroed, used once */
	return fail_now() ? NULL : real_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
	resolve();
	if (in_boot(p) || !real_realloc)
		return NULL;
	return fail_now() ? NULL : real_realloc(p, n);
}

void free(void *p)
{
	if (!p || in_boot(p))
		return;
	resolve();
	if (real_free)
		real_free(p);
}

/* main is reached through __libc_start_main: arm the counter there */
typedef int (*main_fn)(int, char **, char **);
static main_fn real_main;

static int armed_main(int argc, char **argv, char **envp)
{
	/* read here: the first allocations (ASan's start) come before the
	 * environment can be read */
	const char *s = getenv("XR_FAILMALLOC");
	if (s && *s)
		limit = strtoul(s, NULL, 10);
	armed = 1;
	return real_main(argc, argv, envp);
}

int __libc_start_main(main_fn m, int argc, char **argv, void (*init)(void),
		      void (*fini)(void), void (*rtld_fini)(void), void *stack)
{
	int (*start)(main_fn, int, char **, void (*)(void), void (*)(void),
		     void (*)(void), void *);
	start = (int (*)(main_fn, int, char **, void (*)(void), void (*)(void),
			 void (*)(void), void *))dlsym(RTLD_NEXT,
						       "__libc_start_main");
	real_main = m;
	return start(armed_main, argc, argv, init, fini, rtld_fini, stack);
}

__attribute__((destructor)) static void failmalloc_count(void)
{
	const char *path = getenv("XR_FAILMALLOC_COUNT");
	char line[32];
	int fd, n;
	if (!path || !*path)
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return;
	n = snprintf(line, sizeof line, "%lu\n", count);
	if (write(fd, line, (size_t)n) != n)
		n = 0;
	close(fd);
}
