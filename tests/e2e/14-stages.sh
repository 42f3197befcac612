# pct report is exactly the composition of the filter stages: for every
# view and format, the shell pipeline prints the same bytes.  Stages find
# columns by name, pass other columns and '#' lines through, and refuse
# malformed input with the input's name and line.
. "$(dirname "$0")/lib.sh"
"$PCTBIN" record -o a.pct "$PROGS/hotline" 60000000 >/dev/null 2>&1 || fail "record hotline"
"$PCTBIN" record -o b.pct "$PROGS/selftime" 1 >/dev/null 2>&1 || fail "record selftime"
P=$PCTBIN
for files in "a.pct" "a.pct b.pct"; do
	for fmt in text tsv; do
		f="--format=$fmt"
		diff <($P report $f --by=module $files) <($P dump $files | $P sum $f --by=module) ||
			fail "module view differs ($files, $fmt)"
		diff <($P report $f --by=function $files) <($P dump $files | $P sym | $P sum $f --by=module,function) ||
			fail "function view differs ($files, $fmt)"
		diff <($P report $f --by=address $files) <($P dump $files | $P sym | $P sum $f --by=module,address,function) ||
			fail "address view differs ($files, $fmt)"
		diff <($P report $f --by=line $files) <($P dump $files | $P sym | $P line | $P sum $f --by=file,line,function,inline) ||
			fail "line view differs ($files, $fmt)"
		diff <($P report $f --by=file $files) <($P dump $files | $P sym | $P line | $P sum $f --by=file) ||
			fail "file view differs ($files, $fmt)"
		diff <($P report $f --by=thread $files) <($P dump $files | $P sum $f --by=pid,tid,thread) ||
			fail "thread view differs ($files, $fmt)"
		diff <($P report $f --by=process $files) <($P dump $files | $P sum $f --by=pid,command) ||
			fail "process view differs ($files, $fmt)"
		diff <($P report $f --split=process $files) <($P dump $files | $P sym | $P sum $f --split=process --by=module,function) ||
			fail "--split=process differs ($files, $fmt)"
	done
done
# -n applies the same way
diff <($P report -n 3 a.pct) <($P dump a.pct | $P sym | $P sum -n 3 --by=module,function) || fail "-n differs"

# a column added between stages survives, and the stages still find theirs
$P dump a.pct | awk -F'\t' 'BEGIN { OFS = "\t" } /^#/ { print; next } { print "x" NR, $0 }' | $P sym | $P line >extra.tsv ||
	fail "stages with an extra leading column"
grep -v '^#' extra.tsv | head -1 | grep -q $'^x[0-9]*\tmodule\tbuild_id\toffset\tpid\tcommand\ttid\tthread\tsamples\tfunction\tfunction_offset\taddress\tfile\tline\tinline$' ||
	fail "header with an extra column: $(grep -v '^#' extra.tsv | head -1)"
grep -q '^#pct files=1 ' extra.tsv || fail "comment lines not passed through"

# bad input: named, with the line
printf 'module\tbuild_id\toffset\tsamples\n/bin/true\t\tzz\t1\n' | $P sym 2>err; rc=$?
[ $rc -eq 1 ] && grep -q "standard input:2: bad offset 'zz'" err || fail "bad offset: rc $rc $(cat err)"
printf 'module\toffset\n' >nobid.tsv
$P sym nobid.tsv 2>err; [ $? -eq 1 ] && grep -q "nobid.tsv: no 'build_id' column" err || fail "missing column: $(cat err)"
printf 'a\tb\tsamples\nx\ty\n' | $P sum --by=a 2>err; [ $? -eq 1 ] && grep -q "standard input:2: 2 fields, but the header has 3" err || fail "short row: $(cat err)"
printf 'a\tsamples\nx\t-3\n' | $P sum --by=a 2>err; [ $? -eq 1 ] && grep -q "bad samples '-3'" err || fail "negative samples: $(cat err)"
$P sum --by=nope <extra.tsv 2>err; [ $? -eq 2 ] && grep -q "no 'nope' column" err || fail "unknown key: $(cat err)"
: | $P sym 2>err; [ $? -eq 1 ] && grep -q "empty input" err || fail "empty input: $(cat err)"
# The one exception, stated in pct-report(1): with call stacks (-g) the
# report adds total and total_percent, and rows of functions with total
# time only, from the stacks, which the TSV stages do not carry.  Its
# other columns and rows are the pipeline's, byte for byte.
"$PCTBIN" record -g -o g.pct "$PROGS/selftime" 0.5 >/dev/null 2>&1 || fail "record -g selftime"
$P report --format=tsv g.pct >g.report || fail "report g.pct"
head -n 1 g.report | tr '\t' '\n' | grep -qx total || fail "no total column in the -g report: $(head -n 1 g.report)"
awk -F'\t' 'NR > 1 && $1 == 0 { z++ } END { exit !(z > 0) }' g.report || fail "no total-only row in the -g report"
awk -F'\t' -v OFS='\t' 'NR == 1 { for (i = 1; i <= NF; i++) if ($i != "total" && $i != "total_percent") k[++n] = i }
	NR == 1 || $1 > 0 { l = $k[1]; for (j = 2; j <= n; j++) l = l OFS $k[j]; print l }' g.report >g.self
$P dump g.pct | $P sym | $P sum --format=tsv --by=module,function >g.pipe || fail "pipeline of g.pct"
diff g.self g.pipe || fail "-g report's self columns differ from the pipeline"
grep -q "total" "$ROOT/man/pct-report.1" && grep -q "do not carry" "$ROOT/man/pct-report.1" ||
	fail "pct-report(1) does not state the -g exception"
pass "pipeline == report for 7 views and a split x 2 formats x 1 and 2 files, and -g self columns"
