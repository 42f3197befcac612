# A program built with gcc -fsanitize=address runs under `pct record`
# (issue, item 5): before, record put libpct first in LD_PRELOAD, and
# libasan refused to start ("ASan runtime does not come first in initial
# library list"), exit 1, even when the user preloaded libasan.  Now the
# user's preloads come first and the runtime last, and record turns
# ASan's link-order check off in ASAN_OPTIONS, ahead of the user's own
# options (an explicit setting of the user's still wins).
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || skip "needs gcc"
cat >hot.c <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static double cpu_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return t.tv_sec + t.tv_nsec / 1e9;
}
/* burns secs of CPU time */
__attribute__((noinline)) double hot_spin(double secs)
{
	volatile double x = 0;
	double end = cpu_s() + secs;
	while (cpu_s() < end)
		for (int i = 0; i < 20000; i++)
			x += i * 0.5;
	return x;
}
int main(int argc, char **argv)
{
	char *p = malloc(16);
	strcpy(p, "hot");
	if (argc > 1)
		p[16] = 'x';   /* "overflow": a heap-buffer-overflow ASan must report */
	printf("%s %d\n", p, hot_spin(0.5) > 0);
	free(p);
	return 3;
}
EOF
gcc -fsanitize=address -g -O1 -o hot hot.c 2>cc.err || skip "gcc -fsanitize=address does not build here: $(cat cc.err)"
asan=$(readlink -f "$(gcc -print-file-name=libasan.so)")
[ -f "$asan" ] || skip "no libasan.so found by gcc -print-file-name"
./hot >plain.out 2>plain.err
plain=$?
[ $plain = 3 ] && [ "$(cat plain.out)" = "hot 1" ] || skip "the ASan program does not run plain: $plain $(cat plain.err)"

# check NAME [ENV...]: under record, the same output and status as plain,
# and samples in hot_spin
check() {
	local name=$1; shift
	env "$@" "$PCTBIN" record -o "$name.pct" -- ./hot >"$name.out" 2>"$name.err"
	local rc=$?
	[ $rc = $plain ] || fail "$name: status $rc, plain $plain: $(cat "$name.err")"
	cmp -s plain.out "$name.out" || fail "$name: output '$(cat "$name.out")', plain '$(cat plain.out)'"
	grep -q 'ASan runtime does not come first' "$name.err" && fail "$name: $(cat "$name.err")"
	"$PCTBIN" report --format=tsv "$name.pct" >"$name.tsv" 2>&1 || fail "$name: report: $(cat "$name.tsv")"
	local n; n=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["function"] == "hot_spin" { n += $c["samples"] } END { print n + 0 }' "$name.tsv")
	# 0.5 s at 250 Hz: 125 expected
	[ "$n" -ge 60 ] || fail "$name: $n samples in hot_spin: $(cat "$name.tsv")"
	pass "$name: status $rc and output as plain, $n samples in hot_spin"
}
check asan
check preloaded LD_PRELOAD="$asan"
# the user's own options are kept, after pct's
check options ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0
# and an explicit verify_asan_link_order=1 of the user's wins over pct's
ASAN_OPTIONS=verify_asan_link_order=1 "$PCTBIN" record -o strict.pct -- ./hot >/dev/null 2>strict.err
grep -q 'ASan runtime does not come first' strict.err || fail "the user's verify_asan_link_order=1 lost: $(cat strict.err)"
pass "the user's ASAN_OPTIONS=verify_asan_link_order=1 wins"
# ASan still finds errors under pct: the same report and status as plain
./hot overflow >/dev/null 2>over.plain
over=$?
"$PCTBIN" record -o over.pct -- ./hot overflow >/dev/null 2>over.err
rc=$?
[ $rc = $over ] && [ $over != 0 ] || fail "overflow: status $rc under record, $over plain: $(cat over.err)"
grep -q 'ERROR: AddressSanitizer: heap-buffer-overflow' over.err || fail "overflow: no ASan report: $(cat over.err)"
pass "ASan reports a heap-buffer-overflow under record as plain (status $rc)"
