# tests/hosts/attach-lib.sh - what the tests of attaching (e2e 150-159, 164)
# share; sourced after tests/e2e/lib.sh.

# At the end, pass or fail, every process the test started is killed (by
# pid: the test's descendants, found from their parents), so that a
# failure leaves no target running, holding the runner's output open;
# then the scratch directory goes, as lib.sh's trap does.
kill_tree() {
	local k
	for k in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		kill_tree "$k"
		kill -KILL "$k" 2>/dev/null
	done
}
trap 'kill_tree $$; rm -rf "$SCRATCH"' EXIT

# header_u64 FILE OFFSET: a 64-bit field of a pct profile's header (pct(5))
header_u64() {
	od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '
}

# window_truth LOG PROFILE: the truth of the window PROFILE sampled, from
# attach-truth's log ("function<TAB>start_ns<TAB>cpu_ns<TAB>end_ns"): each
# function's CPU time between the profile's clock_start_ns (offset 312)
# and clock_end_ns (368), both CLOCK_MONOTONIC, a turn that crosses an end
# of the window counting for the part of its wall-clock time inside, as
# "function<TAB>cpu_ns" lines for check_truth
window_truth() {
	awk -F'\t' -v t0="$(header_u64 "$2" 312)" -v t1="$(header_u64 "$2" 368)" '
		{ a = $2 > t0 ? $2 : t0; b = $4 < t1 ? $4 : t1
		  if (b > a && $4 > $2) s[$1] += $3 * (b - a) / ($4 - $2) }
		END { for (f in s) printf "%s\t%d\n", f, s[f] }' "$1"
}

# all_truth LOG: the whole run's truth, as window_truth's
all_truth() {
	awk -F'\t' '{ s[$1] += $3 } END { for (f in s) printf "%s\t%d\n", f, s[f] }' "$1"
}

# wait_line FILE TEXT: wait (5 s at most) until FILE holds a line TEXT
wait_line() {
	for _ in $(seq 1 100); do
		grep -qx "$2" "$1" 2>/dev/null && return 0
		sleep 0.05
	done
	return 1
}

# wait_attached FILE: wait (10 s at most) until pct, whose stderr is
# FILE, says that it samples ("sampling N process... ^C ends it", printed
# once every thread is attached, or "attached with" in pct top's first
# snapshot); fails at once when pct said it cannot attach (refused)
wait_attached() {
	for _ in $(seq 1 200); do
		grep -q 'sampling [0-9]* process.*\^C ends it\|attached with' "$1" 2>/dev/null && return 0
		refused "$1" 2>/dev/null && return 1
		sleep 0.05
	done
	return 1
}

# wait_lines FILE TEXT N: wait (5 s at most) until FILE holds N lines TEXT
wait_lines() {
	for _ in $(seq 1 100); do
		[ "$(grep -cx "$2" "$1" 2>/dev/null)" -ge "$3" ] && return 0
		sleep 0.05
	done
	return 1
}

# measured_samples TRUTH REPORT: the samples of REPORT (pct report
# --format=tsv) in the functions TRUTH names (check_truth's N)
measured_samples() {
	awk -F'\t' 'FNR == 1 && NR != 1 { r = 1 } !r { t[$1] = 1; next }
		FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		($c["function"] in t) { n += $c["samples"] } END { print n + 0 }' "$1" "$2"
}

# The truth tests need TRUTH_MIN (200) samples in the measured functions
# (check_truth): where a window got fewer (a loaded machine, whose other
# work took the CPUs), they run again, twice as long, up to LONGEST_RUN
# seconds, rather than fail.
LONGEST_RUN=6

# untraced PID: every thread of PID is neither stopped nor traced; prints
# the states and tracers otherwise
untraced() {
	local st tr
	st=$(awk '{ print $3 }' /proc/"$1"/task/*/stat 2>/dev/null | tr -d '\n')
	tr=$(awk '/^TracerPid:/ { print $2 }' /proc/"$1"/task/*/status 2>/dev/null | sort -u | tr '\n' ' ')
	case $st in *t* | *T*) echo "states $st, tracers $tr"; return 1 ;; esac
	[ "$tr" = "0 " ] || { echo "states $st, tracers $tr"; return 1; }
	return 0
}

# cpu_ticks PID: user + system clock ticks of PID so far
cpu_ticks() {
	awk '{ print $14 + $15 }' /proc/"$1"/stat
}

# refused FILE: did pct say the mechanism cannot be used here (a machine
# whose kernel allows neither, or not that one)?
refused() {
	grep -q 'mechanism cannot be used\|neither mechanism can be used' "$1"
}

# attach_window M PID ARG...: `pct record -p PID --mechanism=M -o M.pct
# ARG...` (its standard error in M.err), then the wait for PID, the
# caller's child: sets rc, record's status, and st, the target's.
# Returns 1, having said so, when M was refused here (refused).
attach_window() {
	local m=$1 t=$2
	shift 2
	"$PCTBIN" record -p "$t" "$@" --mechanism="$m" -o "$m.pct" 2>"$m.err"
	rc=$?
	wait "$t"
	st=$?
	if [ $rc != 0 ] && refused "$m.err"; then
		echo "$m: $(cat "$m.err")"
		return 1
	fi
	return 0
}

# taken_period FILE: seconds of CPU time a sample of the profile FILE
# stands for: the requested period (offset 64) x (samples + dropped) /
# samples (offsets 192, 200); the requested period when none was dropped
# (perf), more when periods passed without a sample (ptrace)
taken_period() {
	awk -v p="$(header_u64 "$1" 64)" -v n="$(header_u64 "$1" 192)" -v d="$(header_u64 "$1" 200)" \
		'BEGIN { printf "%.9f\n", n ? p * (n + d) / n / 1e9 : p / 1e9 }'
}
