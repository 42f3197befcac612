# A hostile debuginfod server (a Python http.server on 127.0.0.1) cannot
# leave a huge file in libdebuginfod's client cache:
#  (a) with DEBUGINFOD_MAXSIZE unset, pct asks for at most 512 MiB (the
#      request carries X-DEBUGINFOD-MAXSIZE: 536870912), and an answer that
#      announces 3 GiB is refused at once, with a warning;
#  (b) with DEBUGINFOD_MAXSIZE=1000000, an answer of 64 MiB that announces
#      no size (no Content-Length) is abandoned once past the budget: it
#      stayed in the cache, 64 MiB, before;
#  (c) a 100 kB answer that is not the build asked for is removed from the
#      cache (it stayed there);
#  (d) a file over the budget already in the cache (an earlier run's) is
#      removed.
# The report goes on (exit 0) each time, fast, without the debug info.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3"
command -v cc >/dev/null || skip "no C compiler"
command -v strip >/dev/null || skip "no strip"
unset DEBUGINFOD_URLS DEBUGINFOD_TIMEOUT DEBUGINFOD_PROGRESS DEBUGINFOD_VERBOSE DEBUGINFOD_MAXSIZE
export DEBUGINFOD_CACHE_PATH=$SCRATCH/dcache PCT_DEBUGINFOD_TIMEOUT=5
bg=
cleanup() {
	for p in $bg; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
	rm -rf "$SCRATCH"
}
trap cleanup EXIT

cat >prog.c <<'EOF'
static volatile unsigned long sink;
int main(void) { for (unsigned long i = 0; i < 100000000UL; i++) sink += i; return 0; }
EOF
cc -g -O1 -Wl,--build-id -o prog prog.c && strip prog || fail "cc"
id=$(readelf -n prog | sed -n 's/.*Build ID: *//p')
[ -n "$id" ] || fail "no build-id in the test program"
"$PCTBIN" record -o p.pct ./prog >/dev/null 2>rec.err || fail "record: $(cat rec.err)"

# srv.py PORTFILE: answers /buildid/ID/debuginfo as the file "mode" says:
# "huge" (Content-Length 3 GiB), "stream N" (N MiB, no Content-Length),
# "bad N" (N bytes with a Content-Length); zeros, written as asked for.
# Each request's X-DEBUGINFOD-MAXSIZE goes to the file "asked".  It stops
# by itself after 60 s.
cat >srv.py <<'EOF'
import http.server, sys, time
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
    def do_GET(self):
        with open('asked', 'a') as f:
            f.write('%s maxsize=%s\n' % (self.path, self.headers.get('X-DEBUGINFOD-MAXSIZE')))
        mode = open('mode').read().split()
        if not self.path.endswith('/debuginfo'):
            self.send_error(404)
            return
        n = int(mode[1]) if len(mode) > 1 else 0
        total = {'huge': 3 << 30, 'stream': n << 20, 'bad': n}[mode[0]]
        self.send_response(200)
        if mode[0] != 'stream':
            self.send_header('Content-Length', str(total))
        self.end_headers()
        chunk = bytes(1 << 16)
        t0 = time.time()
        try:
            while total > 0 and time.time() - t0 < 20:
                k = min(total, len(chunk))
                self.wfile.write(chunk[:k])
                total -= k
        except OSError:
            pass
s = http.server.HTTPServer(('127.0.0.1', 0), H)
open(sys.argv[1] + '.tmp', 'w').write(str(s.server_address[1]))
import os; os.rename(sys.argv[1] + '.tmp', sys.argv[1])
s.timeout = 1
end = time.time() + 60
while time.time() < end:
    s.handle_request()
EOF
timeout 70 python3 srv.py port &
bg=$!
for i in $(seq 50); do [ -s port ] && break; sleep 0.1; done
[ -s port ] || fail "the server did not start"
export DEBUGINFOD_URLS=http://127.0.0.1:$(cat port)

# ask MODE [MAXSIZE]: a report that asks the server, answering MODE; its
# stderr in err, wall time in $ms
ask() {
	echo "$1" >mode
	: >asked
	local t0; t0=$(date +%s%N)
	if [ -n "${2:-}" ]; then
		DEBUGINFOD_MAXSIZE=$2 timeout -k 2 30 "$PCTBIN" report p.pct >out 2>err
	else
		timeout -k 2 30 "$PCTBIN" report p.pct >out 2>err
	fi
	local st=$?
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	[ $st = 0 ] || fail "$1: report exited $st: $(head -c 300 err)"
	grep -q " prog$" out || fail "$1: no row for prog: $(cat out)"
}
# nothing over BYTES in the client cache for the build-id (its own
# cache_clean_interval_s aside)
small_cache() {
	local big; big=$(find "$DEBUGINFOD_CACHE_PATH/$id" -type f -size +"$1"c -printf '%s %p\n' 2>/dev/null)
	[ -z "$big" ] || fail "$2: left in debuginfod's cache: $big"
}
entry=$DEBUGINFOD_CACHE_PATH/$id/debuginfo

ask huge
grep -q "/buildid/$id/debuginfo maxsize=536870912" asked || fail "(a) the request's maximum size: $(cat asked)"
grep -q "debuginfod: the debug file of build-id $id is larger than DEBUGINFOD_MAXSIZE (536870912 bytes): not fetched" err ||
	fail "(a) no warning: $(cat err)"
[ "$ms" -lt 4000 ] || fail "(a) the refusal took $ms ms"
small_cache 0 "(a)"
echo "(a) 3 GiB announced: refused in $ms ms: $(cat err)"

rm -rf "$DEBUGINFOD_CACHE_PATH"
ask "stream 64" 1000000
small_cache 1000000 "(b)"
grep -q "larger than DEBUGINFOD_MAXSIZE (1000000 bytes)" err || fail "(b) no warning: $(cat err)"
echo "(b) 64 MiB without Content-Length, budget 1000000: $ms ms: $(cat err)"

rm -rf "$DEBUGINFOD_CACHE_PATH"
ask "bad 100000" 1000000
[ ! -e "$entry" ] || fail "(c) the wrong file stayed in the cache: $(ls -l "$entry")"
grep -q "debuginfod: the debug file sent for build-id $id is not that build: removed from its cache" err ||
	fail "(c) no warning: $(cat err)"
echo "(c) 100 kB of another build: $(cat err)"

rm -rf "$DEBUGINFOD_CACHE_PATH"
mkdir -p "$DEBUGINFOD_CACHE_PATH/$id" && head -c 2000000 /dev/zero >"$entry" || fail "(d) plant the file"
ask "bad 10" 1000000
[ ! -e "$entry" ] || fail "(d) the cached file over the budget stayed: $(ls -l "$entry")"
grep -q "larger than DEBUGINFOD_MAXSIZE (1000000 bytes): removed from its cache" err || fail "(d) no warning: $(cat err)"
echo "(d) a 2 MB file in the cache: $(cat err)"
pass "debuginfod: nothing over DEBUGINFOD_MAXSIZE (512 MiB unless set) or of another build stays in the cache"
