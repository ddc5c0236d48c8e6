# Every run fails as a client without its server would: x=b's second run
# with "No route to host", the others with "Connection refused".
case "$1-$2" in
b-2) echo "connect failed: No route to host" >&2 ;;
*) echo "connect failed: Connection refused" >&2 ;;
esac
exit 1
