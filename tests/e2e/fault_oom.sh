#!/bin/bash
# SPDX-License-Identifier: MIT
# Out of memory, said and exited on (issue 24 Deliver 6): validate, plan and
# report under an allocation-failure shim (lib/failmalloc.c, LD_PRELOAD:
# the first N allocations after main starts succeed, every later one fails,
# as in a process that has used up its memory), at every allocation point
# up to 40, at 40 more spread over the rest and at the last 10 (fewer under
# ASan: see points below). Each must end with exit 3
# (XR_ENOMEM, docs/run.md Exit codes) and a last line "xrun: out of memory
# while STAGE" naming what it was doing (the plan's line when the reader
# was in it), or succeed with the full output; never a signal, never exit 2
# (a bad plan) with nothing said, and a report that failed leaves the
# previous file as it was. Before the fix validate exited 2 silently.
set -eu
. "$(dirname "$0")/lib/common.sh"
xr_need cc pdftotext
xr_tmpdir T

cc -shared -fPIC -O1 -o failmalloc.so "$XR_LIB/failmalloc.c" -ldl ||
	fail "cannot build the shim"
preload=$T/failmalloc.so
asan_opts=
# An ASan build: the shim goes first and hands on to ASan's malloc
# (RTLD_NEXT). Leaks after a failed allocation are not what this tests.
if asan=$(ldd "$XRUN" | awk '/libasan/ { print $3 }') && [ -n "$asan" ]; then
	preload="$T/failmalloc.so:$asan"
	asan_opts="verify_asan_link_order=0:detect_leaks=0:allocator_may_return_null=1"
fi
# Which failure points a sweep tries. Without ASan (tests/all.sh's
# optimised stage): every point up to 40, 40 spread over the rest, the
# last 10. Under ASan (the sanitizer stage) one in five of the first 40,
# 8 spread, the last 3: each process costs ~10 times as much in front of
# ASan's allocator, and what ASan adds is a memory error on an
# out-of-memory path, which the points it tries cover stage by stage
# (each stage's `has` below still holds). XRUN_OOM_POINTS=all|sparse
# overrides the choice.
sweep_kind=${XRUN_OOM_POINTS:-$([ -n "$asan_opts" ] && echo sparse || echo all)}
points() { # K (allocations counted): the failure points to try, a line each
	local k=$1
	if [ "$sweep_kind" = sparse ]; then
		seq 0 5 40
		seq 41 $(((k - 41) / 8 + 1)) $((k - 3))
		seq $((k - 2)) $((k + 1))
	else
		seq 0 40
		seq 41 $(((k - 41) / 40 + 1)) $((k - 10))
		seq $((k - 9)) $((k + 1))
	fi | awk '!seen[$0]++'
}
shim() { # N (empty: count only) cmd...
	local n=$1
	shift
	XR_FAILMALLOC=$n XR_FAILMALLOC_COUNT=$PWD/count LD_PRELOAD=$preload \
		ASAN_OPTIONS=${asan_opts:-${ASAN_OPTIONS:-}} "$@"
}

cat >p.yaml <<'YAML'
xrun: 1
name: oomc
engine:
  type: command
  run: [echo, "{{a}}"]
  metrics:
    throughput: { regex: "([0-9]+)", unit: bit/s }
factors:
  a: { levels: [5, 7] }
repeat: 2
sample: off
YAML
nlines=$(wc -l <p.yaml)
"$XRUN" run --yes --unattended p.yaml >/dev/null 2>&1 || fail "the store: exit $?"

# sweep NAME STAGE-RE OUT cmd...: OUT is the file the command writes ("" for
# stdout); STAGE-RE the stages it may name
# stages: what the failures named, one "WORD+line" or "WORD+" a line
# last_stage: what the failure latest in the command said
stages= last_stage=
# text FILE: what a report says, less when it was made (a PDF read back)
text() {
	case $1 in
	*.pdf | ref.file) if [ "$(head -c 4 "$1")" = %PDF ]; then
		pdftotext -layout "$1" - | grep -vi generated
		return
	fi ;;
	esac
	grep -vi generated "$1"
}
# prep: a command run before each try (a store to remove)
prep=
sweep() {
	local name=$1 re=$2 out=$3 k n rc last
	stages= last_stage=
	shift 3
	[ -z "$out" ] || echo previous >"$out"
	eval "${prep:-}"
	shim "" "$@" >ref.out 2>ref.err || fail "$name: exit $? unshimmed: $(cat ref.err)"
	k=$(cat count)
	[ "$k" -gt 40 ] || fail "$name: only $k allocations counted (is the shim loaded?)"
	[ -z "$out" ] || cp "$out" ref.file
	# the first 40, 40 spread over the rest, and the last 10 (the stage
	# a command ends in)
	for n in $(points "$k"); do
		[ -z "$out" ] || echo previous >"$out"
		eval "${prep:-}"
		set +e
		shim "$n" "$@" >got.out 2>got.err
		rc=$?
		set -e
		last=$(tail -n 1 got.err)
		if [ $rc = 0 ]; then
			cmp -s got.out ref.out || fail "$name N=$n: exit 0 with other output"
			# a report says when it was made (JSON generated_at, the
			# Generated row): the minute may have turned since
			[ -z "$out" ] || cmp -s <(text "$out") <(text ref.file) ||
				fail "$name N=$n: exit 0, $out not the full report"
			continue
		fi
		[ $rc = 3 ] || fail "$name N=$n: exit $rc (want 3): $(cat got.err)"
		[[ $last =~ ^xrun:\ out\ of\ memory\ while\ ($re)(\ \(line\ ([0-9]+)\))?$ ]] ||
			fail "$name N=$n: last line '$last'"
		if [ -n "${BASH_REMATCH[3]}" ]; then
			[ "${BASH_REMATCH[3]}" -ge 1 ] && [ "${BASH_REMATCH[3]}" -le "$nlines" ] ||
				fail "$name N=$n: line ${BASH_REMATCH[3]} is not in the plan"
		fi
		[ -z "$out" ] || [ "$(cat "$out")" = previous ] ||
			fail "$name N=$n: exit 3 but $out was changed"
		stages="$stages${BASH_REMATCH[1]%% *}+${BASH_REMATCH[3]:+line}"$'\n'
		last_stage=${BASH_REMATCH[1]%% *}
	done
	echo "ok: $name: $k allocations, every failure point tried said:"
	sort <<<"$stages" | uniq -c | sed '/^ *[0-9]* $/d'
	[ "$(echo "$stages" | sed '/^$/d' | sort -u | wc -l)" -ge 2 ] ||
		fail "$name: one stage only"
}
has() { # WORD+[line]: a failure named it
	grep -qxF "$1" <<<"$stages" || fail "no failure said '$1': $stages"
}
# Each command's sweep is a job in a directory of its own (its own copy
# of the plan and the store, its own count file): two at a time, as the
# machine has cores; each job's output follows in order.
job_validate() {
	sweep validate 'reading p\.yaml|checking p\.yaml|reading the command line' "" \
		"$XRUN" validate p.yaml
	has reading+line # the plan reader's line
}
job_plan() {
	sweep plan 'reading p\.yaml|building the schedule of p\.yaml|printing the schedule of p\.yaml|reading the command line' "" \
		"$XRUN" plan p.yaml
	has reading+line
	has building+
	[ "$last_stage" = printing ] || fail "plan: the last failure said '$last_stage'"
}
job_report() { # FILE
	local f=$1
	sweep "report -o $f" "reading the plan 'oomc'|writing the report $f from oomc\\.db|reading the command line" "$f" \
		"$XRUN" report --db oomc.db -o "$f"
	has writing+
	# the stored plan is read inside the writing: after it, writing again
	[ "$last_stage" = writing ] || fail "report -o $f: the last failure said '$last_stage'"
}
job_md() { job_report r.md; }
job_json() { job_report r.json; }
job_csv() { job_report r.csv; }
job_html() { job_report r.html; }
# The PDF: libharu's UTF-8 encoder wrote into an unchecked malloc and
# fontconfig's parser freed a rule half built (SIGSEGV at 16 of 60 points
# before); now xrun's allocator jumps out of libharu (pdf.h) and the
# Debian font path comes before fontconfig.
job_pdf() {
	sweep "report -o r.pdf" "reading the plan 'oomc'|writing the report r\\.pdf from oomc\\.db|reading the command line" r.pdf \
		"$XRUN" report --db oomc.db -o r.pdf
	has writing+
}
job_status() {
	sweep status "running 'xrun status'|reading the plan 'stored plan'|reading the command line" "" \
		"$XRUN" status --db oomc.db
}
job_merge() {
	prep='rm -f m.db m.db-wal m.db-shm m.db.lock'
	sweep merge "running 'xrun merge'|reading the command line" "" \
		"$XRUN" merge m.db oomc.db
	prep=
}

# run: a store made under the shim is a store (integrity_check ok) with
# every run it says ok stored; exit 0 (the 4 runs ok), 1 (a run failed:
# data) or 3 with the stage; never a signal. Before, a calloc of run's
# arguments failing exited 3 with nothing said.
job_run() {
	local k n rc last
	rm -f r.db*
	shim "" "$XRUN" run --yes --unattended p.yaml --db r.db >/dev/null 2>&1 ||
		fail "run: exit $? unshimmed"
	k=$(cat count)
	local pts
	if [ "$sweep_kind" = sparse ]; then
		pts=$(seq 0 5 20; seq 21 $((k / 8 + 1)) "$k")
	else
		pts=$(seq 0 20; seq 21 $((k / 40 + 1)) "$k")
	fi
	for n in $pts; do
		rm -f r.db r.db-wal r.db-shm r.db.lock
		set +e
		shim "$n" "$XRUN" run --yes --unattended p.yaml --db r.db >got.out 2>got.err
		rc=$?
		set -e
		last=$(tail -n 1 got.err)
		case $rc in
		0 | 1) ;;
		3) [[ $last =~ ^xrun:\ out\ of\ memory\ while\ (running\ \'xrun\ run\'|reading) ]] ||
			fail "run N=$n: exit 3, last line '$last'" ;;
		*) fail "run N=$n: exit $rc: $last" ;;
		esac
		if [ -e r.db ]; then
			[ "$(q r.db 'pragma integrity_check')" = ok ] || fail "run N=$n: store damaged"
		fi
		[ $rc != 0 ] || [ "$(q r.db "select count(*) from runs where status = 'ok'")" = 4 ] ||
			fail "run N=$n: exit 0 without the 4 runs ok"
	done
	echo "ok: run: $k allocations, every failure point tried exits 0, 1 or 3 with its stage; every store left is whole"
}

all_jobs="validate plan md json csv html pdf status merge run"
par=${XRUN_JOBS:-2}
for j in $all_jobs; do
	while [ "$(jobs -rp | wc -l)" -ge "$par" ]; do wait -n || true; done
	mkdir "job-$j" && cp p.yaml oomc.db "job-$j"/
	(
		cd "job-$j" || exit 1
		set -e
		"job_$j"
		echo 0 >../"$j.rc"
	) >"$j.log" 2>&1 &
done
wait
bad=
for j in $all_jobs; do
	cat "$j.log"
	[ "$(cat "$j.rc" 2>/dev/null)" = 0 ] || bad="$bad $j"
done
[ -z "$bad" ] || fail "failed:$bad"
