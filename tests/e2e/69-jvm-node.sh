# Real runtimes as hosts: a JVM whose four threads compute, make the
# collector run and throw exceptions (NullPointerExceptions come from the
# JVM's own SIGSEGV handler), and node with two worker_threads.  Each runs
# plain and under pct in every mode with identical output, stderr and
# status, and every thread that works is sampled.  scripts/deps.sh installs
# a JRE (whose jdk.compiler runs the source file) and nodejs.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
command -v java >/dev/null || fail "no java (scripts/deps.sh installs default-jre-headless)"
command -v node >/dev/null || fail "no node (scripts/deps.sh installs nodejs)"
export HOME=$SCRATCH JAVA_TOOL_OPTIONS= _JAVA_OPTIONS=
# threads with at least PCT percent of m1.pct's samples (the default mode)
busy_threads() {
	"$PCTBIN" report --by=thread --format=tsv m1.pct >thr.tsv || fail "report by thread"
	awk -F'\t' -v p="$1" 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
		$k["percent"] >= p { n++ } END { print n + 0 }' thr.tsv
}
cp "$ROOT/tests/hosts/JvmHost.java" .
# compiled once (the JRE's own jdk.compiler: no javac command in a JRE),
# rather than by the source launcher in each of the five runs (2 s of CPU
# each)
java -m jdk.compiler/com.sun.tools.javac.Main -d . JvmHost.java || fail "cannot compile JvmHost.java"
same_in_every_mode 100 java -Xmx128m -cp . JvmHost 1000
[ "$(grep -c '^worker [0-3]: [0-9]*$' plain.out)" = 4 ] || fail "the JVM host itself: $(cat plain.out plain.err)"
busy_threads 0 >/dev/null
n=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["thread"] ~ /^worker-[0-3]$/ && $k["samples"] >= 15 { n++ } END { print n + 0 }' thr.tsv)
echo "JVM: $n of its 4 worker threads with at least 15 samples: $(cut -f1,3,9- thr.tsv | head -8 | tr '\n\t' '| ')"
[ "$n" = 4 ] || fail "the JVM's worker threads are not all sampled: $(cat thr.tsv)"
same_in_every_mode 30 node "$ROOT/tests/hosts/node-workers.js" 30000000
[ "$(grep -c '^worker [01]: [0-9]*$' plain.out)" = 2 ] || fail "the node host itself: $(cat plain.out plain.err)"
n=$(busy_threads 15)
echo "node: $n threads with at least 15% of the samples: $(cut -f1,3,9- thr.tsv | head -6 | tr '\n\t' '| ')"
[ "$n" -ge 2 ] || fail "node's worker threads are not sampled: $(cat thr.tsv)"
pass "a JVM and node with worker threads run as without pct, every working thread sampled"
