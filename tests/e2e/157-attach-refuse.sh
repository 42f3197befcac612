# pct record -p refuses, before attaching to anything, what it cannot or
# must not profile, with a message that names the reason and what would
# allow it: a process that does not exist (exit 1), another user's
# process and a non-dumpable one (as nobody; exit 1), a process traced
# already (by strace) with --mechanism=ptrace (exit 1; the perf mechanism
# samples it), a thread instead of a process and malformed options (exit
# 2), a setuid program run by a user the runtime cannot profile (exit 1,
# the program not run).  And the cells of pct-record(1)'s matrix this
# machine has: as nobody at perf_event_paranoid 2, perf samples one's own
# process in user mode only, and ptrace (no Yama here, or scope 0)
# attaches to it.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
expect() {  # expect STATUS PATTERN ARGS...: record exits STATUS saying PATTERN
	local want=$1 pat=$2
	shift 2
	"$@" >out 2>err
	local rc=$?
	[ $rc = "$want" ] || fail "$* exits $rc, not $want: $(cat err)"
	grep -q -- "$pat" err || fail "$* says: $(cat err) (want: $pat)"
	echo "$rc: $(head -c 300 err)"
}
# no such process: a pid with no /proc entry
gone=4194300
while [ -e /proc/$gone ]; do gone=$((gone - 1)); done
expect 1 "no process $gone" "$PCTBIN" record -p $gone
expect 2 "wants process ids" "$PCTBIN" record -p 12,,3
expect 2 "wants process ids" "$PCTBIN" record -p 0
expect 2 "mechanism is perf or ptrace" "$PCTBIN" record -p 1 --mechanism=gdb
expect 2 "duration goes with -p" "$PCTBIN" record --duration=1 true
expect 2 "takes no command" "$PCTBIN" record -p 1 true
"$HOSTS/attach-jobctl" >log &
pp=$!
for _ in $(seq 1 100); do grep -q '^child' log && break; sleep 0.05; done
c=$(awk '/^child [0-9]/ { print $2 }' log)
tid=$(ls /proc/"$c"/task | grep -vx "$c" | head -n 1)
expect 2 "is a thread of process $c" "$PCTBIN" record -p "$tid"
expect 2 "needs the perf mechanism" "$PCTBIN" record -p "$c" -e user --mechanism=ptrace
# traced already: ptrace refuses, perf samples it
if command -v strace >/dev/null; then
	strace -o /dev/null -p "$c" 2>/dev/null &
	sp=$!
	for _ in $(seq 1 100); do [ "$(awk '/^TracerPid:/ { print $2 }' /proc/"$c"/status)" != 0 ] && break; sleep 0.05; done
	expect 1 "is traced already, by process $sp (strace)" "$PCTBIN" record -p "$c" --mechanism=ptrace -o t.pct
	"$PCTBIN" record -p "$c" --duration=0.3 -o t2.pct 2>err || fail "perf on a traced process: $(cat err)"
	grep -q "with the perf mechanism" err || fail "auto on a traced process: $(cat err)"
	kill -INT $sp
	wait $sp
fi
[ "$(id -u)" = 0 ] || { kill -TERM "$c"; wait $pp; pass "refusals (not root: the other users' cells untested)"; }
nobody="setpriv --reuid=nobody --regid=nogroup --clear-groups"   # execs: $! is the program's pid
as_nobody() { $nobody "$@"; }
chmod 755 "$SCRATCH"
expect 1 "runs as root, uid 0.*needs root (CAP_PERFMON for the perf mechanism, CAP_SYS_PTRACE for ptrace)" \
	as_nobody "$PCTBIN" record -p "$c" -o /tmp/nobody-$$.pct
kill -TERM "$c"
wait $pp
# nobody's own processes: one not dumpable, one plain
mkdir -m 777 own
# PR_SET_DUMPABLE is 4 (prctl.h)
$nobody /usr/bin/python3 -c 'import ctypes, sys, time; ctypes.CDLL(None).prctl(4, 0); print("ready", flush=True); time.sleep(20)' >own/nd-ready &
nd=$!
$nobody "$HOSTS/attach-truth" 1 20 >/dev/null 2>own/ready &
own=$!
wait_line own/nd-ready ready || fail "the undumpable program did not start"
wait_line own/ready ready || fail "attach-truth did not start as nobody"
expect 1 "is not dumpable" as_nobody "$PCTBIN" record -p $nd -o own/nd.pct
paranoid=$(cat /proc/sys/kernel/perf_event_paranoid)
scope=$(cat /proc/sys/kernel/yama/ptrace_scope 2>/dev/null || echo none)
(cd own && as_nobody "$PCTBIN" record -p $own --duration=0.5 --no-cache -o perf.pct) 2>err
rc=$?
echo "nobody, perf_event_paranoid $paranoid, ptrace_scope $scope, perf: $(tr '\n' ' ' <err | head -c 300)"
if [ "$paranoid" = 2 ]; then
	[ $rc = 0 ] || fail "nobody at paranoid 2: perf on its own process: $(cat err)"
	grep -q "user mode only" err || fail "nobody at paranoid 2: not user mode only: $(cat err)"
fi
if [ "$scope" = none ] || [ "$scope" = 0 ]; then
	(cd own && as_nobody "$PCTBIN" record -p $own --duration=0.5 --mechanism=ptrace --no-cache -o pt.pct) 2>err ||
		fail "nobody, ptrace_scope $scope: ptrace on its own process: $(cat err)"
	echo "nobody, ptrace: $(grep 'sampled' err)"
fi
# where perf events are refused (tests/progs/noperf: a seccomp filter,
# EACCES for perf_event_open only), the default is the ptrace mechanism
(cd own && as_nobody "$PROGS/noperf" "$PCTBIN" record -p $own --duration=0.3 --no-cache -o np.pct) 2>err ||
	fail "nobody without perf events: $(cat err)"
grep -q "with the ptrace mechanism" err || fail "nobody without perf events: not ptrace: $(cat err)"
echo "nobody, perf refused: $(grep 'sampled' err)"
# the sysctls' refusals, each naming the sysctl and what would allow it:
# Yama's scope and perf_event_paranoid read from files bind-mounted over
# /proc/sys/kernel in a private mount namespace (the host's are not
# touched; perf itself refused by noperf, as a kernel at paranoid 3 does)
if command -v unshare >/dev/null && unshare -m --propagation private true 2>/dev/null; then
	# in_sysctls SCOPE PARANOID CMD...: CMD where those are the sysctls
	in_sysctls() {
		rm -rf fk
		mkdir -p fk/yama
		echo "$2" >fk/perf_event_paranoid
		echo "$1" >fk/yama/ptrace_scope
		chmod -R a+rX fk
		local d=$PWD/fk
		shift 2
		unshare -m --propagation private sh -c 'mount --bind "$0" /proc/sys/kernel && exec "$@"' "$d" "$@"
	}
	np=$PROGS/noperf
	expect 1 "neither mechanism can be used: perf: the kernel refuses perf_event_open(2) (Permission denied) at kernel.perf_event_paranoid 3: above 2 it allows no user without CAP_PERFMON; set kernel.perf_event_paranoid=2 (user mode) or 1, or run pct as root; ptrace: kernel.yama.ptrace_scope is 2: only CAP_SYS_PTRACE (root) may attach with ptrace(2); run pct as root, or set kernel.yama.ptrace_scope=1 or 0" \
		in_sysctls 2 3 $nobody "$np" "$PCTBIN" record -p $own -o own/s2.pct
	expect 1 "ptrace: kernel.yama.ptrace_scope is 1: only a process's ancestors may attach to it with ptrace(2); run pct as root (CAP_SYS_PTRACE), start the program under pct record, or set kernel.yama.ptrace_scope=0" \
		in_sysctls 1 3 $nobody "$np" "$PCTBIN" record -p $own -o own/s1.pct
	expect 1 "the ptrace mechanism cannot be used: kernel.yama.ptrace_scope is 3: ptrace(2) attach is disabled for everyone, root included" \
		in_sysctls 3 2 "$PCTBIN" record -p $own --mechanism=ptrace -o s3.pct
	# scope 1: a command under pct record is pct's child, which it may trace
	(cd own && in_sysctls 1 3 $nobody "$np" "$PCTBIN" record --mechanism=ptrace --no-cache -o d.pct "$HOSTS/attach-truth" 1 0.3) \
		>/dev/null 2>err || fail "nobody at ptrace_scope 1: ptrace of its own command: $(cat err)"
	echo "nobody at ptrace_scope 1, its command: $(grep 'sampled' err)"
fi
# a setuid program, run by nobody: its loader would ignore LD_PRELOAD,
# and only root may trace it across the exec
mkdir -m 755 suid
cp "$HOSTS/attach-truth" suid/prog
chmod 4755 suid/prog
(cd own && as_nobody "$PCTBIN" record -o s.pct ../suid/prog 1 0.2) >out 2>err
rc=$?
[ $rc = 1 ] || fail "a setuid program as nobody: exit $rc: $(cat err)"
grep -q "is setuid (root, uid 0): its loader ignores LD_PRELOAD, and only root (CAP_SYS_PTRACE) may profile it from outside; the command was not run" err ||
	fail "a setuid program as nobody: $(cat err)"
[ -s out ] && fail "the setuid program ran: $(head -2 out)"
# the same program setuid to nobody, run by root: its loader runs it
# securely (LD_PRELOAD ignored), so record samples it from outside with
# ptrace (perf events are dropped at an exec that changes ids)
mkdir -m 755 suid2
cp "$HOSTS/attach-truth" suid2/prog
chown nobody suid2/prog
chmod 4755 suid2/prog
# 0.4 s of CPU: 100 samples at 250 Hz, at least 20 wanted; a loaded
# machine makes the stops late (18 seen beside two busy loops): run longer
suid_run() { "$PCTBIN" record -o s2.pct suid2/prog 1 "$1" >out 2>err || fail "a setuid program as root: exit $?: $(cat err)"; }
until_samples 20 s2.pct 0.4 1.6 suid_run
grep -q "'suid2/prog' is setuid (nobody, uid 65534): the runtime cannot be preloaded into it; sampling it from outside with the ptrace mechanism" err ||
	fail "a setuid program as root: $(cat err)"
grep -q '^work_a' out || fail "a setuid program as root: its output is not whole: $(head -3 out)"
n=$(samples_in s2.pct)
[ "$n" -ge 20 ] || fail "a setuid program as root: $n samples"
echo "root, a setuid program: $n samples; $(head -1 err)"
expect 2 "use --mechanism=ptrace" "$PCTBIN" record --mechanism=perf -o s3.pct suid2/prog 1 0.1
kill $nd $own 2>/dev/null
wait $nd $own 2>/dev/null
pass "refusals name the reason; nobody's cells of the matrix as documented"
