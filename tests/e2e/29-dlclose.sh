# A library dlopen'ed, run and dlclose'd before exit is still named in the
# report; and a second library that the loader maps at the same addresses
# is not charged to the first.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
"$PCTBIN" record -o dl.pct "$PROGS/dlplug" "$PROGS" >addr.tsv 2>err || fail "dlplug: $(cat err)"
"$PCTBIN" report --format=tsv dl.pct >r.tsv || fail "report"
a=$(awk -F'\t' '$NF == "plug_a_work" { print $1 }' r.tsv)
b=$(awk -F'\t' '$NF == "plug_b_work" { print $1 }' r.tsv)
echo "plug_a_work ${a:-0} samples, plug_b_work ${b:-0} samples; load addresses: $(cut -f2 addr.tsv | tr '\n' ' ')"
[ "${a:-0}" -ge 50 ] || fail "the dlclose'd library's function is not named: $(cat r.tsv)"
[ "${b:-0}" -ge 50 ] || fail "the second library's function is not named: $(cat r.tsv)"
grep -q 'libplug-a.so' r.tsv && grep -q 'libplug-b.so' r.tsv || fail "modules: $(cat r.tsv)"
pass "dlclose'd libraries resolve; same-address reuse kept apart"
