# JIT code of real runtimes, named from their perf maps (see test 101):
# node --perf-basic-prof running tests/hosts/jit-hot.js, whose hot
# function is hotLoopJs, and the JVM (JDK 17: the source launcher) with
# -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit running
# tests/hosts/JitHot.java, whose hot method is JitHot.hotLoopJava.  In
# both the hot function is named and has the top share of the JIT rows
# (and of all rows), and it stays named after /tmp/perf-PID.map is
# deleted: pct record kept the map beside the profile.
. "$(dirname "$0")/lib.sh"
command -v java >/dev/null || fail "no java (scripts/deps.sh installs default-jre-headless)"
command -v node >/dev/null || fail "no node (scripts/deps.sh installs nodejs)"
export HOME=$SCRATCH JAVA_TOOL_OPTIONS= _JAVA_OPTIONS= XDG_CACHE_HOME=$SCRATCH/cache
trap 'for m in "$SCRATCH"/*.perf-*.map; do m=${m##*.perf-}; rm -f "/tmp/perf-${m%.map}.map"; done; rm -rf "$SCRATCH"' EXIT
P=$PCTBIN

# check NAME STEM PATTERN: the function matching the case pattern
# PATTERN (a JIT compiler's full name) is the top row and the top JIT row
# of STEM.pct, in a module named by the map kept as STEM.perf-PID.map,
# before and after /tmp/perf-PID.map is deleted
check() {
	local name=$1 stem=$2 fn=$3 kept pid
	kept=$(ls "$SCRATCH/$stem".perf-*.map 2>/dev/null | head -1)
	[ -n "$kept" ] || fail "$name: pct record kept no perf map beside $stem.pct: $(ls)"
	pid=${kept##*.perf-}
	pid=${pid%.map}
	[ -f "/tmp/perf-$pid.map" ] || fail "$name wrote no /tmp/perf-$pid.map"
	for when in before after; do
		"$P" report --format=tsv "$stem.pct" >"$stem.tsv" 2>"$stem.err" || fail "$name: report"
		[ -s "$stem.err" ] && fail "$name: the report warned: $(cat "$stem.err")"
		awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
			{ print $k["function"] "\t" $k["module"] "\t" $k["percent"] }' "$stem.tsv" >"$stem.rows"
		top=$(head -1 "$stem.rows")
		jit=$(grep -F "	$kept	" "$stem.rows" | head -3 | tr '\t\n' ' |')
		echo "$name ($when deleting /tmp/perf-$pid.map): top row $(printf '%s' "$top" | tr '\t' ' '); JIT rows: $jit"
		case $top in
		$fn"	$kept	"*) ;;
		*) fail "$name: $fn is not the top row in $kept: $(head -5 "$stem.rows")" ;;
		esac
		rm -f "/tmp/perf-$pid.map"
	done
}

cp "$ROOT/tests/hosts/jit-hot.js" .
"$P" record -o node.pct node --perf-basic-prof jit-hot.js >node.out 2>node.rec || fail "record node: $(cat node.rec)"
check node node 'JS:[*~^]hotLoopJs '*

cp "$ROOT/tests/hosts/JitHot.java" .
"$P" record -o java.pct java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit JitHot.java >java.out 2>java.rec ||
	fail "record java: $(cat java.rec)"
check java java '*JitHot.hotLoopJava'*
pass "node's hotLoopJs and the JVM's JitHot.hotLoopJava named from their perf maps, top rows, kept beside the profiles"
