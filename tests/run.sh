#!/usr/bin/env bash
# tests/run.sh - run the unit tests (build/tests/test_*, and the fuzz
# target over its seeds and regressions) and the end-to-end tests
# (tests/e2e/NN-*.sh), several at once, then print "N passed, N failed".
#
# usage: tests/run.sh [-j N] [--san[=all]] [--fuzz=SECONDS] [--prepare=CMD] [--list] [PATTERN...]
#   -j N         run up to N tests at once (default: the number of CPUs,
#                nproc); -j 1 runs them one after another
#   --san        also run the unit tests, and the end-to-end tests that
#                exercise the tool's readers and writers, against
#                build-san (ASan and UBSan; make check-san builds it),
#                in the same pool; --san=all runs every end-to-end test
#                there (make check-full)
#   --fuzz=S     also run the fuzz target (build-fuzz/fuzz_profile, make
#                fuzz-build) for S seconds, as one more job of the pool
#   --prepare=CMD  run the shell command CMD first, in the background, as
#                one job of the pool (make check: the sanitized and the
#                fuzz builds, make -j1): the alone tests run beside it (it
#                is not a test; they hold under two busy loops), the
#                sanitized tests and the fuzzer start once it succeeded,
#                and if it fails they fail with the end of its output
#   --list       print the tests in the order they would start (alone
#                first, then longest first), "alone" marked, and exit
#   PATTERN      only the tests whose name holds one of the PATTERNs
#
# An e2e test exits 0 (pass), 77 (skip: the machine cannot run it, with a
# reason) or anything else (fail); one running longer than
# $PCT_TEST_TIMEOUT seconds (default 900) is killed and fails.
#
# Tags: a line "# pct-test: TAG... (REASON)" in a test file says
#   timing    it measures sampling rates or CPU time: it runs alone, with
#             no other test of this run beside it
#   alone     it runs alone for another reason (given on the line)
#   plain     its ASan/UBSan run adds nothing to the plain one (given on
#             the line): --san leaves it out, --san=all runs it; a host
#             test (one that sources tests/hosts/lib.sh: its subject is the
#             runtime, which build-san leaves uninstrumented) is plain
#             unless tagged san
#   full      it runs under make check-full only ($PCT_TEST_FULL set)
# The alone tests run first, one after another; then the others, longest
# first (the times of the last run, kept in build/test-times.tsv; in a
# fresh tree those of tests/times.tsv).  Each
# test prints one line, PASS, SKIP or FAIL with its wall-clock and CPU
# seconds, in a fixed order (plain unit, plain e2e, sanitized unit,
# sanitized e2e, fuzz) as soon as it and the tests before it are done
# (on a terminal a status line says meanwhile what runs); a failure
# prints the end of its output.  The slowest tests are listed at
# the end.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PCT_BUILD:-build}          # the build to test (build-san: sanitized)
jobs=$(nproc 2>/dev/null || echo 1)
san= fuzz= list= prepare= patterns=()
usage() { echo "usage: tests/run.sh [-j N] [--san[=all]] [--fuzz=SECONDS] [--prepare=CMD] [--list] [PATTERN...]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-j) [ $# -ge 2 ] || usage; jobs=$2; shift ;;
	-j*) jobs=${1#-j} ;;
	--jobs=*) jobs=${1#--jobs=} ;;
	--san) san=subset ;;
	--san=all) san=all ;;
	--san=*) usage ;;
	--fuzz=*) fuzz=${1#--fuzz=} ;;
	--prepare=*) prepare=${1#--prepare=} ;;
	--list) list=1 ;;
	-h|--help) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	--) shift; patterns+=("$@"); break ;;
	-*) usage ;;
	*) patterns+=("$1") ;;
	esac
	shift
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || usage
[ -z "$fuzz" ] || [[ $fuzz =~ ^[1-9][0-9]*$ ]] || usage
timeout_s=${PCT_TEST_TIMEOUT:-900}
unset PCT PCT_HZ PCT_SLOTS PCT_QUIET PCT_LIB
times_file=$root/build/test-times.tsv
logdir=$(mktemp -d /tmp/pct-run.XXXXXX) || exit 1
trap 'rm -rf "$logdir"' EXIT

# the jobs: name, build, alone (1/0), command (words, \037-separated)
names=() builds=() alone=() cmds=()
selected() {  # selected NAME: no PATTERN, or one in NAME
	[ ${#patterns[@]} = 0 ] && return 0
	local p
	for p in "${patterns[@]}"; do [[ $1 == *"$p"* ]] && return 0; done
	return 1
}
add() {  # add NAME BUILD ALONE CMD...
	local name=$1 b=$2 a=$3
	shift 3
	selected "$name" || return 0
	names+=("$name") builds+=("$b") alone+=("$a")
	local IFS=$'\037'
	cmds+=("$*")
}
tags() { sed -n 's/^# pct-test: *//p' "$1" | sed 's/(.*//' | tr -s ' \t' '  '; }   # the words before a "(reason)"
add_build() {  # add_build BUILD PREFIX WHICH: its unit tests, replay and e2e tests (WHICH: all, subset)
	local b=$1 pre=$2 which=$3 t tg a
	# (a build that --prepare makes has the tests the one under test has)
	local have=$b
	[ "$b" != "$build" ] && [ -n "$prepare" ] && have=$build
	if [ ! -x "$root/$have/bin/pct" ]; then
		echo "tests/run.sh: no $have/bin/pct: build it first (make all unit progs; for build-san, make check-san-build)" >&2
		exit 2
	fi
	for t in "$root/$have"/tests/test_*; do
		[ -x "$t" ] || continue
		add "${pre}unit/$(basename "$t")" "$b" 0 "$root/$b/tests/$(basename "$t")"
	done
	# the fuzz target over its seeds and every regression file found so far
	if [ -x "$root/$have/tests/replay" ]; then
		add "${pre}unit/fuzz-replay" "$b" 0 "$root/$b/tests/replay" "$root"/tests/fuzz/seeds/* \
			$(ls "$root"/tests/fuzz/regressions/* 2>/dev/null)
	fi
	for t in "$root"/tests/e2e/[0-9]*.sh; do
		tg=" $(tags "$t") "
		[[ $tg == *" full "* ]] && [ -z "${PCT_TEST_FULL:-}" ] && continue
		if [[ $tg != *" san "* ]] && grep -q '^\. "\$ROOT/tests/hosts/lib\.sh"' "$t"; then tg="$tg plain "; fi
		[ "$which" = subset ] && [[ $tg == *" plain "* ]] && continue
		a=0
		[[ $tg == *" timing "* || $tg == *" alone "* ]] && a=1
		add "${pre}e2e/$(basename "$t" .sh)" "$b" "$a" bash "$t"
	done
}
add_build "$build" "" all
[ -n "$san" ] && add_build build-san san/ "$san"
if [ -n "$fuzz" ]; then
	[ -n "$prepare" ] || [ -x "$root/build-fuzz/fuzz_profile" ] ||
		{ echo "tests/run.sh: no build-fuzz/fuzz_profile (make fuzz-build)" >&2; exit 2; }
	add "fuzz/profile-reader" build-fuzz 0 make -s -C "$root" --no-print-directory fuzz-run FUZZ_SECONDS="$fuzz"
fi
n=${#names[@]}
if [ "$n" = 0 ]; then echo "tests/run.sh: no test matches ${patterns[*]}" >&2; exit 2; fi

# the order to start them: the alone ones first, in order; then the rest,
# longest first by the last run's times (unknown: 20 s)
declare -A last
# (a fresh tree has no times yet: tests/times.tsv, those of a make check
# run when the suite changed last, stands in for them)
tf=$times_file
[ -r "$tf" ] || tf=$root/tests/times.tsv
if [ -r "$tf" ]; then
	while IFS=$'\t' read -r k v; do last[$k]=$v; done <"$tf"
fi
order=()
for ((i = 0; i < n; i++)); do [ "${alone[i]}" = 1 ] && order+=("$i"); done
while read -r _ i; do order+=("$i"); done < <(
	for ((i = 0; i < n; i++)); do
		[ "${alone[i]}" = 1 ] && continue
		echo "${last[${names[i]}]:-20} $i"
	done | sort -k1,1nr -k2,2n)

if [ -n "$list" ]; then
	for i in "${order[@]}"; do printf '%s%s\n' "${names[i]}" "$([ "${alone[i]}" = 1 ] && echo '  (alone)')"; done
	exit 0
fi

# start JOB: in the background, its output in $logdir/JOB.log, its status
# in .rc, "wall user sys" in .time
declare -A pid_of
state=()   # "" waiting, r running, d done
start() {
	local i=$1 cmd
	IFS=$'\037' read -r -a cmd <<<"${cmds[i]}"
	(
		export PCT_BUILD=${builds[i]}
		if [[ ${builds[i]} == build-san ]]; then
			export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1
		fi
		cd "$root" || exit 1
		TIMEFORMAT='%R %U %S'
		{ time timeout -k 10 "$timeout_s" "${cmd[@]}" >"$logdir/$i.log" 2>&1 </dev/null; echo $? >"$logdir/$i.rc"; } \
			2>"$logdir/$i.time"
	) &
	pid_of[$!]=$i
	state[i]=r
	status
}
running=0 alone_running=0
pass=0 fail=0 skip=0 failed=() failed_logs=() next=0
t_start=$(date +%s%N)
report() {  # print the lines of the jobs done, in order, up to the first not done
	local i rc wall user sys cpu
	while [ "$next" -lt "$n" ] && [ "${state[next]:-}" = d ]; do
		i=$next
		rc=$(cat "$logdir/$i.rc" 2>/dev/null || echo 1)
		read -r wall user sys <"$logdir/$i.time" 2>/dev/null || wall=0 user=0 sys=0
		cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.1f", u + s }')
		wall=$(awk -v w="$wall" 'BEGIN { printf "%.1f", w }')
		printf '%s\t%s\t%s\n' "${names[i]}" "$wall" "$cpu" >>"$logdir/times"
		case $rc in
		0) pass=$((pass + 1)); printf 'PASS  %-40s %6ss  cpu %6ss\n' "${names[i]}" "$wall" "$cpu" ;;
		77) skip=$((skip + 1)); printf 'SKIP  %-40s %s\n' "${names[i]}" "$(grep -m1 '^SKIP' "$logdir/$i.log")" ;;
		*) fail=$((fail + 1)); failed+=("${names[i]}"); failed_logs+=("$logdir/$i.log")
			[ "$rc" = 124 ] || [ "$rc" = 137 ] && echo "      (killed after $timeout_s s: PCT_TEST_TIMEOUT)" >>"$logdir/$i.log"
			printf 'FAIL  %-40s %6ss  cpu %6ss\n' "${names[i]}" "$wall" "$cpu"
			sed 's/^/      /' "$logdir/$i.log" | tail -40 ;;
		esac
		next=$((next + 1))
	done
}
# on a terminal, a status line (erased before each result line): the
# results keep their fixed order, so they may come in bursts
tty=; [ -t 1 ] && tty=1
status() {
	[ -n "$tty" ] || return 0
	local i r=""
	for i in "${!pid_of[@]}"; do r="$r ${names[${pid_of[$i]}]}"; done
	printf '\r\033[K[%d of %d done] running:%s' "$done_n" "$n" "${r:0:120}"
}
done_n=0
reap() {  # wait for one job to end
	local p st
	wait -n -p p; st=$?
	[ -n "${pid_of[$p]:-}" ] || return 0
	local i=${pid_of[$p]}
	unset "pid_of[$p]"
	running=$((running - 1))
	if [ "$i" = "$n" ]; then   # --prepare's command
		prep=$st
		[ "$prep" = 0 ] || { [ -z "$tty" ] || printf '\r\033[K'; echo "--prepare failed ($prepare): its output ends:"; tail -20 "$logdir/prepare.log" | sed 's/^/      /'; }
		status
		return 0
	fi
	state[i]=d
	done_n=$((done_n + 1))
	[ "${alone[i]}" = 1 ] && alone_running=0
	[ -z "$tty" ] || printf '\r\033[K'
	report
	status
}
# --prepare's command: job n, not a test (no result line; its failure
# fails the jobs that need it)
prep=   # "": none; r: running; 0: done; else: failed
if [ -n "$prepare" ]; then
	( cd "$root" && exec bash -c "$prepare" ) >"$logdir/prepare.log" 2>&1 </dev/null &
	pid_of[$!]=$n names[n]="(--prepare)" alone[n]=0 state[n]=r prep=r running=1
fi
tests_running() { if [ "$prep" = r ]; then echo $((running - 1)); else echo "$running"; fi; }
needs_prep() { [ -n "$prep" ] && [ "${builds[$1]}" != "$build" ]; }
pending=("${order[@]}")
while [ ${#pending[@]} -gt 0 ]; do
	# the first pending job that may start: an alone one in its turn; one
	# that needs --prepare's build only once that is done
	pick=-1
	for k in "${!pending[@]}"; do
		i=${pending[k]}
		needs_prep "$i" && [ "$prep" = r ] && continue
		pick=$k
		break
	done
	if [ "$pick" = -1 ]; then reap; continue; fi
	i=${pending[pick]}
	unset "pending[pick]"; pending=("${pending[@]}")
	if needs_prep "$i" && [ "$prep" != 0 ]; then   # its build failed: it fails unrun
		{ echo "the build it needs failed (--prepare: $prepare):"; tail -40 "$logdir/prepare.log"; } >"$logdir/$i.log"
		echo 1 >"$logdir/$i.rc"; echo "0 0 0" >"$logdir/$i.time"
		state[i]=d done_n=$((done_n + 1))
		report
		continue
	fi
	if [ "${alone[i]}" = 1 ]; then
		while [ "$(tests_running)" -gt 0 ]; do reap; done
		start "$i"; running=$((running + 1)) alone_running=1
		while [ "$(tests_running)" -gt 0 ]; do reap; done
	else
		while [ "$running" -ge "$jobs" ]; do reap; done
		start "$i"; running=$((running + 1))
	fi
done
while [ "$running" -gt 0 ]; do reap; done
[ -z "$tty" ] || printf '\r\033[K'
report
t_all=$(( ($(date +%s%N) - t_start) / 1000000 ))

# keep this run's times for the next run's order
if [ -d "$root/build" ] && [ -s "$logdir/times" ]; then
	{ [ -r "$times_file" ] && awk -F'\t' 'NR == FNR { seen[$1] = 1; next } !($1 in seen)' "$logdir/times" "$times_file"
	  cut -f1,2 "$logdir/times"; } >"$logdir/times.new" 2>/dev/null && cat "$logdir/times.new" >"$times_file"
fi
echo
echo "slowest (wall-clock s, CPU s):"
sort -t$'\t' -k2,2nr "$logdir/times" | head -15 | awk -F'\t' '{ printf "  %-40s %7.1f %7.1f\n", $1, $2, $3 }'
awk -F'\t' -v t="$t_all" -v j="$jobs" '{ w += $2; c += $3 } END {
	printf "%d tests in %.1f s of wall-clock time at -j %d (%.1f s one after another; %.1f s of CPU)\n", NR, t / 1000, j, w, c }' \
	"$logdir/times"
echo
# again at the end, where a log's tail (CI's) shows it: each failed
# test's last lines
for i in "${!failed[@]}"; do
	echo "FAIL  ${failed[i]}:"
	grep -v '^$' "${failed_logs[i]}" 2>/dev/null | tail -8 | cut -c1-300 | sed 's/^/      /'
done
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
