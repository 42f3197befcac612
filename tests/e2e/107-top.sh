# pct top, live: in tmux (a real terminal, ncurses), `pct top -d 1 --
# PROGRAM` where PROGRAM spins in hot_spin for 30 s: the function is on
# the screen within 3 seconds; its rate over the run agrees with the CPU
# time the program measures itself (CLOCK_THREAD_CPUTIME_ID over
# CLOCK_MONOTONIC) within twice its 95% interval (3.92 standard errors:
# 1e-4); q exits 0 and ends the
# program.  Not on a terminal: plain snapshots without an escape byte,
# and the command's exit status (3) passes through.  With a FILE that
# pct record is writing: snapshots until the recording ends, then exit 0.
# A process tree: the files of processes started later are followed.
# pct-test: timing plain (rates, and the screen within 3 s; pct top's model is unit/test_top under ASan)
. "$(dirname "$0")/lib.sh"
if ! command -v tmux >/dev/null; then
	if [ "$(id -u)" -eq 0 ]; then
		apt_get install -y -qq tmux >/dev/null 2>&1 ||
			{ apt_get update -qq >/dev/null 2>&1 && apt_get install -y -qq tmux >/dev/null 2>&1; }
	fi
	command -v tmux >/dev/null || skip "tmux is not installed and cannot be installed here (not root, or no package archive)"
fi
sock=pct-e2e-107-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null; rm -rf "$SCRATCH"' EXIT

# hot OUT SECONDS STATUS: spin in hot_spin for SECONDS of wall-clock time,
# writing "cpu_ns wall_ns" (the thread's CPU time and the wall-clock time
# since it started) to OUT every 50 ms and at the end; exit STATUS
cat >hot.c <<'C'
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static uint64_t ns(clockid_t c) { struct timespec t; clock_gettime(c, &t); return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec; }
static volatile uint64_t sink;
__attribute__((noipa)) static void hot_spin(uint64_t until)
{
	uint64_t x = sink;
	while (ns(CLOCK_MONOTONIC) < until)
		for (int i = 0; i < 20000; i++)
			x = x * 6364136223846793005u + 1442695040888963407u;
	sink = x;
}
int main(int argc, char **argv)
{
	uint64_t w0 = ns(CLOCK_MONOTONIC), c0 = ns(CLOCK_THREAD_CPUTIME_ID);
	uint64_t end = w0 + (uint64_t)(atof(argv[2]) * 1e9);
	char tmp[4096];
	snprintf(tmp, sizeof tmp, "%s.tmp", argv[1]);
	for (uint64_t now = w0; now < end; now = ns(CLOCK_MONOTONIC)) {
		hot_spin(now + 50000000 < end ? now + 50000000 : end);
		FILE *f = fopen(tmp, "w");
		fprintf(f, "%llu %llu\n", (unsigned long long)(ns(CLOCK_THREAD_CPUTIME_ID) - c0),
			(unsigned long long)(ns(CLOCK_MONOTONIC) - w0));
		fclose(f);
		rename(tmp, argv[1]);
	}
	return atoi(argv[3]);
}
C
cc -O2 -g -o hot hot.c || fail "cannot build the test program"

# check_rate WHAT LINE TRUTH: LINE is a row of the view (NOW [lo-hi] RUN
# [lo-hi] FUNCTION...), TRUTH "cpu_ns wall_ns"; the true rate, 100 x
# cpu/wall (% of a CPU), lies within twice the RUN interval's distances
# from RUN (about 4 standard errors), plus 2 points for the moments the
# two were read at
check_rate() {
	echo "$2" | awk -v what="$1" -v truth="$3" '{
		split(truth, t, " "); want = 100 * t[1] / t[2]
		run = $3; gsub(/[][]/, "", $4); split($4, ci, "-")
		lo = run - 2 * (run - ci[1]) - 2; hi = run + 2 * (ci[2] - run) + 2
		ok = want >= lo && want <= hi && want > 10
		printf "%s: true rate %.1f%% of a CPU; pct top: run %.1f%% [%s-%s], accepted %.1f..%.1f  %s\n",
			what, want, run, ci[1], ci[2], lo, hi, ok ? "ok" : "MISMATCH"
		exit !ok }'
}

# 1. in a terminal
tmux -L "$sock" new-session -d -x 180 -y 30 \
	"cd '$SCRATCH' && '$PCTBIN' top -d 1 -- ./hot truth.txt 30 0; echo \$? >rc.txt; sleep 60" ||
	fail "tmux cannot start a session"
t0=$(date +%s%N)
seen=
while [ $(( ($(date +%s%N) - t0) / 1000000 )) -lt 3000 ]; do
	tmux -L "$sock" capture-pane -p >screen.txt
	if grep -q ' hot_spin ' screen.txt; then
		seen=$(( ($(date +%s%N) - t0) / 1000000 ))
		break
	fi
	sleep 0.2
done
cat screen.txt
[ -n "$seen" ] || fail "hot_spin is not on pct top's screen 3 s after the start"
pass "hot_spin on the screen after $seen ms"
grep -q '^pct top - ./hot (pid [0-9]*) - 1 process, 1 thread, 1 running' screen.txt || fail "no title line"
# the rate, once the run has a few seconds of samples (750 at 250 Hz)
sleep 3
tmux -L "$sock" capture-pane -p >screen.txt
truth=$(cat truth.txt)
cat screen.txt
row=$(grep ' hot_spin ' screen.txt | head -n 1)
[ -n "$row" ] || fail "hot_spin left the screen"
check_rate terminal "$row" "$truth" || fail "the run's rate of hot_spin disagrees with the program's CPU time"
echo "$row" | grep -q 'hot/[0-9]* 100%' || fail "hot_spin's samples are not all of thread hot: $row"
pid=$(sed -n 's/^pct top - .\/hot (pid \([0-9]*\)).*/\1/p' screen.txt | head -n 1)
[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || fail "no running pid in the title"
tmux -L "$sock" send-keys q
for _ in $(seq 50); do [ -s rc.txt ] && break; sleep 0.2; done
[ -s rc.txt ] || fail "pct top did not exit 10 s after q"
[ "$(cat rc.txt)" = 0 ] || fail "pct top exited $(cat rc.txt) on q, not 0"
kill -0 "$pid" 2>/dev/null && fail "the command (pid $pid) still runs after q"
pass "q exits 0 and ends the command"

# 2. not on a terminal: plain snapshots, and the command's status
rc=0
"$PCTBIN" top -d 0.5 -- ./hot truth2.txt 2.5 3 >plain.txt 2>plain.err || rc=$?
cat plain.txt plain.err
[ "$rc" = 3 ] || fail "pct top -- (a command exiting 3) exited $rc"
[ "$(tr -cd '\033' <plain.txt | wc -c)" = 0 ] || fail "escape bytes in the plain snapshots"
n=$(grep -c '^pct top - ' plain.txt)
[ "$n" -ge 4 ] || fail "only $n snapshots in 2.5 s at -d 0.5"
last=$(awk '/^pct top - /{ s = "" } { s = s $0 "\n" } END { printf "%s", s }' plain.txt)
echo "$last" | grep -q '1 process, 1 thread, 0 running' || fail "the last snapshot is not of the ended command"
row=$(echo "$last" | grep ' hot_spin ' | head -n 1)
[ -n "$row" ] || fail "hot_spin is not in the last snapshot"
check_rate plain "$row" "$(cat truth2.txt)" || fail "the run's rate of hot_spin disagrees with the program's CPU time"
pass "plain snapshots, exit status 3 passed through"

# 3. a file pct record is writing: followed until the recording ends
"$PCTBIN" record -o live.pct ./hot truth3.txt 2.5 0 >/dev/null 2>&1 &
rec=$!
for _ in $(seq 50); do [ -e live.pct ] && break; sleep 0.1; done
rc=0
timeout 30 "$PCTBIN" top -d 0.5 live.pct >file.txt 2>file.err || rc=$?
wait "$rec"
cat file.txt file.err
[ "$rc" = 0 ] || fail "pct top FILE exited $rc (124: it did not stop when the recording ended)"
[ "$(grep -c '^pct top - live.pct - ' file.txt)" -ge 3 ] || fail "fewer than 3 snapshots of live.pct"
awk '/^pct top - /{ s = "" } { s = s $0 "\n" } END { printf "%s", s }' file.txt | grep -q '1 process, 1 thread, 0 running' || fail "the last snapshot does not say the file is no longer written"
grep -q ' hot_spin ' file.txt || fail "hot_spin is not in the snapshots of live.pct"
pass "pct top FILE follows a recording and exits 0 when it ends"

# 4. a process tree: sh starts two hot processes, each writes its own
# profile when it takes its first sample; both are followed
rc=0
"$PCTBIN" top -d 0.5 -- sh -c './hot t4a.txt 2 0 & ./hot t4b.txt 2 0; wait' >tree.txt 2>tree.err || rc=$?
cat tree.txt tree.err
[ "$rc" = 0 ] || fail "pct top -- sh -c ... exited $rc"
last=$(awk '/^pct top - /{ s = "" } { s = s $0 "\n" } END { printf "%s", s }' tree.txt)
echo "$last" | head -n 1 | grep -q '^pct top - sh (pid [0-9]*) - 3 processes, [23] threads, 0 running' ||
	fail "the last snapshot does not count sh and the two hot processes and their threads"
row=$(echo "$last" | grep ' hot_spin ' | head -n 1)
echo "$row" | grep -q 'hot/[0-9]* [0-9]*%, hot/[0-9]* [0-9]*%$' || fail "hot_spin's row does not show both processes' threads: $row"
pass "a process tree's later files are followed"

# 5. the reader goes away (| head): the command is ended, its profiles
# removed, and top exits 1 saying why; a hangup (the terminal closed)
# does the same
mkdir tmp
TMPDIR=$SCRATCH/tmp "$PCTBIN" top -d 0.2 -- ./hot t5.txt 30 0 2>gone.err | head -n 1 >head.txt
rc=${PIPESTATUS[0]}
cat head.txt gone.err
[ "$rc" = 1 ] || fail "pct top exited $rc when its reader went away, not 1"
pid=$(sed -n 's/^pct top - .\/hot (pid \([0-9]*\)).*/\1/p' head.txt)
[ -n "$pid" ] || fail "no title line before the pipe closed"
sleep 0.5
kill -0 "$pid" 2>/dev/null && fail "the command (pid $pid) still runs after pct top's reader went away"
[ -z "$(ls -A tmp)" ] || fail "pct top left its profiles behind: $(ls -A tmp)"
grep -q 'standard output is gone' gone.err || fail "pct top does not say why it ended"
tmux -L "$sock" new-session -d -x 120 -y 20 "cd '$SCRATCH' && TMPDIR='$SCRATCH/tmp' '$PCTBIN' top -d 1 -- ./hot t6.txt 30 0"
for _ in $(seq 30); do [ -e t6.txt ] && break; sleep 0.1; done
pid=$(pgrep -n -f 'hot t6.txt') || fail "the command under tmux did not start"
tmux -L "$sock" kill-server
for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
kill -0 "$pid" 2>/dev/null && fail "the command (pid $pid) still runs after pct top's terminal closed"
sleep 0.3
[ -z "$(ls -A tmp)" ] || fail "pct top left its profiles behind after a hangup: $(ls -A tmp)"
pass "a closed pipe or terminal ends the command and removes its profiles"
