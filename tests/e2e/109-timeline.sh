# pct timeline: when the samples were taken.
#
# tests/progs/handoff runs thread phase-a for 1 s of its CPU time
# (phase_a_work), then hands off to thread phase-b for 1 s (phase_b_work),
# each measuring its own CPU time, and prints the handoff's time.  The
# phases are told apart at the handoff, not at the middle of the run: on a
# loaded machine one phase may take longer in wall-clock time than the
# other.  The profile's origin is taken before main() starts (the
# runtime's constructor), so the handoff in the profile's time is a little
# later than the program measures; phase-a's side gets 0.1 s of slack for
# that, phase-b's needs none.
#  - TSV: >= 90% of each thread's samples on its side of the handoff; the
#    threads' sums are `pct report --by=thread`'s exactly; their shares
#    and counts match the CPU times measured (check_truth);
#  - text at --width=70: no line over 70 columns, one row per thread, and
#    phase-a's strip before the handoff, phase-b's after; on a terminal
#    its width, elsewhere $COLUMNS;
#  - --by=function: phase_a_work's samples before the handoff and
#    phase_b_work's after, in TSV and in the strips;
#  - two files recorded one after the other, and a tree of two runs, line
#    up by their start: the second process's samples come after the
#    first's;
#  - with a full tick log, the coarse samples are drawn and marked, and
#    the sums per thread are still the report's;
#  - thread and command names with terminal escapes print escaped;
#  - usage errors exit 2; a version 2 file, a merged one or one recorded
#    with PCT_TIME_AREA=0 (no sample times) exits 1, named, saying why.
. "$(dirname "$0")/lib.sh"

# 1 s of CPU a phase: 250 samples each at 250 Hz; the checks below want
# 100 of each phase's function, and a loaded machine loses expirations
# (phase_b_work had 80 beside two busy loops): the phases are made longer,
# up to 4 s, until both have them
secs=1
while :; do
	t0=$(now_ns)
	"$PCTBIN" record -o h.pct "$PROGS/handoff" $secs >truth.tsv 2>rec.err || fail "record: $(cat rec.err)"
	wall=$(since "$t0")
	"$PCTBIN" report --format=tsv h.pct | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		{ n[$k["function"]] += $k["samples"] } END { exit !(n["phase_a_work"] >= 100 && n["phase_b_work"] >= 100) }' && break
	[ $secs = 4 ] && break
	secs=$((secs * 2))
	echo "fewer than 100 samples in a phase: phases of $secs s"
done
overload_bias h.pct "$wall"   # CPU-time timers
handoff=$(awk -F'\t' '$1 == "handoff" { printf "%.6f", $2 / 1e9 }' truth.tsv)
[ -n "$handoff" ] || fail "handoff printed no handoff time: $(cat truth.tsv)"
echo "handoff at $handoff s (the program's clock)"

# --- TSV by thread
"$PCTBIN" timeline --format=tsv --bucket=0.05 h.pct >tl.tsv 2>tl.err || fail "timeline --format=tsv: $(cat tl.err)"
[ "$(head -1 tl.tsv)" = "$(printf 'start_s\tlength_s\tpid\ttid\tthread\tsamples')" ] ||
	fail "TSV header: $(head -1 tl.tsv)"
awk -F'\t' -v h="$handoff" '
	NR == 1 { next }
	$2 != 0.05 { coarse++ }
	$5 == "phase-a" { a += $6; if ($1 < h + 0.1) a1 += $6 }
	$5 == "phase-b" { b += $6; if ($1 + $2 > h) b2 += $6 }
	END {
		printf "phase-a: %d samples, %d (%.1f%%) before the handoff\n", a, a1, a ? 100 * a1 / a : 0
		printf "phase-b: %d samples, %d (%.1f%%) after it\n", b, b2, b ? 100 * b2 / b : 0
		if (coarse) printf "%d lines of coarse buckets\n", coarse
		exit !(a >= 100 && b >= 100 && a1 >= 0.9 * a && b2 >= 0.9 * b)
	}' tl.tsv || fail "the threads' samples are not on their sides of the handoff"

# the sums per thread are the report's, exactly
"$PCTBIN" report --by=thread --format=tsv h.pct >thread.tsv || fail "report --by=thread"
awk -F'\t' 'NR == FNR { if (FNR > 1) n[$4] += $6; next }
	FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ r[$c["tid"]] = $c["samples"] }
	END { for (t in r) if (n[t] != r[t]) { printf "tid %s: timeline %d, report %d\n", t, n[t], r[t]; bad = 1 }
	      for (t in n) if (!(t in r)) { printf "tid %s: only in the timeline\n", t; bad = 1 }
	      exit bad }' tl.tsv thread.tsv || fail "the timeline's samples per thread differ from pct report's"
cat tl.err
grep -q "no time" tl.err && fail "samples without a time in a 2 s run: $(cat tl.err)"

# shares and counts against the CPU times the threads measured
grep -v '^handoff' truth.tsv >cpu.tsv
awk -F'\t' 'NR == 1 { print "thread\tsamples"; next } { n[$5] += $6 } END { for (t in n) print t "\t" n[t] }' \
	tl.tsv >bythread.tsv
period=$(period_of h.pct)
check_truth cpu.tsv bythread.tsv "$period" thread || fail "the threads' samples disagree with their CPU time"

# --- text: fits the width, one row per thread, the strips on their sides
"$PCTBIN" timeline --width=70 h.pct >tl.txt 2>txt.err || fail "timeline: $(cat txt.err)"
cat tl.txt
[ "$(wc -L <tl.txt)" -le 70 ] || fail "a line is over 70 columns: $(wc -L <tl.txt)"
rows=$(grep -cE '^[0-9?]+ .* \|.*\| +[0-9.]+%$' tl.txt)
threads=$(($(wc -l <thread.tsv) - 1))
[ "$rows" -eq "$threads" ] || fail "$rows rows for the $threads threads of pct report --by=thread"
for t in phase-a phase-b; do
	[ "$(grep -cE "^[0-9]+ $t +\|" tl.txt)" -eq 1 ] || fail "no single row for $t"
done
col=$(sed -n 's/.*a column is \([0-9.]*\) s.*/\1/p' tl.txt | head -1)
[ -n "$col" ] || fail "the text does not say how long a column is"
# strip_sides NAME SLACK_A SLACK_B: the non-blank cells of NAME's strip
# before the handoff's column (+ SLACK_A) and after it (- SLACK_B)
strip_sides() {
	grep -E "^[0-9]* ?$1 +\|" tl.txt | head -1 | sed 's/^[^|]*|\(.*\)| *[0-9.]*%$/\1/' |
		awk -v h="$handoff" -v col="$col" -v sa="$2" -v sb="$3" '{
			hc = h / col
			for (i = 1; i <= length($0); i++) {
				c = substr($0, i, 1); if (c == " ") continue
				if (i - 1 < hc + sa) before++; if (i > hc - sb) after++; n++
			}
			printf "%d %d %d\n", n, before, after }'
}
# min_cells TSV FIELD NAME: how many non-blank cells NAME's strip must
# have: 6, or fewer when its samples came in signals of fewer columns (a
# loaded machine's timer overruns: phase-b's 249 samples once came in 5
# columns' signals, '#' cells far apart); the columns of its signals
# from a TSV of 0.1 ms buckets (one signal each), one of slack for a
# column's edge
min_cells() {
	awk -F'\t' -v f="$2" -v name="$3" -v col="$col" 'NR > 1 && $f == name && $(f + 1) > 0 { c[int($1 / col)] = 1 }
		END { for (i in c) d++; print (d >= 7 ? 6 : (d > 2 ? d - 1 : 1)) }' "$1"
}
"$PCTBIN" timeline --format=tsv --bucket=0.0001 h.pct >tlf.tsv 2>tlf.err || fail "timeline --bucket=0.0001: $(cat tlf.err)"
read -r n before after <<<"$(strip_sides phase-a 2 0)"
echo "phase-a's strip: $n cells, $before before the handoff"
[ "$n" -ge "$(min_cells tlf.tsv 5 phase-a)" ] && [ "$before" -ge $((n * 9 / 10)) ] || fail "phase-a's strip is not before the handoff"
read -r n before after <<<"$(strip_sides phase-b 0 1)"
echo "phase-b's strip: $n cells, $after after the handoff"
[ "$n" -ge "$(min_cells tlf.tsv 5 phase-b)" ] && [ "$after" -ge $((n * 9 / 10)) ] || fail "phase-b's strip is not after the handoff"
# the shares are the threads' shares of all samples
total=$(awk -F'\t' 'NR > 1 { t += $6 } END { print t }' tl.tsv)
for t in phase-a phase-b; do
	want=$(awk -F'\t' -v t="$t" -v total="$total" 'NR > 1 && $5 == t { n += $6 } END { printf "%.1f%%", 100 * n / total }' tl.tsv)
	grep -E "^[0-9]+ $t +\|" tl.txt | grep -q " $want\$" || fail "$t's share is not $want"
done

# on a terminal, its width (TIOCGWINSZ) whatever $COLUMNS says; elsewhere
# $COLUMNS (script(1) gives the command a terminal of 64 columns)
COLUMNS=200 script -qec "stty cols 64 rows 30; '$PCTBIN' timeline h.pct" /dev/null | tr -d '\r' >tty.txt
w=$(wc -L <tty.txt)
[ "$w" -le 64 ] && [ "$w" -ge 55 ] || fail "on a 64-column terminal the lines are up to $w columns: $(cat tty.txt)"
COLUMNS=50 "$PCTBIN" timeline h.pct >cols.txt || fail "COLUMNS=50"
w=$(wc -L <cols.txt)
[ "$w" -le 50 ] && [ "$w" -ge 45 ] || fail "with COLUMNS=50 the lines are up to $w columns: $(cat cols.txt)"

# --- by function: the phase change
"$PCTBIN" timeline --by=function --format=tsv --bucket=0.05 h.pct >fn.tsv 2>fn.err || fail "--by=function tsv: $(cat fn.err)"
[ "$(head -1 fn.tsv)" = "$(printf 'start_s\tlength_s\tmodule\tfunction\tsamples\tbucket_samples')" ] ||
	fail "--by=function TSV header: $(head -1 fn.tsv)"
awk -F'\t' -v h="$handoff" '
	NR == 1 { next }
	$4 == "phase_a_work" { a += $5; if ($1 < h + 0.1) a1 += $5 }
	$4 == "phase_b_work" { b += $5; if ($1 + $2 > h) b2 += $5 }
	$5 > $6 { bad = 1 }
	END {
		printf "phase_a_work: %d samples, %.1f%% before the handoff; phase_b_work: %d, %.1f%% after\n",
			a, a ? 100 * a1 / a : 0, b, b ? 100 * b2 / b : 0
		exit !(!bad && a >= 100 && b >= 100 && a1 >= 0.9 * a && b2 >= 0.9 * b) }' fn.tsv ||
	fail "--by=function: the functions are not on their sides of the handoff"
"$PCTBIN" timeline --by=function --width=70 -n 5 h.pct >fn.txt || fail "--by=function"
cat fn.txt
[ "$(wc -L <fn.txt)" -le 70 ] || fail "--by=function: a line is over 70 columns"
rows=$(grep -cE '\|.*\| +[0-9.]+%$' fn.txt)
[ "$rows" -ge 2 ] && [ "$rows" -le 5 ] || fail "--by=function -n 5 shows $rows rows"
col=$(sed -n 's/.*a column is \([0-9.]*\) s.*/\1/p' fn.txt | head -1)
cp fn.txt tl.txt
"$PCTBIN" timeline --by=function --format=tsv --bucket=0.0001 h.pct >fnf.tsv 2>fnf.err || fail "--by=function --bucket=0.0001: $(cat fnf.err)"
read -r n before after <<<"$(strip_sides phase_a_work 2 0)"
echo "phase_a_work's strip: $n cells, $before before the handoff"
[ "$n" -ge "$(min_cells fnf.tsv 4 phase_a_work)" ] && [ "$before" -ge $((n * 9 / 10)) ] || fail "phase_a_work's strip is not before the handoff"
read -r n before after <<<"$(strip_sides phase_b_work 0 1)"
echo "phase_b_work's strip: $n cells, $after after the handoff"
[ "$n" -ge "$(min_cells fnf.tsv 4 phase_b_work)" ] && [ "$after" -ge $((n * 9 / 10)) ] || fail "phase_b_work's strip is not after the handoff"
# before the handoff phase_a_work holds nearly every sample of a column
# (the rest is the clock_gettime that burn.h calls, about 8%): in a
# column with samples, its cell is darker than every other function's.
# (Not a fixed glyph: a cell is its samples over a thread's at full
# speed, so a loaded machine, which gives the thread a part of a CPU,
# draws every row lighter alike.)  A column of n samples, each outside
# phase_a_work with p = 0.08, leaves it no darker than another row only
# if about half are elsewhere: binomially P <= 0.05 at n = 2, far less
# above, so 80% of the columns (min_cells of them at least) hold unless
# the rows are wrong.  Only the columns that hold a signal count (fnf.tsv:
# 0.1 ms buckets, one signal each): a loaded machine's timer overruns
# leave columns between its signals empty, in every row.
hashes=$(grep -E '^[^ ].* +\|.*\| +[0-9.]+%$' fn.txt | sed 's/^\([^ ]*\) .*|\(.*\)|.*/\1\t\2/' |
	awk -v h="$handoff" -v col="$col" -F'\t' 'NR == FNR { if (FNR > 1 && $5 > 0) has[int($1 / col)] = 1; next }
	{ row[FNR] = $2; name[FNR] = $1; rows = FNR }
	END { shade = " .:-=#"
	      for (r = 1; r <= rows; r++) if (name[r] == "phase_a_work") a = r
	      for (i = 2; a && i < h / col - 1; i++) {
		if (!((i - 1) in has)) continue
		n++; mine = index(shade, substr(row[a], i, 1)); top = 1
		for (r = 1; r <= rows; r++) if (r != a && index(shade, substr(row[r], i, 1)) >= mine) top = 0
		k += top }
	      printf "%d %d\n", n, k }' fnf.tsv -)
read -r n k <<<"$hashes"
echo "phase_a_work before the handoff: darkest in $k of $n columns with samples"
[ "$n" -ge "$(min_cells fnf.tsv 4 phase_a_work)" ] && [ "$k" -ge $((n * 8 / 10)) ] || fail "phase_a_work does not fill the columns before the handoff: darkest in $k of $n: $(cat fn.txt)"

# phase_samples FILE: the fewest samples of a phase thread in a process
# of FILE (0 if a process has none of one)
phase_samples() {
	"$PCTBIN" report --by=thread --format=tsv "$1" 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		{ p[$k["pid"]] = 1 } $k["thread"] ~ /^phase-[ab]$/ { n[$k["pid"] " " $k["thread"]] += $k["samples"] }
		END { m = -1; for (x in p) for (t = 0; t < 2; t++) { c = n[x " phase-" (t ? "b" : "a")] + 0; if (m < 0 || c < m) m = c }
		      print m < 0 ? 0 : m }'
}
# --- two files, one after the other: lined up by their start.  Each
# phase needs a row, so samples: 0.3 s of CPU a phase is 75 at 250 Hz,
# but a loaded machine's tick can miss most of a short run (libpct(3):
# phase-a had none once beside a loaded suite), so the run is made again,
# twice and four times as long, until each phase has 5
for secs2 in 0.3 0.6 1.2; do
	"$PCTBIN" record -o h2.pct "$PROGS/handoff" $secs2 >truth2.tsv 2>rec2.err || fail "record 2: $(cat rec2.err)"
	[ "$(phase_samples h2.pct)" -ge 5 ] && break
	echo "second file: $(phase_samples h2.pct) samples in a phase of $secs2 s: again, longer"
done
"$PCTBIN" timeline --format=tsv --bucket=0.05 h.pct h2.pct >two.tsv || fail "timeline of two files"
pids=$(awk -F'\t' 'NR > 1 { print $3 }' two.tsv | sort -u | wc -l)
[ "$pids" -eq 2 ] || fail "two files give $pids pids in the TSV"
first=$(awk -F'\t' 'NR == 2 { print $3 }' two.tsv)
awk -F'\t' -v p1="$first" 'NR == 1 { next }
	$3 == p1 { if ($1 + $2 > end1) end1 = $1 + $2 }
	$3 != p1 { if (start2 == "" || $1 < start2) start2 = $1 }
	END { printf "first process ends by %.2f s, the second starts at %.2f s\n", end1, start2
	      exit !(end1 > 1.5 && start2 >= end1 - 0.1) }' two.tsv || fail "the two files are not lined up in time"
"$PCTBIN" timeline --width=70 h.pct h2.pct >two.txt || fail "text of two files"
cat two.txt
[ "$(grep -c '^pid [0-9]* ' two.txt)" -eq 2 ] || fail "no line per process"
[ "$(grep -cE '^  [0-9]+ phase-a +\|' two.txt)" -eq 2 ] || fail "no phase-a row under each process"
[ "$(wc -L <two.txt)" -le 70 ] || fail "two files: a line is over 70 columns"

# --- a process tree: each process a line, lined up by its start (each
# phase of each process with samples, as above)
for secs3 in 0.3 0.6 1.2; do
	"$PCTBIN" record -o tree.pct sh -c "'$PROGS/handoff' $secs3; '$PROGS/handoff' $secs3" >/dev/null 2>rec3.err ||
		fail "record tree: $(cat rec3.err)"
	[ "$(phase_samples tree.pct)" -ge 5 ] && break
	echo "tree: $(phase_samples tree.pct) samples in a phase of $secs3 s: again, longer"
done
"$PCTBIN" timeline --format=tsv --bucket=0.05 tree.pct >tree.tsv || fail "timeline of a tree"
awk -F'\t' 'NR == 1 { next } $5 ~ /^phase-/ { p[$3] = 1; if (!($3 in s) || $1 < s[$3]) s[$3] = $1
	if ($1 + $2 > e[$3]) e[$3] = $1 + $2 }
	END { n = 0; for (x in p) pid[++n] = x
	      if (n != 2) { printf "%d processes with phase threads\n", n; exit 1 }
	      if (s[pid[1]] > s[pid[2]]) { t = pid[1]; pid[1] = pid[2]; pid[2] = t }
	      printf "tree: first process %.2f..%.2f s, second %.2f..%.2f s\n", s[pid[1]], e[pid[1]], s[pid[2]], e[pid[2]]
	      exit !(s[pid[2]] >= e[pid[1]] - 0.1) }' tree.tsv || fail "the tree's processes are not lined up in time"
"$PCTBIN" timeline --width=70 tree.pct >tree.txt || fail "text of a tree"
cat tree.txt
[ "$(grep -c "^pid [0-9]* .*handoff $secs3" tree.txt)" -eq 2 ] || fail "no line per process of the tree"
[ "$(grep -cE '^  [0-9]+ phase-b +\|' tree.txt)" -eq 2 ] || fail "no phase-b row under each process of the tree"

# --- a full tick log (1 KiB, 64 ticks): the rest is coarse, drawn in
# its second, and the sums are still the report's.  (Under load a tick
# may stand for several samples, a CPU timer's overruns: 256 ticks once
# held all of a run's 498 samples.)
# Fewer than 64 signals in a run of 1 s a thread happen too, the kernel's
# tick missing most of a short run on an oversubscribed machine
# (libpct(3)): then the run is made again, twice and four times as long.)
for secs in 1 2 4; do
	PCT_TIME_AREA=1 "$PCTBIN" record -o small.pct "$PROGS/handoff" $secs >/dev/null 2>rec4.err || fail "record small: $(cat rec4.err)"
	"$PCTBIN" timeline --format=tsv --bucket=0.05 small.pct >small.tsv 2>small.err || fail "timeline small"
	# (and 100 samples in the coarse lines, checked below)
	grep -q "known only to their coarse bucket" small.err &&
		awk -F'\t' 'NR > 1 && $2 == 1 { c += $6 } END { exit !(c >= 100) }' small.tsv && break
	[ $secs = 4 ] && break   # (checked below)
	echo "full tick log: no coarse samples, or fewer than 100, in $secs s a thread: again"
done
grep -q "known only to their coarse bucket" small.err || fail "TSV: no note of coarse samples in runs of 1, 2 and 4 s: $(cat small.err)"
"$PCTBIN" report --by=thread --format=tsv small.pct >small-thread.tsv || fail "report small"
awk -F'\t' 'NR == FNR { if (FNR > 1) { n[$4] += $6; if ($2 == 1) c += $6 } next }
	FNR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	{ if (n[$k["tid"]] != $k["samples"]) bad = 1 }
	END { printf "%d samples in 1 s lines\n", c; exit !(c >= 100 && !bad) }' small.tsv small-thread.tsv ||
	fail "full tick log: the TSV's sums differ from the report's, or no coarse lines"
"$PCTBIN" timeline --width=70 small.pct >small.txt || fail "timeline small, text"
cat small.txt
grep -qE '^~ coarse +~+' small.txt || fail "the coarse columns are not marked"
grep -q '^# ~ coarse: [0-9]* samples' small.txt || fail "no note of the coarse samples"
[ "$(wc -L <small.txt)" -le 70 ] || fail "full tick log: a line is over 70 columns"

# --- names with terminal escapes (tests/progs/escnames) print escaped
sampled e.pct e-rec.err "$PCTBIN" record -o e.pct "$PROGS/escnames" 0.3 $'arg\e[2J\a\x9b' >/dev/null || fail "record escnames"
[ -f e.pct ] || fail "record escnames left no e.pct: $(cat -v e-rec.err)"
for args in "" "--format=tsv" "--by=function" "--by=function --format=tsv"; do
	# shellcheck disable=SC2086
	"$PCTBIN" timeline $args e.pct >esc.out 2>esc.err || fail "timeline $args of escnames: $(cat -v esc.err)"
	[ "$(LC_ALL=C grep -c $'[\e\a\x9b]' esc.out esc.err | awk -F: '{ n += $2 } END { print n }')" -eq 0 ] ||
		fail "timeline $args prints raw escapes: $(cat -v esc.out | head -5)"
done
# (the reader has made the C0 bytes '?' already; 0x9b and 0xff are escaped)
"$PCTBIN" timeline e.pct | grep -qF 't?[2J?]0;?\x9b\xff |' || fail "the thread's name is not shown escaped"

# --- errors
"$PCTBIN" timeline --width=10 h.pct >/dev/null 2>err; [ $? -eq 2 ] || fail "--width=10 does not exit 2"
"$PCTBIN" timeline --by=module h.pct >/dev/null 2>err; [ $? -eq 2 ] || fail "--by=module does not exit 2"
"$PCTBIN" timeline --bucket=0.001 --width=40 h.pct >/dev/null 2>err; [ $? -eq 2 ] ||
	fail "--bucket too short for the width does not exit 2"
# a version 2 file has no sample times: exit 1, naming it
cp h.pct v2.pct
printf '\002' | dd of=v2.pct bs=1 seek=8 conv=notrunc status=none
"$PCTBIN" report v2.pct >/dev/null || fail "report of a version 2 file"
"$PCTBIN" timeline v2.pct >/dev/null 2>err; rc=$?
[ $rc -eq 1 ] && grep -q "v2.pct: no sample times (format version 2; record it again)" err ||
	fail "a version 2 file: exit $rc, $(cat err)"
# nor has a file merged with --sum, nor one recorded with PCT_TIME_AREA=0;
# a merge that keeps the runs apart keeps their times
"$PCTBIN" merge --sum -o m.pct h.pct h2.pct 2>/dev/null || fail "merge --sum"
"$PCTBIN" timeline m.pct >/dev/null 2>err; rc=$?
[ $rc -eq 1 ] && grep -q "m.pct: no sample times (pct merge --sum keeps none" err || fail "a merged file: exit $rc, $(cat err)"
"$PCTBIN" merge -o mk.pct h.pct h2.pct 2>/dev/null || fail "merge"
"$PCTBIN" timeline mk.pct >/dev/null 2>err || fail "timeline of a merged file: $(cat err)"
PCT_TIME_AREA=0 "$PCTBIN" record -o z.pct "$PROGS/handoff" 0.2 >/dev/null 2>&1 || fail "record with PCT_TIME_AREA=0"
"$PCTBIN" timeline z.pct >/dev/null 2>err; rc=$?
[ $rc -eq 1 ] && grep -q "z.pct: no sample times (recorded with PCT_TIME_AREA=0" err ||
	fail "PCT_TIME_AREA=0: exit $rc, $(cat err)"
pass "timeline: each thread and function on its side of the handoff, counts as pct report's, shares as the CPU times"
