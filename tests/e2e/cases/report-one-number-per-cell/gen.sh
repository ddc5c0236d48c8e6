# x=a: 100, 101, 130; x=b: 110, 112, 114 (Mbit/s), by repetition
rep=$2
case $1 in
a) set -- 100 101 130 ;;
*) set -- 110 112 114 ;;
esac
shift $((rep - 1))
echo "result: $1"
