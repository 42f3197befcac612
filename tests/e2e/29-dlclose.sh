# A library dlopen'ed, run and dlclose'd before exit is still named in the
# report; and a second library that the loader maps at the same addresses
# is not charged to the first.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
# libs_min FILE: the fewer of the two libraries' samples, by module (the
# runtime's mapping at the sample, not the report's naming, which the test
# checks)
libs_min() {
	"$PCTBIN" report --format=tsv "$1" 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["module"] ~ /\/libplug-a\.so$/ { a += $c["samples"] } $c["module"] ~ /\/libplug-b\.so$/ { b += $c["samples"] }
		END { print (a < b ? a : b) + 0 }'
}
# dlplug burns SECONDS of CPU in each library: 0.4 s, 100 samples each at
# 250 Hz, run longer (up to 3.2 s each) until each library's module has 60:
# a loaded machine loses CPU-timer expirations, and a fixed 0.4 s got
# fewer than 50 in plug_a_work beside a loaded make check
rec() { "$PCTBIN" record -o dl.pct "$PROGS/dlplug" "$PROGS" "$1" >addr.tsv 2>err || fail "dlplug: $(cat err)"; }
until_samples 60 dl.pct 0.4 3.2 rec libs_min
"$PCTBIN" report --format=tsv dl.pct >r.tsv || fail "report"
a=$(awk -F'\t' '$NF == "plug_a_work" { print $1 }' r.tsv)
b=$(awk -F'\t' '$NF == "plug_b_work" { print $1 }' r.tsv)
echo "plug_a_work ${a:-0} samples, plug_b_work ${b:-0} samples; load addresses: $(cut -f2 addr.tsv | tr '\n' ' ')"
# each library's module has 60 samples or more, all in its one function
# but a sample in its PLT stub or start-up code (a few instructions a
# clock read, 3 ms apart): its function holds 50 of them unless the
# report cannot name the library's code
[ "${a:-0}" -ge 50 ] || fail "the dlclose'd library's function is not named: $(cat r.tsv)"
[ "${b:-0}" -ge 50 ] || fail "the second library's function is not named: $(cat r.tsv)"
grep -q 'libplug-a.so' r.tsv && grep -q 'libplug-b.so' r.tsv || fail "modules: $(cat r.tsv)"
pass "dlclose'd libraries resolve; same-address reuse kept apart"
