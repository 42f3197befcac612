# A process in another mount namespace keeps its names after it is gone:
# pct record -p puts its modules in the build-id cache while it runs,
# read through /proc/PID/map_files (or /proc/PID/root), because the path
# it maps names another file here.  The namespace bind-mounts a
# directory holding attach-truth over one whose prog is another build;
# after the process has ended, the report names attach-truth's work_a,
# work_b and work_c, found by build-id in the cache (the file at the path
# here has another build-id, and names nothing of them).  And record -p
# ends on SIGINT and SIGTERM, writing the profile.
# pct-test: plain (the kernel's side of attaching is its subject; 150 and 157 run the attach layer sanitized)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root for a mount namespace (unshare -m)"
command -v unshare >/dev/null || skip "no unshare (util-linux)"
mkdir -p ns here
cc -O2 -g -pthread -o ns/prog "$ROOT/tests/hosts/attach-truth.c" || fail "cc"
cc -O2 -g -o here/prog -x c - <<<'int main(void) { return 0; }' || fail "cc"
unshare -m --propagation private sh -c "mount --bind '$PWD/ns' '$PWD/here' && exec '$PWD/here/prog' 1 2.5" \
	>/dev/null 2>ready &
t=$!
wait_line ready ready || fail "the program in its namespace did not start: $(cat ready)"
[ "$(readlink /proc/$t/ns/mnt)" != "$(readlink /proc/self/ns/mnt)" ] || fail "not in another mount namespace"
ran=0
# (ended by a signal, as ^C would: SIGINT with perf, SIGTERM with ptrace;
# record writes the profile and exits 0)
for m in perf ptrace; do
	sig=INT
	[ $m = ptrace ] && sig=TERM
	"$PCTBIN" record -p $t --mechanism=$m -o $m.pct 2>$m.err &
	r=$!
	if wait_attached $m.err; then
		sleep 0.6             # the window
		kill -$sig $r
	fi
	wait $r
	rc=$?
	if [ $rc != 0 ] && refused $m.err; then
		echo "$m: $(cat $m.err)"
		continue
	fi
	[ $rc = 0 ] || fail "$m: record -p ended by SIG$sig exits $rc: $(cat $m.err)"
	grep -q "written to '$m.pct'" $m.err || fail "$m: no profile written after SIG$sig: $(cat $m.err)"
	ran=$((ran + 1))
done
wait $t
[ $ran -gt 0 ] || skip "neither mechanism can attach here"
for m in perf ptrace; do
	[ -f $m.pct ] || continue
	"$PCTBIN" report --format=tsv $m.pct >$m.tsv 2>$m.rep || fail "$m: report: $(cat $m.rep)"
	echo "$m: $(awk -F'\t' 'NR > 1 { printf "%s %s, ", $NF, $1 }' $m.tsv)"
	for f in work_a work_b work_c; do
		awk -F'\t' -v f=$f 'NR > 1 && $NF == f { n += $1 } END { exit !(n > 0) }' $m.tsv ||
			fail "$m: no samples named $f once the process is gone: $(head -5 $m.tsv) $(cat $m.rep)"
	done
	# and without the cache, the names are lost (the file here is another)
	PCT_CACHE=0 "$PCTBIN" report --format=tsv $m.pct 2>/dev/null | grep -q 'work_a' &&
		fail "$m: work_a named without the cache: the test proves nothing"
done
pass "a process in another mount namespace keeps its names through the build-id cache"
