# No frame of pct's own (issue 34, item 3): the runtime starts every thread
# the program creates through its thread_start (libpct.so.1.0.0), which
# sat between glibc's start_thread and the thread's function in every
# stack: the flat report gave it a row of 100% total, and the call graph,
# every export, pct html and pct flame showed it.  Its frames are left out
# of every stack (the module whose DT_SONAME is libpct.so.1), so the
# thread's function is start_thread's callee, as perf shows it.
. "$(dirname "$0")/lib.sh"
command -v go >/dev/null || fail "go is missing (scripts/deps.sh)"
"$PCTBIN" record -g -o t.pct "$PROGS/threads4" 0.05 >/dev/null 2>rec.err || fail "record -g threads4: $(cat rec.err)"
export HOME=$SCRATCH GOCACHE=$SCRATCH/gocache GOTOOLCHAIN=local
bad=0
# none VIEW FILE: no frame of the runtime in FILE
none() {
	if grep -n 'thread_start\|libpct' "$2" | head -3 | grep .; then
		echo "$1: pct's own frames shown"
		bad=1
	else
		echo "$1: no frame of pct's own"
	fi
}
"$PCTBIN" report --format=tsv t.pct >report.tsv || fail "report"
none "report (function view, totals)" report.tsv
"$PCTBIN" report --callers=worker --format=tsv t.pct >callers.tsv || fail "report --callers=worker"
none "report --callers=worker" callers.tsv
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { n++; who = $c["caller"] }
	END { exit !(n == 1 && who == "start_thread") }' callers.tsv ||
	{ echo "worker's callers are not start_thread alone: $(cat callers.tsv)"; bad=1; }
"$PCTBIN" export --format=folded t.pct >t.folded || fail "export folded"
none "folded" t.folded
n=$(awk '{ n += $NF } END { print n + 0 }' t.folded)
w=$(awk '/;start_thread;worker;/ { n += $NF } END { print n + 0 }' t.folded)
echo "folded: $w of $n samples are ...;start_thread;worker;..."
[ "$n" -ge 50 ] && [ $((w * 100)) -ge $((n * 95)) ] || { echo "worker is not under start_thread: $(head -3 t.folded)"; bad=1; }
"$PCTBIN" export --format=perf-script t.pct >t.script || fail "export perf-script"
none "perf-script" t.script
"$PCTBIN" export --format=speedscope t.pct >t.json || fail "export speedscope"
none "speedscope" t.json
"$PCTBIN" export --format=callgrind -o t.cg t.pct || fail "export callgrind"
none "callgrind" t.cg
"$PCTBIN" export --format=pprof -o t.pb.gz t.pct || fail "export pprof"
# the samples' locations (the mappings list every module, pct's too)
go tool pprof -raw t.pb.gz 2>raw.err | sed '/^Mappings/,$d' >raw.txt || fail "go tool pprof -raw: $(cat raw.err)"
none "pprof" raw.txt
"$PCTBIN" html -o t.html t.pct || fail "html"
grep -o '"name":"[^"]*"' t.html >html-names.txt
none "html" html-names.txt
"$PCTBIN" flame -o t.svg t.pct 2>/dev/null || fail "flame"
none "flame" t.svg
[ $bad = 0 ] || fail "pct's own frames in the views above"
pass "no frame of libpct in report, call graph, folded, perf-script, speedscope, callgrind, pprof, html, flame"
