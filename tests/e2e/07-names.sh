# Output names: $PCT patterns, the argv[0]-based default, the "pc"
# fallback, and no run ever overwriting another's file.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
run() { LD_PRELOAD=$LIBPCT "$@" >/dev/null || fail "run of $* failed"; }

PCT= run "$PROGS/selftime" 0.05
PCT=1 run "$PROGS/selftime" 0.05
n=$(ls selftime.[0-9]*.pct 2>/dev/null | wc -l)
[ "$n" -eq 2 ] || fail "empty PCT and PCT=1 should each write selftime.PID.pct: $(ls)"

PCT='out-%e-%p-%%.pct' run "$PROGS/selftime" 0.05
ls | grep -Eq '^out-selftime-[0-9]+-%\.pct$' || fail "%e/%p/%% not expanded: $(ls)"

for i in 1 2 3; do PCT=same.pct run "$PROGS/selftime" 0.05; done
[ -f same.pct ] && [ "$(ls same.[0-9]*.pct | wc -l)" -eq 2 ] || fail "repeated runs must not overwrite: $(ls)"
for f in same.[0-9]*.pct; do   # same.PID.pct is written by process PID
	pid=${f#same.}; pid=${pid%.pct}
	"$PCTBIN" report "$f" | head -1 | grep -q "^# $f: pid $pid: " || fail "$f was not written by pid $pid"
done
pids=$(for f in same*.pct; do "$PCTBIN" report "$f" | head -1 | sed 's/.*: pid \([0-9]*\):.*/\1/'; done | sort -u | wc -l)
[ "$pids" -eq 3 ] || fail "the three files are not three runs"

# a process that takes no sample writes no file (one of a millisecond
# takes one with a probability of about a quarter, its first period being
# a random phase: a file, if written, holds samples)
for try in 1 2 3 4 5 6 7 8 9 10 11 12; do
	rm -f never*.pct
	PCT=never.pct run /bin/true
	[ -e never.pct ] || break
	[ "$("$PCTBIN" report --format=tsv never.pct | awk -F'\t' 'NR > 1 { n += $1 } END { print n + 0 }')" -gt 0 ] ||
		fail "/bin/true wrote a file without samples"
done
[ ! -e never.pct ] || fail "/bin/true took a sample in each of 12 runs"

# concurrent runs with one name keep every run
for i in 1 2 3 4 5 6; do PCT=conc.pct LD_PRELOAD=$LIBPCT "$PROGS/selftime" 0.2 >/dev/null & done
wait
[ "$(ls conc*.pct | wc -l)" -eq 6 ] || fail "6 concurrent runs left $(ls conc*.pct | wc -l) files"

# odd argv[0]: a login-shell style name, and an empty one
mkdir odd && cd odd
PCT= LD_PRELOAD=$LIBPCT bash -c 'exec -a -weird/name "$0" 0.05' "$PROGS/selftime" >/dev/null 2>err ||
	fail "exec from a profiled shell failed: $(cat err)"
[ -s err ] && fail "warnings: $(cat err)"
ls | grep -Eq '^name\.[0-9]+\.pct$' || fail "argv[0] '-weird/name' should give name.PID.pct: $(ls)"
rm -f ./*.pct
PCT= LD_PRELOAD=$LIBPCT bash -c 'exec -a -login "$0" 0.05' "$PROGS/selftime" >/dev/null || fail "exec -a -login"
ls | grep -Eq '^_login\.[0-9]+\.pct$' || fail "argv[0] '-login' should give _login.PID.pct: $(ls)"
rm -f ./*.pct
PCT= LD_PRELOAD=$LIBPCT bash -c 'exec -a "" "$0" 0.05' "$PROGS/selftime" >/dev/null || fail "exec -a ''"
ls | grep -Eq '^pc\.[0-9]+\.pct$' || fail "empty argv[0] should give pc.PID.pct: $(ls)"
pass "names: $(cd .. && ls | tr '\n' ' ')"
