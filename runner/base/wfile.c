/*
 * wfile: the one writer of the files xrun writes for the user (wfile.h).
 * What it guards against: writing a report over the store it was read from,
 * over a device node or a FIFO (or hanging on one), through a planted
 * symbolic link, and leaving a cut file in place of a good one when the
 * disk fills or the process is killed.
 *
 * SPDX-License-Identifier: MIT
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "buf.h"
#include "wfile.h"
#include "banned.h"

struct guard {
	char *path, *what;
	int sidecars;
};
static struct guard *guards;
static size_t nguards;

static const char *const sidecar_suffix[] = {"", "-wal", "-shm", "-journal",
					     ".lock"};

int wfile_protect(const char *path, const char *what, int sidecars)
{
	struct guard *g = realloc(guards, (nguards + 1) * sizeof *g);
	if (!g)
		return -XR_ENOMEM;
	guards = g;
	g += nguards;
	g->path = strdup(path);
	g->what = strdup(what);
	g->sidecars = sidecars;
	if (!g->path || !g->what) {
		free(g->path);
		free(g->what);
		return -XR_ENOMEM;
	}
	nguards++;
	return 0;
}

/* The folder of path ("." when it names none) into dir, and where its
 * last component starts. */
static size_t split_dir(const char *path, struct buf *dir)
{
	const char *slash = strrchr(path, '/');
	if (!slash) {
		buf_adds(dir, ".");
		return 0;
	}
	if (slash == path)
		buf_adds(dir, "/");
	else
		buf_add(dir, path, (size_t)(slash - path));
	return (size_t)(slash - path) + 1;
}

/* path with its folder resolved ("./a/../r.pdf" -> "/abs/r.pdf"); the last
 * component is kept as it is (it may not exist, or be a link). 0, or
 * -XR_ENOMEM: then nothing may be concluded from out (issue 24: a check
 * that ran out of memory must not pass the store as another file). */
static int canon(const char *path, struct buf *out)
{
	struct buf dir = BUF_INIT;
	size_t base = split_dir(path, &dir);
	char *real = dir.len ? realpath(dir.s, NULL) : NULL;
	int bad = !dir.len || (!real && errno == ENOMEM);

	bad |= buf_adds(out, real ? real : dir.s) < 0;
	if (!out->len || out->s[out->len - 1] != '/')
		bad |= buf_addc(out, '/') < 0;
	bad |= buf_adds(out, path + base) < 0;
	free(real);
	buf_release(&dir);
	return bad ? -XR_ENOMEM : 0;
}

/* Whether target (canonical ct, stat st when have_st) is name: 1, 0, or
 * -XR_ENOMEM. */
static int same_file(const char *ct, const struct stat *st, int have_st,
		     const char *name)
{
	struct buf cn = BUF_INIT;
	struct stat ns;
	int same;

	if (canon(name, &cn) < 0) {
		buf_release(&cn);
		return -XR_ENOMEM;
	}
	same = !strcmp(ct, cn.s) ||
	       (have_st && stat(name, &ns) == 0 && ns.st_dev == st->st_dev &&
		ns.st_ino == st->st_ino);
	buf_release(&cn);
	return same;
}

/* 1 + the index in sidecar_suffix[] when path is guard g's file or one
 * of its sidecars, else 0; -XR_ENOMEM when that cannot be told. */
static int guarded_by(const struct guard *g, const char *ct,
		      const struct stat *st, int have_st)
{
	size_t n =
	    g->sidecars ? sizeof sidecar_suffix / sizeof *sidecar_suffix : 1;
	char *real = realpath(g->path, NULL);
	struct buf name = BUF_INIT;
	int hit = 0;

	if (!real && errno == ENOMEM)
		hit = -XR_ENOMEM;
	for (size_t i = 0; i < n && !hit; i++) {
		for (int r = 0; r < 2 && !hit; r++) {
			const char *p = r ? real : g->path;
			int same;
			if (!p)
				continue;
			buf_reset(&name);
			if (buf_addf(&name, "%s%s", p, sidecar_suffix[i]) < 0)
				same = -XR_ENOMEM;
			else
				same = same_file(ct, st, have_st, name.s);
			hit = same < 0 ? same : same ? (int)i + 1 : 0;
		}
	}
	buf_release(&name);
	free(real);
	return hit;
}

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m) || S_ISBLK(m))
		return "a device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* 1 when the regular file at path starts as an SQLite database or WAL
 * file. Opened without following a link or blocking on a FIFO swapped in
 * since lstat; unreadable counts as no. */
static int is_sqlite(const char *path)
{
	static const char magic[16] = "SQLite format 3";
	unsigned char h[16];
	struct stat st;
	ssize_t n = 0;
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		do
			n = read(fd, h, sizeof h);
		while (n < 0 && errno == EINTR);
	}
	close(fd);
	if (n == (ssize_t)sizeof h && !memcmp(h, magic, sizeof magic))
		return 1;
	/* A WAL file: big-endian 0x377f0682 or 0x377f0683. */
	return n >= 4 && h[0] == 0x37 && h[1] == 0x7f && h[2] == 0x06 &&
	       (h[3] & 0xfe) == 0x82;
}

int wfile_check(const char *path, struct xr_err *err)
{
	struct buf ct = BUF_INIT;
	struct stat st, fst;
	int have_lst, have_st, hit, rc = 0;
	size_t i;

	if (!*path)
		return xr_err_set(err, XR_EUSAGE, NULL, 0, 0,
				  "empty output file name");
	have_lst = lstat(path, &st) == 0;
	if (!have_lst && errno != ENOENT)
		return xr_err_set(err, XR_EIO, path, 0, 0,
				  "cannot write '%s': %s", path,
				  strerror(errno));
	have_st = stat(path, &fst) == 0;
	if (canon(path, &ct) < 0)
		rc = -XR_ENOMEM;
	for (i = 0; i < nguards && rc == 0; i++)
		if ((hit = guarded_by(&guards[i], ct.s, &fst, have_st)) < 0)
			rc = xr_err_set(err, XR_ENOMEM, path, 0, 0,
					"out of memory checking that '%s' is "
					"not %s",
					path, guards[i].what);
		else if (hit)
			rc = xr_err_set(
			    err, XR_EUSAGE, path, 0, 0,
			    "refusing to write '%s': it is %s%s%s%s", path,
			    guards[i].what, hit > 1 ? "'s " : "",
			    sidecar_suffix[hit - 1], hit > 1 ? " file" : "");
	buf_release(&ct);
	if (rc == -XR_ENOMEM && !(err && err->msg[0]))
		xr_err_set(err, XR_ENOMEM, path, 0, 0,
			   "out of memory checking '%s'", path);
	if (rc < 0 || !have_lst)
		return rc;
	if (S_ISLNK(st.st_mode))
		return xr_err_set(err, XR_EUSAGE, path, 0, 0,
				  "refusing to write '%s': it is a symbolic "
				  "link (xrun never writes through one; "
				  "remove it or name its target)",
				  path);
	if (!S_ISREG(st.st_mode))
		return xr_err_set(err, XR_EUSAGE, path, 0, 0,
				  "refusing to write '%s': it is %s, not a "
				  "regular file",
				  path, kind_of(st.st_mode));
	if (is_sqlite(path))
		return xr_err_set(err, XR_EUSAGE, path, 0, 0,
				  "refusing to write '%s': it is an SQLite "
				  "database (a store?)",
				  path);
	return 0;
}

static int write_error(const char *path, int e, struct xr_err *err)
{
	if (e == ENOSPC)
		return xr_err_set(err, XR_EIO, path, 0, 0,
				  "no space left on device writing '%s'", path);
	if (e == EDQUOT)
		return xr_err_set(err, XR_EIO, path, 0, 0,
				  "disk quota exceeded writing '%s'", path);
	return xr_err_set(err, XR_EIO, path, 0, 0, "cannot write '%s': %s",
			  path, e ? strerror(e) : "write error");
}

/* A name no one can guess, so that no link can be planted for it. */
static void random_suffix(char *s, size_t n)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[16];
	size_t i;

	if (n > sizeof r)
		n = sizeof r;
	if (getrandom(r, n, GRND_NONBLOCK) != (ssize_t)n) {
		struct timespec ts;
		uint64_t x;
		clock_gettime(CLOCK_MONOTONIC, &ts);
		x = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 32) ^
		    (uint64_t)(uintptr_t)r;
		for (i = 0; i < n; i++, x = x * 6364136223846793005u + 1)
			r[i] = (unsigned char)(x >> 56);
	}
	for (i = 0; i < n; i++)
		s[i] = abc[r[i] % (sizeof abc - 1)];
	s[n] = 0;
}

/* A new temporary ".<name>.<random>.tmp" in path's folder, opened for
 * writing; its name in tmp. The fd, or -1 with errno set. */
static int open_temp(const char *path, struct buf *tmp)
{
	struct buf dir = BUF_INIT;
	size_t base = split_dir(path, &dir);
	char rnd[13];
	int fd = -1, tries;

	if (!dir.len) /* no memory: "" would put it in / */
		errno = ENOMEM;
	for (tries = dir.len ? 0 : 100; tries < 100 && fd < 0; tries++) {
		random_suffix(rnd, sizeof rnd - 1);
		buf_reset(tmp);
		if (buf_addf(tmp, "%s/.%s.%s.tmp", dir.s, path + base, rnd) <
		    0) {
			errno = ENOMEM;
			break;
		}
		fd = open(tmp->s,
			  O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			  0666);
		if (fd < 0 && errno != EEXIST)
			break;
	}
	buf_release(&dir);
	return fd;
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -XR_EIO;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Make the rename itself durable; a folder that cannot be synced is not
 * an error (some file systems refuse). dir: the target's folder, found
 * before the rename (memory running out then leaves the old file). */
static void sync_dir(const char *dir)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

/* The replaced file's permissions onto the temporary fd (a report kept
 * 0600 stays 0600, not the umask's 0644); nothing for a new file. */
static void keep_mode(int fd, const char *path)
{
	struct stat old;
	if (lstat(path, &old) == 0 && S_ISREG(old.st_mode))
		(void)fchmod(fd, old.st_mode & 07777);
}

/* The written temporary tmp (closed; e: the first error writing it, or
 * 0) renamed over path, after path is checked again: while we wrote, the
 * target may have become a symbolic link, a FIFO or the store. On any
 * failure tmp is removed and the previous file stays; on success the
 * rename is made durable in dir. 0, or the code of wfile_check, or
 * -XR_EIO. */
static int replace(const char *tmp, const char *path, const char *dir, int e,
		   struct xr_err *err)
{
	int rc = 0;
	if (!e && (rc = wfile_check(path, err)) == 0 && rename(tmp, path) < 0)
		e = errno;
	if (e)
		rc = write_error(path, e, err);
	if (rc < 0)
		unlink(tmp);
	else
		sync_dir(dir);
	return rc;
}

int wfile_write(const char *path, const void *data, size_t len,
		struct xr_err *err)
{
	struct buf tmp = BUF_INIT, dir = BUF_INIT;
	int fd, e = 0, rc;

	if ((rc = wfile_check(path, err)) < 0)
		return rc;
	split_dir(path, &dir);
	if (!dir.len)
		return xr_err_set(err, XR_ENOMEM, path, 0, 0,
				  "out of memory writing '%s'", path);
	fd = open_temp(path, &tmp);
	if (fd < 0) {
		rc = write_error(path, errno, err);
		buf_release(&tmp);
		buf_release(&dir);
		return rc;
	}
	keep_mode(fd, path);
	if (write_all(fd, data, len) < 0 || fsync(fd) < 0)
		e = errno;
	if (close(fd) < 0 && !e)
		e = errno;
	rc = replace(tmp.s, path, dir.s, e, err);
	buf_release(&tmp);
	buf_release(&dir);
	return rc;
}

/* A stream into a temporary (wfile_open); its first write error kept. */
struct wfile {
	FILE *f;
	int fd, e;
	int dropping; /* aborted: what stdio still holds is not written */
	struct buf path, tmp, dir;
};

static ssize_t wfile_cookie_write(void *cookie, const char *p, size_t n)
{
	struct wfile *w = cookie;
	if (w->dropping)
		return (ssize_t)n;
	if (!w->e && write_all(w->fd, p, n) < 0)
		w->e = errno ? errno : EIO;
	if (w->e) {
		errno = w->e;
		return 0; /* an error, for stdio */
	}
	return (ssize_t)n;
}

static void wfile_free(struct wfile *w)
{
	buf_release(&w->path);
	buf_release(&w->tmp);
	buf_release(&w->dir);
	free(w);
}

int wfile_open(const char *path, struct wfile **out, FILE **f,
	       struct xr_err *err)
{
	cookie_io_functions_t io = {NULL, wfile_cookie_write, NULL, NULL};
	struct wfile *w;
	int rc;

	*out = NULL;
	*f = NULL;
	if ((rc = wfile_check(path, err)) < 0)
		return rc;
	if (!(w = calloc(1, sizeof *w)))
		return xr_err_set(err, XR_ENOMEM, path, 0, 0,
				  "out of memory writing '%s'", path);
	split_dir(path, &w->dir);
	if (!w->dir.len || buf_adds(&w->path, path) < 0) {
		wfile_free(w);
		return xr_err_set(err, XR_ENOMEM, path, 0, 0,
				  "out of memory writing '%s'", path);
	}
	if ((w->fd = open_temp(path, &w->tmp)) < 0) {
		rc = write_error(path, errno, err);
		wfile_free(w);
		return rc;
	}
	keep_mode(w->fd, path);
	if (!(w->f = fopencookie(w, "w", io))) {
		close(w->fd);
		unlink(w->tmp.s);
		wfile_free(w);
		return xr_err_set(err, XR_ENOMEM, path, 0, 0,
				  "out of memory writing '%s'", path);
	}
	*out = w;
	*f = w->f;
	return 0;
}

int wfile_commit(struct wfile *w, struct xr_err *err)
{
	int e, rc;

	if (fclose(w->f) != 0 && !w->e)
		w->e = errno ? errno : EIO;
	e = w->e;
	if (!e && fsync(w->fd) < 0)
		e = errno;
	if (close(w->fd) < 0 && !e)
		e = errno;
	rc = replace(w->tmp.s, w->path.s, w->dir.s, e, err);
	wfile_free(w);
	return rc;
}

int wfile_abort(struct wfile *w, int rc, struct xr_err *err)
{
	w->dropping = 1;
	fclose(w->f);
	close(w->fd);
	unlink(w->tmp.s);
	if (w->e)
		rc = write_error(w->path.s, w->e, err);
	wfile_free(w);
	return rc;
}
