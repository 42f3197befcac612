# musl (issue 21): libpct.a built with musl-gcc (Debian musl-tools, make
# musl) linked into a static musl selftime profiles it from its
# constructor when $PCT is set, and matches the measured truth; the
# command line is found without glibc's program_invocation_name.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
have() { command -v musl-gcc >/dev/null; }
if ! have; then
	if [ "$(id -u)" -eq 0 ]; then
		apt_get install -y -qq --no-install-recommends musl-tools >/dev/null 2>&1 ||
			{ apt_get update -qq >/dev/null 2>&1 &&
			  apt_get install -y -qq --no-install-recommends musl-tools >/dev/null 2>&1; }
	fi
	have || skip "musl-tools is not installed and cannot be installed here (not root, or no package archive)"
fi
locked musl make -C "$ROOT" --no-print-directory musl >make.out 2>&1 || fail "make musl: $(tail -5 make.out)"
prog=$ROOT/build-musl/tests/progs/selftime-static
file "$prog" | grep -q 'statically linked' || fail "not static: $(file "$prog")"
# musl's, not glibc's: glibc's static binaries carry "GNU C Library"
strings "$prog" | grep -q 'GNU C Library' && fail "$prog is linked with glibc"
t0=$(now_ns)
PCT=musl.pct timeout 120 "$prog" 3 >truth.tsv 2>run.err || fail "run failed: $(cat run.err)"
overload_bias musl.pct "$(since "$t0")"   # CPU-time timers
[ -f musl.pct ] || fail "no musl.pct: $(cat run.err)"
"$PCTBIN" report --format=tsv musl.pct >report.tsv || fail "report"
check_truth truth.tsv report.tsv "$(period_of musl.pct)" || fail "the musl profile disagrees with the truth"
"$PCTBIN" report musl.pct | head -1 | grep -q 'selftime-static 3$' || fail "command line not found: $("$PCTBIN" report musl.pct | head -1)"
pass "musl static truth"
