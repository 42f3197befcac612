# Unwinding failures are stated (issue 15, item 11): every -g report prints
# how many samples' stacks were not unwound to their root, and its share:
# report with totals, --callers/--callees, flame (heading and standard
# error) and the folded export (standard error).  A program whose .eh_frame
# is damaged after recording (one FDE, then all), or whose stack copies are
# too short, loses its callers; a profile whose header names
# a stack_machine pct does not know cannot be unwound at all.  The count is
# the samples whose folded stack does not start at _start (one thread).
. "$(dirname "$0")/lib.sh"
cp "$PROGS/callchain" ./cc || fail "$PROGS/callchain is not built (make progs)"
# at least 100 samples with stacks: 0.2 s of CPU (about 150), longer if a
# loaded machine lost them
rec() { "$PCTBIN" record -g -o cc.pct ./cc "$1" >/dev/null 2>err || fail "record -g: $(cat err)"; }
until_samples 100 cc.pct 0.2 1.6 rec
cp cc.pct machine.pct
# header field stack_machine (offset 288, pct_format.h): 0xbeef, no machine pct knows
printf '\xef\xbe\x00\x00' | dd of=machine.pct bs=1 seek=288 conv=notrunc 2>/dev/null || fail "dd"

# unrooted REPORT: "N S" from the line "# N of S samples with stacks (P%) were not unwound to their root"
unrooted() { sed -n 's/^\(# \|pct: [a-z]*: \)\([0-9]*\) of \([0-9]*\) samples with stacks (\([0-9.]*\)%) were not unwound to their root.*/\2 \3 \4/p' "$1"; }
# samples in folded stacks that do not start at _start
off_root() { awk '{ n = $NF } !/^_start;/ { t += n } END { print t + 0 }' "$1"; }
main_total() { awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next } $k["function"] == "main" { print $k["total"] }' "$1"; }

check() {  # check NAME FILE: every -g output states the same count, the folded stacks' own
	local name=$1 f=$2
	"$PCTBIN" report "$f" >r.txt 2>err || fail "$name: report: $(cat err)"
	"$PCTBIN" report --format=tsv "$f" >r.tsv 2>rt.err || fail "$name: report tsv: $(cat rt.err)"
	"$PCTBIN" report --callers=inner "$f" >cr.txt 2>err || fail "$name: --callers: $(cat err)"
	"$PCTBIN" report --callees=inner "$f" >ce.txt 2>err || fail "$name: --callees: $(cat err)"
	"$PCTBIN" export --format=folded -o f.folded "$f" 2>f.err || fail "$name: folded: $(cat f.err)"
	"$PCTBIN" flame -o f.svg "$f" 2>fl.err || fail "$name: flame: $(cat fl.err)"
	local want n
	want=$(unrooted r.txt)
	echo "$name: report says '$want' (not unwound, of, percent); folded stacks off _start: $(off_root f.folded)"
	[ -n "$want" ] || fail "$name: the report does not state the unwinding: $(tail -3 r.txt)"
	set -- $want
	n=$1
	[ "$n" = "$(off_root f.folded)" ] || fail "$name: $n not unwound, but $(off_root f.folded) samples of folded stacks start elsewhere than _start"
	[ "$(unrooted cr.txt)" = "$want" ] || fail "$name: --callers says '$(unrooted cr.txt)'"
	[ "$(unrooted ce.txt)" = "$want" ] || fail "$name: --callees says '$(unrooted ce.txt)'"
	grep -q "samples with stacks, $n ($3%) not unwound to their root" f.svg || fail "$name: the flame graph's heading does not say $n"
	if [ "$n" -gt 0 ]; then
		for e in rt.err f.err fl.err; do
			[ "$(unrooted $e)" = "$want" ] || fail "$name: $e says '$(unrooted $e)': $(cat $e)"
		done
	fi
	N=$n OF=$2 MAIN=$(main_total r.tsv)
}
check intact cc.pct
[ "$OF" -ge 100 ] || fail "only $OF samples with stacks"
[ "$N" -le $((OF / 50)) ] || fail "$N of $OF stacks of an intact program were not unwound"
intact_main=$MAIN

check machine machine.pct
[ "$N" = "$OF" ] || fail "an unknown stack_machine: $N of $OF stacks not unwound, want all"

# a stack copy too short to hold the callers' return addresses: libdwfl
# ends such a walk as it ends one at the root, so only the CFI of the last
# frame (its return address undefined, as _start's is) may say "root"
# (until it did, all of these counted as unwound: 0 of 349)
"$PCTBIN" record -g --stack-bytes=64 -o short.pct ./cc "$RAN_FOR" >/dev/null 2>err || fail "record --stack-bytes=64: $(cat err)"
check "64-byte stacks" short.pct
[ "$N" -ge $((OF * 9 / 10)) ] || fail "64-byte stack copies: only $N of $OF stacks not unwound"

# damage the recorded copy (its build-id still matches): first inner's FDE
# only, its initial location moved away, as the issue's run had it (main's
# total fell, and nothing said so); then all of .eh_frame
eh=$(readelf -SW cc | awk '{ sub(/^ *\[ *[0-9]+\] */, "") } $1 == ".eh_frame" { print $4, $5 }')
[ -n "$eh" ] || fail "no .eh_frame in cc"
inner=$(nm cc | awk '$3 == "inner" { print $1 }')
fde=$(readelf --debug-dump=frames cc 2>/dev/null | awk -v pc="pc=$inner.." '$4 == "FDE" && index($6, pc) == 1 { print $1 }')
[ -n "$inner" ] && [ -n "$fde" ] || fail "no FDE of inner ($inner) in cc: $(readelf --debug-dump=frames cc | grep FDE)"
set -- $eh
printf '\xff\xff\xff\x7f' | dd of=cc bs=1 seek=$((0x$1 + 0x$fde + 8)) conv=notrunc 2>/dev/null || fail "dd"
check "inner's FDE" cc.pct
echo "main's total: intact $intact_main, damaged $MAIN"
[ "$N" -gt 0 ] && [ "$N" -lt "$OF" ] || fail "inner's FDE damaged: $N of $OF stacks not unwound"
[ $((MAIN + N)) = "$OF" ] || fail "main's total $MAIN and $N stacks not unwound do not make the $OF with stacks"
dd if=/dev/zero of=cc bs=1 seek=$((0x$1)) count=$((0x$2)) conv=notrunc 2>/dev/null || fail "dd"
check ".eh_frame zeroed" cc.pct
echo "main's total: intact $intact_main, damaged ${MAIN:-0}"
[ "$N" -ge $((OF * 9 / 10)) ] || fail "damaged .eh_frame: only $N of $OF stacks not unwound"
[ "${MAIN:-0}" -lt "$intact_main" ] || fail "main's total did not fall ($intact_main, then $MAIN): the damage did nothing"
pass "stacks not unwound to their root are counted in every -g output (intact, unknown machine, damaged .eh_frame)"
