# The engine of report-progress-running: before its run's result, run 2
# and 3 read the report of the session that runs them, and fail (exit 1)
# unless its top says so. Their parent ($PPID) is the xrun running the
# session (the engine is its child: runner/host/proc_child.c), which
# holds the store's lock; runs done before run k: k - 1, of 3.
case $1 in
2)
	# the lock file names the xrun's pid: its pid is in the line
	"$XRUN" report --db "$2" -o - >"$2.running2.md" 2>&1
	grep -qF "**Unfinished: 1 of 3 runs done; xrun (pid $PPID) is running it now**" \
		"$2.running2.md" || { echo "run 2: $(grep -m1 -E 'Unfinished|Interrupted|Incomplete' "$2.running2.md")" >&2; exit 1; }
	;;
3)
	# a lock file without a pid (a crashed note, an older xrun): the
	# lock is still held, so an xrun runs it, pid unknown
	: >"$2.lock"
	"$XRUN" report --db "$2" -o - >"$2.running3.md" 2>&1
	grep -qF "**Unfinished: 2 of 3 runs done; an xrun is running it now**" \
		"$2.running3.md" || { echo "run 3: $(grep -m1 -E 'Unfinished|Interrupted|Incomplete' "$2.running3.md")" >&2; exit 1; }
	;;
esac
echo "result: 5"
