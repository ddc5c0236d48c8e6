# The engine of report-progress-killed: run 2 kills the xrun running the
# session (its parent, $PPID) with SIGKILL, as a power cut or the OOM
# killer would: the session is left "running" with no xrun holding its
# lock, run 1 ok, run 2 "running", run 3 pending.
if [ "$1" = 2 ]; then
	kill -9 "$PPID"
	exit 1
fi
echo "result: 5"
