# Debug links and debuginfod from a hostile module: a .gnu_debuglink that
# names a FIFO, or a path out of the module's directory, is never opened,
# and a debuginfod server that never answers is asked at most once per
# build-id and holds a report up for at most $PCT_DEBUGINFOD_TIMEOUT
# seconds in all.  Every run is bounded by timeout.
. "$(dirname "$0")/lib.sh"
command -v objcopy >/dev/null || skip "no objcopy"
command -v python3 >/dev/null || skip "no python3"
command -v cc >/dev/null || skip "no C compiler"
unset DEBUGINFOD_URLS DEBUGINFOD_TIMEOUT DEBUGINFOD_PROGRESS PCT_DEBUGINFOD_TIMEOUT
export DEBUGINFOD_CACHE_PATH=$PWD/dcache
bg=

cleanup() {
	for p in $bg; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$SCRATCH"
}
trap cleanup EXIT

# spin [SECONDS]: SECONDS of CPU time (default 0.2) in spin
cat >spin.c <<'EOF'
#include <stdlib.h>
#include <time.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void spin(double s)
{
	struct timespec a, b;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 100000; i++)
			sink += (unsigned long)i * N;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < (long)(s * 1e9));
}
int main(int argc, char **argv) { spin(argc > 1 ? atof(argv[1]) : 0.2); return 0; }
EOF

# record FILE PROGRAM: a profile with samples in PROGRAM's own module, the
# one whose debug link or build-id the reports below look up (a module
# without samples is not looked up): 0.2 s (50 samples at 250 Hz), run
# longer (up to 1.6 s) until 5 samples are there.  A loaded machine loses
# CPU-timer expirations, and a short run may take no sample and write no
# profile at all; a report of a missing profile exits 1, as run allows,
# having asked no server.
in_module() {
	"$PCTBIN" report --format=tsv "$1" 2>/dev/null | awk -F'\t' -v m="/${rec_prog##*/}" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		substr($c["module"], length($c["module"]) - length(m) + 1) == m { n += $c["samples"] } END { print n + 0 }'
}
rec_run() { "$PCTBIN" record -o "$rec_file" "$rec_prog" "$1" >/dev/null 2>&1 || fail "record $rec_prog"; }
record() {
	rec_file=$1 rec_prog=$2
	until_samples 5 "$rec_file" 0.2 1.6 rec_run in_module
}

# run WHAT PCT ARGS: within 60 s, exit 0 or 1 (pct source finds no lines)
run() {
	local what=$1; shift
	timeout -k 2 60 "$PCTBIN" "$@" >out 2>err </dev/null
	local st=$?
	[ $st = 124 ] || [ $st = 137 ] && fail "$what: pct $* hung (killed after 60 s)"
	[ $st -le 1 ] || fail "$what: pct $* exited $st: $(head -c 300 err)"
}

# 1. A debug link naming a FIFO next to the module: elfutils' finder opens
# it with a blocking open.
cc -O1 -DN=1 -o fifolink spin.c || fail "cc"
strip -g fifolink
: >link.debug
objcopy --add-gnu-debuglink=link.debug fifolink || fail "objcopy"
rm link.debug
mkfifo link.debug
record f.pct ./fifolink
for c in "report --by=line" "annotate" "source"; do
	# shellcheck disable=SC2086
	run "debug link to a FIFO" $c f.pct
done

# 2. A debug link climbing out of the module's directory to a FIFO.
mkdir -p a/b
mkfifo evil.fifo
cc -O1 -DN=2 -o a/b/dotdot spin.c || fail "cc"
strip -g a/b/dotdot
python3 - link.bin "../../../../../../../..$PWD/evil.fifo" <<'EOF' || fail "link section"
import sys
name = sys.argv[2].encode() + b'\0'
name += b'\0' * (-len(name) % 4)
open(sys.argv[1], 'wb').write(name + b'\x01\x02\x03\x04')
EOF
objcopy --add-section .gnu_debuglink=link.bin a/b/dotdot || fail "objcopy"
record d.pct ./a/b/dotdot
for c in "report --by=line" "annotate" "source"; do
	# shellcheck disable=SC2086
	run "debug link with ../" $c d.pct
done

# 3. debuginfod: stripped programs whose build-ids have no local debug file.
cat >server.py <<'EOF'
# server.py MODE PORTFILE LOG: accept HTTP connections on 127.0.0.1, log
# each request line; "close" hangs up at once, "hang" never answers.
import socket, sys
mode, portfile, log = sys.argv[1:4]
s = socket.socket()
s.bind(('127.0.0.1', 0))
s.listen(64)
with open(portfile + '.tmp', 'w') as f:
    f.write(str(s.getsockname()[1]))
import os
os.rename(portfile + '.tmp', portfile)
held = []
while True:
    c, _ = s.accept()
    c.settimeout(2)
    try:
        line = c.recv(4096).split(b'\r\n', 1)[0].decode(errors='replace')
    except OSError:
        line = '?'
    with open(log, 'a') as f:
        f.write(line + '\n')
    if mode == 'close':
        c.close()
    else:
        held.append(c)
EOF
profiles=
for n in 3 4 5; do
	cc -O1 -DN=$n -o prog$n spin.c || fail "cc"
	strip prog$n
	record p$n.pct ./prog$n
	profiles="$profiles p$n.pct"
done
server() {   # server MODE: start one, set $port
	rm -f port log
	timeout 300 python3 server.py "$1" port log &
	bg="$bg $!"
	for _ in $(seq 100); do [ -s port ] && break; sleep 0.1; done
	[ -s port ] || fail "the test server did not start"
	port=$(cat port)
}

# a server that hangs up: every build-id is asked at most once
server close
rm -rf dcache
# shellcheck disable=SC2086
DEBUGINFOD_URLS=http://127.0.0.1:$port run "debuginfod (hangs up)" report --by=line $profiles
[ -s log ] || fail "pct never asked the debuginfod server"
# the build-ids asked for, one line per request (debuginfo, executable...)
asked_ids() { sed -n 's|.*/buildid/\([0-9a-fA-F]*\)/.*|\1|p' log; }
asked=$(grep -c . log)
dups=$(asked_ids | sort | uniq -d)
[ -z "$dups" ] || fail "asked more than once for a build-id ($asked requests): $(cat log)"
echo "server that hangs up: $asked requests, none repeated"

# a server that never answers: the whole report waits at most
# $PCT_DEBUGINFOD_TIMEOUT for it, here 4 s (e2e 103 holds the default,
# 15 s, to its bound); 2 s of slack: libdebuginfod looks at the progress
# callback that ends a query about once a second, and the report's own
# work under load
export PCT_DEBUGINFOD_TIMEOUT=4
server hang
rm -rf dcache
s=$(date +%s%N)
# shellcheck disable=SC2086
DEBUGINFOD_URLS=http://127.0.0.1:$port run "debuginfod (silent)" report --by=line $profiles
e=$(( ($(date +%s%N) - s) / 1000000 ))
[ "$e" -le 6000 ] || fail "report took $e ms with a silent debuginfod server (bound 4 s + 2 s)"
dups=$(asked_ids | sort | uniq -d)
[ -z "$dups" ] || fail "asked more than once for a build-id: $(cat log)"
echo "silent server: report in $e ms, $(grep -c . log) requests"
# each query timing out after 1 s: libdebuginfod would retry it
: >log
rm -rf dcache
# shellcheck disable=SC2086
DEBUGINFOD_TIMEOUT=1 DEBUGINFOD_URLS=http://127.0.0.1:$port run "debuginfod (1 s timeouts)" report --by=line $profiles
dups=$(asked_ids | sort | uniq -d)
[ -z "$dups" ] || fail "with DEBUGINFOD_TIMEOUT=1, asked more than once for a build-id: $(sort log | uniq -c)"
echo "1 s timeouts: $(grep -c . log) requests, none repeated"
unset PCT_DEBUGINFOD_TIMEOUT
# PCT_DEBUGINFOD_TIMEOUT=0: no request at all
: >log
# shellcheck disable=SC2086
PCT_DEBUGINFOD_TIMEOUT=0 DEBUGINFOD_URLS=http://127.0.0.1:$port run "debuginfod off" report $profiles
[ ! -s log ] || fail "PCT_DEBUGINFOD_TIMEOUT=0 still asked: $(cat log)"
# not a number: a warning, the report, and no request (the symbol layer
# used to exit from inside the report)
# shellcheck disable=SC2086
PCT_DEBUGINFOD_TIMEOUT=soon DEBUGINFOD_URLS=http://127.0.0.1:$port timeout -k 2 60 "$PCTBIN" report --by=line $profiles >out 2>err
st=$?
[ $st = 0 ] || fail "PCT_DEBUGINFOD_TIMEOUT=soon: report exited $st: $(head -c 300 err)"
grep -q "PCT_DEBUGINFOD_TIMEOUT wants a number of seconds, not 'soon'" err || fail "no warning for PCT_DEBUGINFOD_TIMEOUT=soon: $(cat err)"
grep -q 'samples' out || fail "PCT_DEBUGINFOD_TIMEOUT=soon: no report: $(head -c 300 out)"
[ ! -s log ] || fail "PCT_DEBUGINFOD_TIMEOUT=soon still asked: $(cat log)"
left=$(ps -o pid=,args= --ppid $$ | grep -c '[p]ct ')
[ "$left" -eq 0 ] || fail "processes left behind: $(ps -o pid=,args= --ppid $$)"
pass "debug links to FIFOs and out of the module's directory ignored; debuginfod asked once per build-id, bounded"
