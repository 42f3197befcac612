# debuginfod with Debian's own server: `debuginfod -F` on a free port of
# this machine serves a folder holding an unstripped build of a program,
# queried at 127.0.0.1 (debuginfod 0.188 listens on every address; it has
# no option to bind one).
#  (a) a stripped copy's profile gets its function names and source lines
#      from the server (the debug info, by build-id);
#  (b) with the recorded binary deleted, its executable is fetched by
#      build-id: the report names the hot function, annotate disassembles it;
#  (c) without DEBUGINFOD_URLS the same profiles have no names, no lines;
#  (d) a server that accepts connections and never answers costs a whole
#      report at most $PCT_DEBUGINFOD_TIMEOUT (default 15 s) plus 2 s of
#      slack: libdebuginfod looks at its progress callback about once a
#      second, and the report's own work under load.
. "$(dirname "$0")/lib.sh"
command -v debuginfod >/dev/null || skip "no debuginfod (Debian package debuginfod; scripts/deps.sh)"
command -v python3 >/dev/null || skip "no python3"
command -v cc >/dev/null || skip "no C compiler"
command -v readelf >/dev/null || skip "no readelf"
unset DEBUGINFOD_URLS DEBUGINFOD_TIMEOUT DEBUGINFOD_PROGRESS DEBUGINFOD_VERBOSE PCT_DEBUGINFOD_TIMEOUT
export DEBUGINFOD_CACHE_PATH=$SCRATCH/dcache XDG_CACHE_HOME=$SCRATCH/cache
bg=
cleanup() {
	for p in $bg; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$SCRATCH"
}
trap cleanup EXIT

# prog [SECONDS]: SECONDS of CPU time (default 0.3) in hot_loop, reading
# its clock every 10^6 iterations (about 1 ms): on an oversubscribed
# machine the CPU timers' samples gather in those reads (callchain.c)
cat >prog.c <<'EOF'
#include <stdlib.h>
#include <time.h>
static volatile unsigned long sink;
__attribute__((noinline)) static void hot_loop(double s)
{
	struct timespec a, b;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	do {
		for (int i = 0; i < 1000000; i++)
			sink += (unsigned long)i * 7;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	} while ((b.tv_sec - a.tv_sec) * 1000000000L + (b.tv_nsec - a.tv_nsec) < (long)(s * 1e9));
}
int main(int argc, char **argv) { hot_loop(argc > 1 ? atof(argv[1]) : 0.3); return 0; }
EOF
mkdir srv run gone
cc -g -O1 -Wl,--build-id -o srv/prog prog.c || fail "cc"
id=$(readelf -n srv/prog | sed -n 's/.*Build ID: *//p')
[ -n "$id" ] || fail "no build-id in the test program"
cp srv/prog run/prog && strip run/prog
cp run/prog gone/prog
# 50 samples in each profile (0.3 s: 75 at 250 Hz), run longer (up to
# 2.4 s) until it has them: a loaded machine loses CPU-timer expirations,
# and a short run may take no sample and write no profile at all
rec_a() { "$PCTBIN" record -o a.pct ./run/prog "$1" >/dev/null 2>&1 || fail "record the stripped program"; }
rec_b() { "$PCTBIN" record -o b.pct ./gone/prog "$1" >/dev/null 2>&1 || fail "record the program to delete"; }
until_samples 50 a.pct 0.3 2.4 rec_a
until_samples 50 b.pct 0.3 2.4 rec_b
rm gone/prog

# report ARGS...: pct ARGS within 60 s into out and err; $ms: its wall time
report() {
	local t0; t0=$(date +%s%N)
	timeout -k 2 60 "$PCTBIN" "$@" >out 2>err </dev/null
	local st=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ $st = 124 ] || [ $st = 137 ] && fail "pct $* hung (killed after 60 s)"
	[ $st = 0 ] || fail "pct $* exited $st: $(head -c 300 err)"
}
# the share (percent) of samples in rows whose COLUMN is VALUE, from a TSV report
share() { share_of out "$1" "$2"; }

# (c) first: no server, no names; the test below can fail
report report --format=tsv a.pct
nohot=$(share function hot_loop)
report report --format=tsv --by=line a.pct
grep -q 'prog\.c' out && fail "(c) lines without debuginfod: $(head -5 out)"
[ "$nohot" = 0.00 ] || fail "(c) hot_loop named without debuginfod ($nohot%)"
report report --format=tsv b.pct
[ "$(share function hot_loop)" = 0.00 ] || fail "(c) the deleted binary named without debuginfod"
echo "(c) without DEBUGINFOD_URLS: hot_loop 0% in both profiles, no source lines"

# Debian's debuginfod on a free port, its database in the scratch directory
start_server() {
	port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
	debuginfod -F -p "$port" -d "$SCRATCH/db.sqlite" -t 0 -g 0 srv >dlog 2>&1 &
	dpid=$!
	bg="$bg $dpid"
	# ready when it serves the executable (its first scan done): 30 s at most
	for _ in $(seq 150); do
		kill -0 "$dpid" 2>/dev/null || return 1
		python3 -c 'import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)' \
			"http://127.0.0.1:$port/buildid/$id/executable" 2>/dev/null && return 0
		sleep 0.2
	done
	return 1
}
started=
for _ in 1 2 3; do   # another process may take the port between the probe and debuginfod
	if start_server; then started=1; break; fi
	kill "$dpid" 2>/dev/null; wait "$dpid" 2>/dev/null
done
[ -n "$started" ] || fail "debuginfod did not start: $(tail -5 dlog)"
export DEBUGINFOD_URLS=http://127.0.0.1:$port

# (a) the stripped copy: names and lines from the server's debug info
report report --format=tsv a.pct
hot=$(share function hot_loop)
# hot_loop has 94-100% of the samples (load 7.5 on 2 CPUs; the rest in
# clock_gettime): of 50 samples or more, fewer than half in it is at
# most 1e-4 to happen by chance from a share of 90% (binomial: 1e-13)
awk -v s="$hot" 'BEGIN { exit !(s >= 50) }' || fail "(a) hot_loop has $hot% with debuginfod: $(head -5 out)"
report report --format=tsv --by=line a.pct
lines=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["file"] ~ /prog\.c$/ && $c["line"] > 0 { n += $c["samples"] } END { print n + 0 }' out)
[ "$lines" -gt 0 ] || fail "(a) no source lines from debuginfod: $(head -5 out)"
grep -q "GET /buildid/$id/debuginfo 200" dlog || fail "(a) the server was not asked for the debug info"
# the recorded file is there, of the right build: its executable is not asked for
grep "UA:elfutils.*GET /buildid/$id/executable" dlog && fail "(a) pct asked for an executable it has"
echo "(a) stripped copy: hot_loop $hot% of samples, $lines samples on lines of prog.c"

# (b) the deleted binary: its executable by build-id
rm -rf dcache
report report --format=tsv b.pct
hot=$(share function hot_loop)
# (50 samples or more: as (a))
awk -v s="$hot" 'BEGIN { exit !(s >= 50) }' || fail "(b) hot_loop has $hot% with the binary deleted: $(head -5 out) $(cat err)"
grep -q "GET /buildid/$id/executable 200" dlog || fail "(b) the server was not asked for the executable"
report annotate hot_loop b.pct
grep -q '^# hot_loop in prog' out || fail "(b) annotate: $(head -3 out)"
# the instructions: an address and a mnemonic per line, some with samples
n=$(grep -cE '^ +([0-9]+ +[0-9.]+% +)?[0-9a-f]+  [a-z]' out)
[ "$n" -ge 5 ] || fail "(b) annotate shows $n instructions: $(head -20 out)"
echo "(b) deleted binary: hot_loop $hot% of samples, annotate shows $n instructions"
kill "$dpid"; wait "$dpid" 2>/dev/null

# (d) a server that accepts connections and never answers
cat >silent.py <<'EOF'
import os, socket, sys
s = socket.socket()
s.bind(('127.0.0.1', 0))
s.listen(64)
with open(sys.argv[1] + '.tmp', 'w') as f:
    f.write(str(s.getsockname()[1]))
os.rename(sys.argv[1] + '.tmp', sys.argv[1])
held = []
while True:
    held.append(s.accept()[0])
EOF
timeout 300 python3 silent.py sport &
bg="$bg $!"
for _ in $(seq 100); do [ -s sport ] && break; sleep 0.1; done
[ -s sport ] || fail "the silent server did not start"
sport=$(cat sport)
export DEBUGINFOD_URLS=http://127.0.0.1:$sport
# the default budget costs its 15 s: make check-full waits for it, make
# check holds the bound with PCT_DEBUGINFOD_TIMEOUT=3 below
d15="(the default budget's run is make check-full's)"
if [ "$(full_or 1 0)" = 1 ]; then
	rm -rf dcache
	report report --by=line a.pct b.pct
	[ "$ms" -le 17000 ] || fail "(d) the report took $ms ms with a silent server (bound 15 s + 2 s)"
	echo "(d) silent server: the whole report took $ms ms (default budget 15 s)"
	d15="$ms ms"
fi
# the deleted binary alone: the query that waits is the executable's
rm -rf dcache
PCT_DEBUGINFOD_TIMEOUT=3 report report --by=line b.pct
[ "$ms" -le 5000 ] || fail "(d) the report took $ms ms with a silent server and PCT_DEBUGINFOD_TIMEOUT=3"
echo "(d) silent server, the executable asked for, PCT_DEBUGINFOD_TIMEOUT=3: $ms ms"
pass "debuginfod: names and lines for a stripped copy, the executable of a deleted binary; a silent server cost $d15"
