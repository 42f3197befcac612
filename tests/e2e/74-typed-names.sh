# Names as people type them (issue 15): `pct annotate hash_loop` and
# `pct report --callers=hash_loop` find the C++ function
# hash_loop(unsigned long): by the exact name, the name without its
# parameter list, a unique prefix, or a POSIX extended regex.  An
# ambiguous name (overloads, a common prefix) lists the candidates on
# standard error and exits 1, as does a name nothing matches.
. "$(dirname "$0")/lib.sh"
command -v g++ >/dev/null || fail "g++ is missing (scripts/deps.sh installs it)"
cat >names.cc <<'C'
#include <stdlib.h>
volatile unsigned long sink;
#define LOOP(n, a) do { unsigned long x = sink; for (long i = 0; i < (long)(n); i++) x = x * (a) + 1442695040888963407u; \
	sink = x; } while (0)
__attribute__((noinline)) void hash_loop(unsigned long n) { LOOP(n, 6364136223846793005u); }
__attribute__((noinline)) void hash_mix(long n) { LOOP(n, 2862933555777941757u); }
__attribute__((noinline)) void work(int n) { LOOP(n, 3202034522624059733u); }
__attribute__((noinline)) void work(double n) { LOOP(n, 3935559000370003845u); }
int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100000000;
	hash_loop(2 * n);
	hash_mix(n);
	work((int)n);
	work((double)n);
	sink++;
	return 0;
}
C
g++ -O2 -g -fno-ipa-icf -o names names.cc || fail "g++"
"$PCTBIN" record -g -o n.pct ./names 100000000 2>err || fail "record -g: $(cat err)"
"$PCTBIN" report --format=tsv n.pct | grep -q $'\thash_loop(unsigned long)$' || fail "no row of hash_loop(unsigned long)"

# annotate: each way finds hash_loop(unsigned long)
for typed in 'hash_loop(unsigned long)' hash_loop hash_lo '^hash_l[aeiou]+p'; do
	"$PCTBIN" annotate "$typed" n.pct >a.txt 2>err || fail "annotate '$typed': $(cat err)"
	head -1 a.txt | grep -q '^# hash_loop(unsigned long) in names ' || fail "annotate '$typed' shows: $(head -1 a.txt)"
	[ "$(grep -c '^# .* in names ' a.txt)" = 1 ] || fail "annotate '$typed' shows several functions: $(grep '^# ' a.txt)"
done
# report --callers/--callees: each way gives what the exact name gives
"$PCTBIN" report --callers='hash_loop(unsigned long)' --format=tsv n.pct >want.tsv || fail "--callers exact"
grep -q $'\tmain$' want.tsv || fail "main is not a caller of hash_loop: $(cat want.tsv)"
for typed in hash_loop hash_lo '^hash_l[aeiou]+p'; do
	"$PCTBIN" report --callers="$typed" --format=tsv n.pct >got.tsv 2>err || fail "--callers='$typed': $(cat err)"
	cmp -s want.tsv got.tsv || fail "--callers='$typed' differs from the exact name's: $(cat got.tsv)"
	"$PCTBIN" report --callees="$typed" n.pct >got.txt 2>err || fail "--callees='$typed': $(cat err)"
	grep -q '^# callees of hash_loop(unsigned long): ' got.txt || fail "--callees='$typed': $(head -1 got.txt)"
done

# ambiguous: overloads, a common prefix, a regex of several; exit 1 with the candidates
ambiguous() {  # ambiguous TYPED NAME... : each command exits 1 and lists the NAMEs
	local typed=$1
	shift
	for cmd in "annotate $typed n.pct" "report --callers=$typed n.pct" "report --callees=$typed n.pct"; do
		read -ra argv <<<"$cmd"
		"$PCTBIN" "${argv[@]}" >out.txt 2>err
		rc=$?
		[ "$rc" = 1 ] || fail "'pct $cmd' exits $rc: $(cat out.txt err)"
		[ -s out.txt ] && fail "'pct $cmd' printed: $(cat out.txt)"
		grep -q "is ambiguous: $# functions match" err || fail "'pct $cmd' says: $(cat err)"
		for n in "$@"; do
			grep -qxF "  $n" err || fail "'pct $cmd' does not list $n: $(cat err)"
		done
	done
}
ambiguous work 'work(int)' 'work(double)'
ambiguous hash_ 'hash_loop(unsigned long)' 'hash_mix(long)'
ambiguous 'w[aeiou]rk' 'work(int)' 'work(double)'
# nothing matches: exit 1
for cmd in "annotate nosuch_fn n.pct" "report --callers=nosuch_fn n.pct" "report --callers=nosuch_fn( n.pct"; do
	read -ra argv <<<"$cmd"
	"$PCTBIN" "${argv[@]}" >out.txt 2>err
	rc=$?
	[ "$rc" = 1 ] && grep -q "nosuch_fn" err || fail "'pct $cmd' exits $rc: $(cat err)"
done
pass "hash_loop, a prefix and a regex find hash_loop(unsigned long); ambiguous names list their candidates"
