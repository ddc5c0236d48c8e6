/* The streaming writer (wfile_open .. wfile_commit, runner/base/wfile.c)
 * against a target that changes while it is written, the race staged
 * deterministically: the test swaps the target between the open and the
 * commit. Replaced by a symbolic link, a FIFO or a hard link to the
 * protected store, the target is refused at the commit (-XR_EUSAGE, the
 * same words as the first check), nothing is written through it and no
 * temporary is left; removed, it is written anew. And the replaced
 * file's permissions carry over (0600 stays 0600 under umask 022, not
 * 0644), streamed or written whole.
 *
 * SPDX-License-Identifier: MIT
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "buf.h"
#include "tap.h"
#include "wfile.h"

static char dir[] = "/tmp/xr-wfrace-XXXXXX";

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

static unsigned mode_of(const char *name)
{
	struct stat st;
	return lstat(name, &st) == 0 ? (unsigned)(st.st_mode & 07777) : 0;
}

/* Open t.md (holding "old\n") as a stream, write "new\n", let swap()
 * change the target, commit: the commit's code and err. */
static int staged(void (*swap)(void), struct xr_err *err)
{
	struct wfile *w = NULL;
	FILE *f = NULL;
	int rc;
	unlink("t.md");
	put("t.md", "old\n");
	memset(err, 0, sizeof *err);
	if ((rc = wfile_open("t.md", &w, &f, err)) < 0)
		return 1000 + rc;
	fputs("new\n", f);
	swap();
	return wfile_commit(w, err);
}

static void to_link(void)
{
	unlink("t.md");
	if (symlink("victim", "t.md") != 0)
		perror("symlink");
}

static void to_fifo(void)
{
	unlink("t.md");
	if (mkfifo("t.md", 0644) != 0)
		perror("mkfifo");
}

static void to_store(void)
{
	unlink("t.md");
	if (link("store.db", "t.md") != 0)
		perror("link");
}

static void removed(void)
{
	unlink("t.md");
}

static void test_race(void)
{
	struct xr_err err;
	struct stat st;
	int rc;

	put("victim", "victim's\n");
	rc = staged(to_link, &err);
	ok(rc == -XR_EUSAGE && strstr(err.msg, "refusing to write 't.md': it "
					       "is a symbolic link"),
	   "became a link: refused at the commit (%d: %s)", rc, err.msg);
	ok(lstat("t.md", &st) == 0 && S_ISLNK(st.st_mode) &&
	       has("victim", "victim's\n") && hidden() == 0,
	   "the link and its target untouched, no temporary");

	rc = staged(to_fifo, &err);
	ok(rc == -XR_EUSAGE &&
	       strstr(err.msg, "refusing to write 't.md': it is a FIFO, not a "
			       "regular file"),
	   "became a FIFO: refused (%d: %s)", rc, err.msg);
	ok(lstat("t.md", &st) == 0 && S_ISFIFO(st.st_mode) && hidden() == 0,
	   "the FIFO still there, no temporary");

	put("store.db", "the store\n");
	ok(wfile_protect("store.db", "the store", 1) == 0, "protect store.db");
	rc = staged(to_store, &err);
	ok(rc == -XR_EUSAGE && strstr(err.msg, "refusing to write 't.md': it "
					       "is the store"),
	   "became the store (a hard link): refused (%d: %s)", rc, err.msg);
	ok(has("store.db", "the store\n") && hidden() == 0,
	   "the store unchanged, no temporary");

	rc = staged(removed, &err);
	ok(rc == 0 && has("t.md", "new\n") && hidden() == 0,
	   "removed meanwhile: written anew (%d: %s)", rc, err.msg);
}

static void test_mode(void)
{
	struct xr_err err = {0};
	struct wfile *w = NULL;
	FILE *f = NULL;

	umask(022);
	put("m.md", "old\n");
	chmod("m.md", 0600);
	ok(wfile_open("m.md", &w, &f, &err) == 0 && fputs("new\n", f) >= 0 &&
	       wfile_commit(w, &err) == 0,
	   "streamed over a 0600 file");
	is_int(mode_of("m.md"), 0600, "streamed: still 0600");
	ok(has("m.md", "new\n"), "streamed: the new content");
	chmod("m.md", 0604);
	is_int(wfile_write("m.md", "whole\n", 6, &err), 0,
	       "written whole over a 0604 file");
	is_int(mode_of("m.md"), 0604, "whole: still 0604");
	ok(wfile_open("n.md", &w, &f, &err) == 0 && wfile_commit(w, &err) == 0,
	   "a new file streamed");
	is_int(mode_of("n.md"), 0644, "a new file: 0666 less umask 022");
}

int main(void)
{
	char rm[64];
	tap_plan(15);
	if (!mkdtemp(dir) || chdir(dir) != 0)
		tap_skip_all("cannot make a temporary folder");
	test_mode();
	test_race();
	if (chdir("/") == 0) {
		snprintf(rm, sizeof rm, "rm -rf '%s'", dir);
		if (system(rm) != 0)
			fprintf(stderr, "# cleanup failed: %s\n", rm);
	}
	return tap_done();
}
