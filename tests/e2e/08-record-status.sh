# pct record passes the command's exit status through, including death by
# a signal, prints one summary line, and moves an existing output aside.
. "$(dirname "$0")/lib.sh"
"$PCTBIN" record -o s.pct sh -c 'exit 3' 2>err; rc=$?
[ $rc -eq 3 ] || fail "exit status 3 became $rc"
# (a run of a millisecond takes a sample with a probability of about a
# quarter: each thread's first period is a random phase; then the summary
# is followed by the command that reports it)
[ "$(grep -vc '^pct: the samples cover\|^pct: report it with\|^pct: timer overruns' err)" -eq 1 ] || fail "expected one summary line: $(cat err)"

bash -c '"$0" record -o k.pct sh -c "kill -TERM \$\$"' "$PCTBIN" 2>/dev/null; rc=$?
[ $rc -eq 143 ] || fail "death by SIGTERM gave status $rc, expected 143"

"$PCTBIN" record -o n.pct /nonexistent/program 2>err; rc=$?
[ $rc -eq 127 ] || fail "missing command gave $rc, expected 127"
grep -q "cannot run '/nonexistent/program'" err || fail "no clear message: $(cat err)"

"$PCTBIN" record -o again.pct "$PROGS/selftime" 0.2 >/dev/null 2>&1
"$PCTBIN" record -o again.pct "$PROGS/selftime" 0.2 >/dev/null 2>&1
[ -f again.pct ] && [ -f again.pct.old ] || fail "existing output not moved to .old: $(ls)"

"$PCTBIN" record "$PROGS/selftime" 0.2 >/dev/null 2>&1
[ -f selftime.pct ] || fail "default output should be selftime.pct: $(ls)"

"$PCTBIN" record 2>/dev/null; [ $? -eq 2 ] || fail "no command should be a usage error (2)"
"$PCTBIN" record --help | grep -q '^usage: pct record' || fail "record --help"
# an -o that cannot be created is a usage error found before the command
# runs (before: the command ran, the profile was lost, and record exited 0)
rm -f ran
"$PCTBIN" record -o /nonexistent/x.pct -- sh -c 'touch ran' 2>o.err; st=$?
[ $st = 2 ] || fail "-o /nonexistent/x.pct: exit $st, want 2: $(cat o.err)"
[ ! -e ran ] || fail "-o /nonexistent/x.pct: the command ran"
grep -q "cannot create '/nonexistent/x.pct'" o.err || fail "-o /nonexistent: $(cat o.err)"
"$PCTBIN" record -F x -- true 2>/dev/null; [ $? = 2 ] || fail "-F x: not exit 2"
# a command that took no sample: the message gives its CPU time and the
# period, the likeliest reason (before: it blamed static programs first)
# (true may take a sample, with a probability of about a quarter: rerun)
for try in 1 2 3 4 5 6 7 8 9 10 11 12; do
	rm -f t.pct
	"$PCTBIN" record -o t.pct -- true 2>t.err || fail "record true: $(cat t.err)"
	[ -e t.pct ] || break
done
grep -q "^pct: 'true' wrote no profile: no sample in its \(about\|less than\) [0-9]* ms of CPU time (one per 4.0 ms" t.err ||
	fail "record true: $(cat t.err)"
# a command that drops the runtime before it uses 0.1 s of CPU (env -u
# LD_PRELOAD, then exec): no profile, and with CPU-time timers over three
# periods or more the message adds that the kernel may have checked no
# timer (its tick), which perf events (-F 1000) do not wait for; env itself
# may take a sample (rerun)
cat >burn.c <<'C'
#include <time.h>
int main(void) { volatile double x = 0; while (clock() < CLOCKS_PER_SEC / 10) for (int i = 0; i < 100000; i++) x += i; return 0; }
C
cc -O1 -o burn burn.c || fail "cc burn.c"
for rate in "" 1000; do
	per=4.0; [ -n "$rate" ] && per=1.0
	for try in 1 2 3 4 5 6 7 8 9 10 11 12; do
		rm -f s.pct
		"$PCTBIN" record ${rate:+-F $rate} -o s.pct -- env -u LD_PRELOAD ./burn 2>s.err || fail "record -F ${rate:-250} burn: $(cat s.err)"
		[ -e s.pct ] || break
	done
	[ ! -e s.pct ] || fail "-F ${rate:-250}: env took a sample in each of 12 runs"
	grep -q "^pct: 'env' wrote no profile: no sample in its about [0-9]* ms of CPU time (one per $per ms" s.err ||
		fail "record -F ${rate:-250} burn: $(cat s.err)"
	if [ -z "$rate" ]; then
		grep -q "; or the kernel checked no CPU-time timer: it does so only at a tick that finds the thread running" s.err ||
			fail "record burn, CPU-time timers: the tick not named: $(cat s.err)"
	else
		grep -q "checked no CPU-time timer" s.err && fail "record -F 1000 burn: the tick blamed for perf events: $(cat s.err)"
	fi
done
pass "statuses pass through"
