# pct export, read by the real peers (installed by scripts/deps.sh):
# gprof reads the gmon export, google-pprof the gperftools export,
# callgrind_annotate the callgrind export and protoc --decode the pprof
# export; each agrees with pct report.
. "$(dirname "$0")/lib.sh"
for t in gprof google-pprof callgrind_annotate protoc; do
	command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh installs it)"
done
PROTO_DIR=/usr/share/gocode/src/github.com/google/pprof/proto
prog=$PROGS/selftime
"$PCTBIN" record -o sel.pct "$prog" 1 >/dev/null 2>&1 || fail "record selftime"
"$PCTBIN" report --format=tsv sel.pct >report.tsv || fail "report"
# pct's samples per function of the executable
awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["module"] ~ /selftime$/ { print $k["function"] "\t" $k["samples"] }' report.tsv | sort >pct.txt
[ "$(wc -l <pct.txt)" -ge 3 ] || fail "selftime's functions are missing: $(cat report.tsv)"
total=$(awk -F'\t' '{ t += $2 } END { print t }' pct.txt)

# gmon: gprof's flat profile gives each function's share of the histogram
"$PCTBIN" export --format=gmon -o gmon.out sel.pct || fail "export gmon"
gprof -b -p "$prog" gmon.out >gprof.txt 2>gprof.err || fail "gprof: $(cat gprof.err)"
awk 'NF == 4 && $1 ~ /^[0-9.]+$/ { print $4 "\t" $1 }' gprof.txt | sort >gprof-share.txt
awk -F'\t' -v t="$total" '{ printf "%s\t%.2f\n", $1, 100 * $2 / t }' pct.txt >pct-share.txt
join -t $'\t' pct-share.txt gprof-share.txt | awk -F'\t' '{ d = $2 - $3; printf "gmon %-8s pct %6.2f%%  gprof %6.2f%%\n", $1, $2, $3
	if (d > 0.011 || d < -0.011) bad = 1; n++ } END { exit bad || n < 3 }' ||
	fail "gprof's shares differ from pct's: $(cat gprof.txt)"
grep -q "each sample counts as 0.00[34]" <(tr 'E' 'e' <gprof.txt) || fail "gprof's period is not pct's: $(head -3 gprof.txt)"

# gperftools: google-pprof --text names the same samples per function.
# google-pprof gives a sample in code inlined into a function (main's
# now_ns) to the inlined function, "now_ns (inline)", and counts it in the
# cumulative column of the function it is inlined into; without -g a
# stack is that one PC, so a symbol's cumulative count is pct's self
# count of the symbol.  (Comparing the self column failed once in about
# 10 runs: main 1 sample in pct, 0 in google-pprof.)
"$PCTBIN" export --format=gperftools -o sel.prof sel.pct || fail "export gperftools"
google-pprof --text "$prog" sel.prof >pprof.txt 2>pprof.err || fail "google-pprof: $(cat pprof.err)"
awk '$2 ~ /%$/ && NF == 6 { print $6 "\t" $4 }' pprof.txt | sort >pprof-n.txt
join -t $'\t' pct.txt pprof-n.txt | awk -F'\t' '{ printf "gperftools %-8s pct %d  google-pprof %d\n", $1, $2, $3
	if ($2 != $3) bad = 1; n++ } END { exit bad || n < 3 }' || fail "google-pprof differs: $(cat pprof.txt)"

# callgrind: the totals and the per-function costs match
"$PCTBIN" export --format=callgrind -o callgrind.out sel.pct || fail "export callgrind"
# --threshold=100: every function (the default, 99, leaves out the last
# 1% of the cost: main's one sample, when work_a-c hold 99.6%)
callgrind_annotate --threshold=100 callgrind.out >cga.txt 2>cga.err || fail "callgrind_annotate: $(cat cga.err)"
all=$(awk -F'\t' 'NR > 1 { t += $1 } END { print t }' report.tsv)
cg_total=$(awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }' cga.txt)
echo "callgrind: PROGRAM TOTALS $cg_total, pct $all samples"
[ "$cg_total" = "$all" ] || fail "callgrind_annotate's total $cg_total, pct's $all"
for f in $(cut -f1 pct.txt); do
	n=$(awk -v f="$f" '$0 ~ ":" f " \\[" { gsub(",", "", $1); print $1 }' cga.txt)
	[ "$n" = "$(awk -F'\t' -v f="$f" '$1 == f { print $2 }' pct.txt)" ] || fail "callgrind cost of $f is '$n': $(cat cga.txt)"
done

# pprof: protoc decodes it against Debian's profile.proto; the values add up
"$PCTBIN" export --format=pprof -o sel.pb.gz sel.pct || fail "export pprof"
gzip -t sel.pb.gz || fail "the pprof export is not gzip"
gunzip -c sel.pb.gz | protoc --decode=perftools.profiles.Profile -I"$PROTO_DIR" profile.proto >decoded.txt 2>perr ||
	fail "protoc --decode: $(cat perr)"
pb_total=$(awk '/^sample {/ { s = 1; k = 0 } s && /value:/ { if (k++ == 0) t += $2 } /^}/ { s = 0 } END { print t }' decoded.txt)
echo "pprof: $pb_total samples in the decoded profile, pct $all"
[ "$pb_total" = "$all" ] || fail "pprof export holds $pb_total samples, pct $all"
for f in work_a work_b work_c; do grep -q "\"$f\"" decoded.txt || fail "no function $f in the string table"; done
grep -q 'string_table: "nanoseconds"' decoded.txt || fail "no nanoseconds sample type"

# with -g stacks: google-pprof sees main's cumulative share, callgrind has calls
"$PCTBIN" record -g -o cc.pct "$PROGS/callchain" 0.2 >/dev/null 2>&1 || fail "record -g"
"$PCTBIN" export --format=gperftools -o cc.prof cc.pct || fail "export gperftools -g"
google-pprof --text --cum "$PROGS/callchain" cc.prof >cum.txt 2>/dev/null || fail "google-pprof -g"
# (every sample is under main unloaded; a loaded run once left 3 of 350 whose
# stacks did not reach main, so allow 2%)
awk '$6 == "main" && $5 + 0 >= 98 { found = 1 } END { exit !found }' cum.txt ||
	fail "main is not (nearly) 100% cumulative: $(cat cum.txt)"
"$PCTBIN" export --format=callgrind -o cc.callgrind cc.pct || fail "export callgrind -g"
grep -q '^calls=' cc.callgrind || fail "no calls= lines with stacks"
callgrind_annotate --inclusive=yes cc.callgrind >cgi.txt 2>&1 || fail "callgrind_annotate -g: $(cat cgi.txt)"
"$PCTBIN" export --format=pprof -o cc.pb.gz cc.pct || fail "export pprof -g"
gunzip -c cc.pb.gz | protoc --decode=perftools.profiles.Profile -I"$PROTO_DIR" profile.proto >cc-decoded.txt ||
	fail "protoc --decode -g"
awk '/^sample {/ { n = 0 } /location_id:/ { n++ } /^}/ && n > m { m = n } END { exit m < 5 }' cc-decoded.txt ||
	fail "pprof samples have no stacks"

# gmon bins are 16-bit: 70000 samples at one address saturate at 65535
# (with a note) rather than wrap to 4464
"$PCTBIN" dump sel.pct | awk -F'\t' -v OFS='\t' '/^#/ { next } $1 == "module" { print; next }
	$1 ~ /selftime$/ && !seen++ { $NF = 70000; print }' >big.tsv
MKPROFILE_EXE=$prog "$PROGS/mkprofile" big.pct <big.tsv || fail "mkprofile"
"$PCTBIN" export --format=gmon -o big.gmon big.pct 2>big.err || fail "export gmon 70000"
grep -q "cut to 65535" big.err || fail "no saturation note: $(cat big.err)"
gprof -b -p "$prog" big.gmon >big.txt 2>&1 || fail "gprof big: $(cat big.txt)"
awk 'NF == 4 && $1 ~ /^[0-9.]+$/ { s += $3 } END { printf "gmon saturated: %.2f s (65535 x 4 ms = 262.14)\n", s
	exit !(s > 262.0 && s < 262.3) }' big.txt || fail "saturated bin reads wrong: $(cat big.txt)"

# errors: unknown format, folded without stacks, a corrupt input
"$PCTBIN" export --format=nope sel.pct 2>err && fail "unknown format accepted"
grep -q "unknown --format 'nope'" err || fail "unclear: $(cat err)"
"$PCTBIN" export --format=folded sel.pct 2>err && fail "folded without stacks succeeded"
grep -q "no call stacks" err || fail "unclear: $(cat err)"
head -c 300 sel.pct >short.pct
"$PCTBIN" export --format=pprof -o x.pb.gz short.pct 2>err; [ $? = 1 ] || fail "corrupt input: not exit 1"
grep -q "short.pct" err && [ ! -e x.pb.gz ] || fail "corrupt input: $(cat err); output left behind"
# a profile without samples exports in every format (before: callgrind
# passed qsort a null array, which the sanitized build, make check-san,
# stops on)
printf '' | "$PROGS/mkprofile" empty.pct || fail "mkprofile empty"
for f in gperftools callgrind pprof; do
	"$PCTBIN" export --format=$f -o empty.$f empty.pct 2>err || fail "export $f of an empty profile: $(cat err)"
done
# -o - is standard output; binary formats are refused on a terminal
# (script(1) gives the command one), as gzip does (before: written)
"$PCTBIN" export --format=pprof -o - sel.pct >dash.pb.gz || fail "-o -"
cmp -s dash.pb.gz sel.pb.gz || fail "-o - differs from -o FILE"
[ ! -e ./- ] || fail "-o - created a file named -"
script -qec "'$PCTBIN' export --format=pprof sel.pct" /dev/null >tty.out 2>&1; st=$?
[ $st = 2 ] || fail "pprof to a terminal: exit $st: $(head -c 300 tty.out)"
grep -q "binary and standard output is a terminal" tty.out || fail "pprof to a terminal: $(head -c 300 tty.out)"
script -qec "'$PCTBIN' export --format=callgrind sel.pct" /dev/null >tty.out 2>&1 || fail "callgrind to a terminal"
"$PCTBIN" export --format=nosuch sel.pct 2>/dev/null; [ $? = 2 ] || fail "unknown format: not exit 2"
pass "gprof, google-pprof, callgrind_annotate and protoc read pct's exports and agree with it"
