/* Unit tests for wfile.c, the one writer: what it refuses (the protected
 * store and its sidecars under any name, SQLite files, links, FIFOs,
 * devices, folders), that it never follows a planted link, that a refused
 * or failed write keeps the old file, and that it leaves no temporary.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "buf.h"
#include "tap.h"
#include "wfile.h"

static char dir[] = "/tmp/xr-wfile-XXXXXX";

static void put(const char *name, const char *text)
{
	FILE *f = fopen(name, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

static int has(const char *name, const char *text)
{
	struct buf b = BUF_INIT;
	int same = buf_read_file(&b, name, 0) == 0 && !strcmp(b.s, text);
	buf_release(&b);
	return same;
}

/* Entries of the folder whose name starts with a dot (temporaries). */
static int hidden(void)
{
	DIR *d = opendir(".");
	struct dirent *e;
	int n = 0;
	while (d && (e = readdir(d)))
		n += e->d_name[0] == '.' && strcmp(e->d_name, ".") &&
		     strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

static int code(const char *path, const char *text)
{
	struct xr_err err = {0};
	return wfile_write(path, text, strlen(text), &err);
}

/* The same as a stream (wfile_open): committed it replaces the file,
 * aborted it leaves the old one and no temporary, refused it opens
 * nothing; while it is written the target is still the old file. */
static void streamed(void)
{
	struct xr_err err = {0};
	struct wfile *w;
	FILE *f;
	int rc;
	put("s.json", "old\n");
	rc = wfile_open("s.json", &w, &f, &err);
	ok(rc == 0 && f && fputs("new, ", f) >= 0 &&
	       fputs("streamed\n", f) >= 0,
	   "a stream opened and written");
	ok(has("s.json", "old\n") && hidden() == 1,
	   "while it is written: the old file, one temporary");
	is_int(rc == 0 ? wfile_commit(w, &err) : rc, 0, "committed");
	ok(has("s.json", "new, streamed\n") && hidden() == 0,
	   "the new content, no temporary");
	rc = wfile_open("s.json", &w, &f, &err);
	ok(rc == 0 && fputs("half", f) >= 0 &&
	       wfile_abort(w, -XR_ENOMEM, &err) == -XR_ENOMEM,
	   "aborted: its code back");
	ok(has("s.json", "new, streamed\n") && hidden() == 0,
	   "aborted: the file as it was, no temporary");
	ok(wfile_open("fifo.md", &w, &f, &err) == -XR_EUSAGE && !w && !f &&
	       hidden() == 0,
	   "a FIFO refused before anything is opened");
}

int main(void)
{
	struct xr_err err = {0};
	struct stat st;
	const char *dev;
	char abs[64], rm[64];

	tap_plan(38);
	if (!mkdtemp(dir) || chdir(dir) != 0)
		tap_skip_all("cannot make a temporary folder");

	/* Plain writes: a new file, then a replaced one keeping its mode. */
	is_int(code("r.md", "one\n"), 0, "a new file is written");
	ok(has("r.md", "one\n"), "with its content");
	chmod("r.md", 0640);
	is_int(code("r.md", "two\n"), 0, "an existing file is replaced");
	ok(has("r.md", "two\n"), "with the new content");
	ok(stat("r.md", &st) == 0 && (st.st_mode & 0777) == 0640,
	   "keeping its permissions");
	is_int(hidden(), 0, "no temporary is left");

	/* The store and its sidecars, under any name. */
	put("s.db", "not yet a database");
	is_int(wfile_protect("s.db", "the store", 1), 0, "protect");
	is_int(wfile_write("s.db", "x", 1, &err), -XR_EUSAGE, "the store");
	ok(strstr(err.msg, "refusing to write 's.db': it is the store") != NULL,
	   "says why: %s", err.msg);
	is_int(code("./s.db", "x"), -XR_EUSAGE, "the store as ./s.db");
	snprintf(abs, sizeof abs, "%s/s.db", dir);
	is_int(code(abs, "x"), -XR_EUSAGE, "the store by its absolute name");
	ok(link("s.db", "hard.md") == 0 && code("hard.md", "x") == -XR_EUSAGE,
	   "a hard link to the store");
	is_int(code("s.db-wal", "x"), -XR_EUSAGE, "the store's -wal");
	is_int(code("s.db-shm", "x"), -XR_EUSAGE, "the store's -shm");
	is_int(code("s.db.lock", "x"), -XR_EUSAGE, "the store's .lock");
	ok(has("s.db", "not yet a database"), "the store is untouched");
	is_int(wfile_check("s.db2", &err), 0, "a name beside it is fine");

	/* Any SQLite database or WAL file. */
	FILE *f = fopen("other.json", "w");
	if (f) {
		fwrite("SQLite format 3\0 and pages", 1, 27, f);
		fclose(f);
	}
	ok(code("other.json", "x") == -XR_EUSAGE &&
	       has("other.json", "SQLite format 3"),
	   "an SQLite database, whatever its name");
	put("w.csv", "\x37\x7f\x06\x82 wal");
	is_int(code("w.csv", "x"), -XR_EUSAGE, "an SQLite WAL file");

	/* Not regular files: refused without opening (no hang on a FIFO). */
	ok(mkfifo("fifo.md", 0644) == 0 && code("fifo.md", "x") == -XR_EUSAGE,
	   "a FIFO");
	mkdir("sub.md", 0755);
	is_int(code("sub.md", "x"), -XR_EUSAGE, "a directory");
	/* A device of its own (a twin of /dev/null, 1:3): a writer that
	 * wrongly accepts devices replaces this node, not the machine's
	 * /dev/null (a mutant did, as root). Without root, /dev/null, which
	 * the test cannot replace. */
	dev = mknod("null.md", S_IFCHR | 0666, makedev(1, 3)) == 0
		  ? "null.md"
		  : "/dev/null";
	is_int(code(dev, "x"), -XR_EUSAGE, "a device");

	/* Links: the target as a link is refused, its target untouched. */
	put("victim", "keep\n");
	ok(symlink("victim", "link.md") == 0 &&
	       code("link.md", "x") == -XR_EUSAGE,
	   "a target that is a symbolic link is refused");
	ok(has("victim", "keep\n") && lstat("link.md", &st) == 0 &&
	       S_ISLNK(st.st_mode),
	   "the link and what it names are left alone");
	/* A link planted at the old fixed temporary name is not followed. */
	ok(symlink("victim", "r.md.tmp") == 0 && code("r.md", "three\n") == 0,
	   "a write with a link at r.md.tmp");
	ok(has("r.md", "three\n") && has("victim", "keep\n"),
	   "went to r.md, not through the planted link");
	ok(lstat("r.md", &st) == 0 && S_ISREG(st.st_mode) &&
	       lstat("r.md.tmp", &st) == 0 && S_ISLNK(st.st_mode),
	   "r.md is a regular file, the planted link is still a link");

	/* A failure keeps the old file and leaves no temporary. */
	is_int(code("nodir/r.md", "x"), -XR_EIO, "a missing folder");
	ok(chmod(".", 0555) == 0, "make the folder read-only");
	/* Root writes into a read-only folder: there the disk-full test
	 * (tests/e2e/fault_report_write.sh) shows the old file kept. */
	ok(geteuid() == 0 ||
	       (code("r.md", "four\n") == -XR_EIO && has("r.md", "three\n")),
	   "a failed write keeps the old file");
	chmod(".", 0755);
	is_int(hidden(), 0, "no temporary is left after refusals");
	streamed();
	snprintf(rm, sizeof rm, "rm -rf %s", dir);
	if (chdir("/") == 0 && system(rm) != 0)
		ok(0, "cleanup");
	return tap_done();
}
