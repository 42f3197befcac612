# Inline frames in every view (issue 34, item 2): mix(), a static inline
# function of tests/progs/cxxthreads.h inlined into work::delta, is a
# frame of its own in the folded, speedscope and perf-script exports and
# in `pct report --callers/--callees`, as it is in pct flame, pct html and
# the pprof export, and every view counts the same samples on it (one
# stack model).  perf-script marks it "(inlined)" as perf does, and the
# pprof mappings say has_inline_frames.  Before: the folded line read
# "...;stage_b;work::delta 75", --callers=mix said "no stack holds a
# function named 'mix'", and go tool pprof -raw showed no [IN].
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
for t in g++ nm go; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh)"; done
src=$ROOT/tests/progs/cxxthreads.cc hdr=$ROOT/tests/progs/cxxthreads.h
g++ -O2 -g -pthread -o cxxthreads "$src" || fail "g++ cxxthreads"
! nm -C cxxthreads | grep -qw mix || fail "mix() was not inlined: $(nm -C cxxthreads | grep -w mix)"
"$PCTBIN" record -g -o c.pct ./cxxthreads 2 0.4 >/dev/null 2>rec.err || fail "record -g: $(cat rec.err)"
D='work::delta(unsigned long, unsigned int)'

# the reference: --callers=mix, its total (the samples holding mix) and its caller
"$PCTBIN" report --callers=mix --format=tsv c.pct >callers.tsv 2>callers.err ||
	fail "report --callers=mix: $(cat callers.err)"
cat callers.tsv
M=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { n += $c["samples"] } END { print n + 0 }' callers.tsv)
awk -F'\t' -v d="$D" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } { exit !($c["caller"] == d) }' callers.tsv ||
	fail "mix's caller is not $D: $(cat callers.tsv)"
all=$("$PCTBIN" export --format=folded c.pct | awk '{ n += $NF } END { print n + 0 }')
echo "samples with stacks $all, holding mix $M"
[ "$M" -ge 20 ] && [ $((M * 10)) -ge "$all" ] || fail "only $M of $all samples hold mix"
"$PCTBIN" report --callees="work::delta" --format=tsv c.pct >callees.tsv || fail "report --callees=work::delta"
awk -F'\t' -v m="$M" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$c["callee"] == "mix (inline)" { n = $c["samples"] } END { exit !(n == m) }' callees.tsv ||
	fail "delta's callee mix (inline) does not hold the $M samples: $(cat callees.tsv)"

# folded: ...;work::delta(...);mix (inline) N, the same samples
"$PCTBIN" export --format=folded c.pct >c.folded || fail "export folded"
f=$(awk -v tail=";$D;mix (inline)" '{ n = $NF; s = $0; sub(/ [0-9]+$/, "", s)
	if (substr(s, length(s) - length(tail) + 1) == tail) t += n } END { print t + 0 }' c.folded)
echo "folded: $f samples end in $D;mix (inline)"
[ "$f" = "$M" ] || fail "folded: $f samples in mix (inline) under $D, --callers $M: $(head -3 c.folded)"

# perf-script: "ADDR mix+0xOFF (inlined)" right above "ADDR work::delta...+0xOFF (PATH)", one
# address; a block stands for its period over one sample's (a CPU timer's overruns)
"$PCTBIN" export --format=perf-script c.pct >c.script 2>script.err || fail "export perf-script: $(cat script.err)"
cat script.err
unit=$(awk '/^[^\t]/ && $4 + 0 > 0 && (u == 0 || $4 + 0 < u) { u = $4 + 0 } END { print u }' c.script)
p=$(awk -v d="$D" -v unit="$unit" '
	function close_block() { if (hit) n += int(w / unit + 0.5); hit = 0 }
	/^[^\t]/ { close_block(); inl = 0; w = $4; next }
	/^\t/ { if (inl && $1 == addr && index($0, " " d "+0x") && $NF ~ /cxxthreads\)$/) hit = 1
		inl = ($2 ~ /^mix\+0x/ && $3 == "(inlined)"); addr = $1 }
	END { close_block(); print n + 0 }' c.script)
echo "perf-script: $p samples with mix (inlined) above $D"
[ "$p" = "$M" ] || fail "perf-script: $p samples show mix (inlined), --callers $M: $(grep -m3 -B1 -A3 mix c.script)"

# speedscope: a frame "mix (inline)" whose file is the header, as the leaf of the same samples
"$PCTBIN" export --format=speedscope c.pct >c.json || fail "export speedscope"
s=$(/usr/bin/python3 - "$hdr" <<'PY'
import json, sys
d = json.load(open("c.json"))
fr = d["shared"]["frames"]
mix = [i for i, f in enumerate(fr) if f["name"] == "mix (inline)" and f.get("file") == sys.argv[1]]
unit = min(w for p in d["profiles"] for w in p["weights"])
print(round(sum(w for p in d["profiles"] for st, w in zip(p["samples"], p["weights"]) if set(st) & set(mix)) / unit))
PY
) || fail "speedscope: not read"
echo "speedscope: $s samples hold a frame mix (inline) of $hdr"
[ "$s" = "$M" ] || fail "speedscope: $s samples hold mix (inline), --callers $M"

# pct flame draws the same tree: its mix (inline) frames hold the same samples
"$PCTBIN" flame -o c.svg c.pct 2>/dev/null || fail "pct flame"
fl=$(grep -o 'data-function="mix (inline)"[^>]*data-samples="[0-9]*"' c.svg | sed 's/.*data-samples="//; s/"//' |
	awk '{ n += $1 } END { print n + 0 }')
echo "flame: $fl samples in mix (inline) frames"
[ "$fl" = "$M" ] || fail "flame: $fl samples in mix (inline), --callers $M: $(grep -o '<g[^>]*mix[^>]*>' c.svg | head -3)"

# pprof: the mappings say they have inline frames
"$PCTBIN" export --format=pprof -o c.pb.gz c.pct || fail "export pprof"
export HOME=$SCRATCH GOCACHE=$SCRATCH/gocache GOTOOLCHAIN=local
go tool pprof -raw c.pb.gz >raw.txt 2>raw.err || fail "go tool pprof -raw: $(cat raw.err)"
grep -q "/cxxthreads [0-9a-f]* \[FN\]\[FL\]\[LN\]\[IN\]$" raw.txt ||
	fail "pprof: the mapping of cxxthreads has no [IN]: $(sed -n '/^Mappings/,$p' raw.txt)"
pass "mix (inline) holds $M samples under $D in report --callers, folded, perf-script, speedscope and flame; pprof [IN]"
