# The callgrind export and inlined code (issue 15, item 8): the lines of a
# static inline function from a header are written under the header's
# name (fi=/fe= lines), so callgrind_annotate --auto=yes annotates the
# header and prints no "<bogus line N>" (before: charged to inlhot.c's
# lines 30-33, which it does not have); and a calls= line's source
# position is the call instruction itself (before: return address - 1,
# inside the call).
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
for t in cc callgrind_annotate objdump nm; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh)"; done
hdr=$ROOT/tests/progs/inlhot.h
cc -O2 -g -o inlhot "$ROOT/tests/progs/inlhot.c" || fail "cc inlhot"
# the premise: mix() is inlined, not called
! nm inlhot | grep -qw mix || fail "mix() was not inlined: $(nm inlhot | grep -w mix)"
"$PCTBIN" record -g -o i.pct ./inlhot 0.8 >/dev/null 2>&1 || fail "record -g inlhot"
total=$("$PCTBIN" report --format=tsv i.pct | awk -F'\t' 'NR > 1 { t += $1 } END { print t + 0 }')
[ "$total" -ge 100 ] || fail "only $total samples"
"$PCTBIN" export --format=callgrind -o i.cg i.pct || fail "export callgrind"
grep -q "^fi=([0-9]*) $hdr\$" i.cg || fail "no fi= line names $hdr: $(grep -E '^f[lie]=' i.cg | head)"
callgrind_annotate --auto=yes i.cg >cga.txt 2>cga.err || fail "callgrind_annotate: $(cat cga.err)"
! grep -n 'bogus' cga.txt || fail "callgrind_annotate prints bogus lines"
cg_total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' cga.txt)
[ "$cg_total" = "$total" ] || fail "callgrind_annotate's total $cg_total, pct's $total"
# the samples on mix()'s lines, in the annotated header
awk -v want="-- Auto-annotated source: $hdr" -v total="$total" '
	/^-- Auto-annotated source: / { in_hdr = ($0 == want); seen += in_hdr; next }
	in_hdr && $1 ~ /^[0-9,]+$/ && /x (\^=|\*=|\+=)/ { gsub(",", "", $1); n += $1 }
	END { printf "inlhot.h, mix()'"'"'s lines: %d of %d samples\n", n, total
	      # a quarter at least: how many of the samples of the loop land on
	      # the lines of mix() depends on the CPU (over half on the Intel
	      # machines before, about 40% on an AMD EPYC; as e2e 76)
	      exit !(seen && n * 4 > total) }' cga.txt || fail "the header's lines do not hold the samples: $(cat cga.txt)"
# every call site in inlhot is the address of a call instruction
objdump -d --no-show-raw-insn inlhot >dis.txt || fail "objdump"
awk -v exe="$SCRATCH/inlhot" '
	/^ob=/ { id = $1; sub(/^ob=/, "", id); if (NF > 1) { p = $0; sub(/^ob=\([0-9]+\) /, "", p); name[id] = p }
		 cur = name[id]; next }
	/^calls=/ { want = 1; next }
	want { want = 0; if (cur == exe) print $1 }' i.cg | sort -u >sites.txt
[ -s sites.txt ] || fail "no calls= lines from inlhot: $(grep -A1 '^calls=' i.cg | head)"
while read -r a; do
	insn=$(awk -v a="${a#0x}:" '$1 == a' dis.txt)
	echo "call site $a: ${insn:-no instruction starts there}"
	[[ $insn == *call* ]] || fail "call site $a is not a call instruction: $(grep -B2 -A2 "${a#0x}" dis.txt | head)"
done <sites.txt
pass "callgrind: inlined header lines under inlhot.h, no bogus lines, call sites on call instructions"
