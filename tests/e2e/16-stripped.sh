# A stripped binary: static functions have no symbol, yet each gets a row
# of its own named MODULE+0xSTART, where START is the function's true start
# (from .eh_frame), equal to the unstripped symbol table's address.
. "$(dirname "$0")/lib.sh"
cp "$PROGS/selftime" plain
strip -o stripped plain
nm stripped 2>&1 | grep -q 'no symbols' || fail "strip left symbols"
"$PCTBIN" record -o s.pct ./stripped 2 >/dev/null 2>&1 || fail "record stripped"
"$PCTBIN" report --format=tsv s.pct >r.tsv
for f in work_a work_b work_c; do
	start=$(nm plain | awk -v f="$f" '$3 == f { sub(/^0+/, "", $1); print $1 }')
	[ -n "$start" ] || fail "no $f in the unstripped symbol table"
	grep -q $'\tstripped+0x'"$start"'$' r.tsv || fail "$f (0x$start) has no row of its own: $(cat r.tsv)"
done
# every named row of the stripped module starts where an unstripped function starts
awk -F'\t' 'NR > 1 && $9 ~ /^stripped\+0x/ { sub(/^stripped\+0x/, "", $9); print $9 }' r.tsv | sort >starts
nm plain | awk '$2 ~ /^[tT]$/ { sub(/^0+/, "", $1); print $1 }' | sort >symbols
[ -s starts ] && [ -z "$(comm -23 starts symbols)" ] || fail "starts not in the symbol table: $(comm -23 starts symbols)"
# an address past a prologue's pushes (a new CFI row) is still in the
# function that starts at the FDE's start: main, which pushes registers
main=$(nm plain | awk '$3 == "main" { print $1 }')
for delta in 14 144; do
	addr=$(printf '0x%x' $((0x$main + delta)))
	got=$(printf 'module\tbuild_id\toffset\tsamples\n%s\t\t%s\t1\n' "$PWD/stripped" "$addr" | "$PCTBIN" sym |
		awk -F'\t' 'NR == 2 { print $5 }')
	[ "$got" = "stripped+0x${main#${main%%[!0]*}}" ] || fail "main+$delta ($addr) is named '$got', not main's start"
done
# the same groups as the unstripped binary, by start
"$PCTBIN" record -o p.pct ./plain 2 >/dev/null 2>&1
"$PCTBIN" report --format=tsv p.pct | awk -F'\t' 'NR > 1 && $9 ~ /^work_/' | wc -l | grep -q '^3$' || fail "unstripped"
pass "stripped functions: $(tr '\n' ' ' <starts)"
