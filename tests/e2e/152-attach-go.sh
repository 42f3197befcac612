# A static Go program (CGO_ENABLED=0: no PT_INTERP, the runtime cannot
# enter it) under pct record: sampled from outside with each mechanism,
# its exit status (3) kept, and its three goroutines' functions (each
# goroutine locked to its OS thread, timing its turns with
# CLOCK_THREAD_CPUTIME_ID) match its clocks.
# pct-test: timing plain (its shares are of CPU time; the kernel's side of attaching is its subject; 150 and 157 run the attach layer sanitized)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/attach-lib.sh"
command -v go >/dev/null || skip "no go (scripts/deps.sh installs golang-go)"
mkdir -p "$ROOT/$B/gocache"
export HOME=$SCRATCH GOPATH=$SCRATCH/gopath GOCACHE=$ROOT/$B/gocache GO111MODULE=off GOFLAGS= CGO_ENABLED=0
cp "$ROOT/tests/hosts/attach-go.go" .
timeout 300 go build -o attach-go attach-go.go 2>build.err || fail "cannot build the Go program: $(cat build.err)"
readelf -lW attach-go | grep -q INTERP && fail "the Go program has a PT_INTERP: not static"
ran=0
for m in perf ptrace; do
	dur=1.5
	while :; do
		"$PCTBIN" record --mechanism=$m -o $m.pct ./attach-go $dur >log-$m.tsv 2>$m.err
		rc=$?
		if [ $rc != 3 ] && refused $m.err; then
			echo "$m: $(cat $m.err)"
			continue 2
		fi
		[ $rc = 3 ] || fail "$m: exit status $rc, not the program's 3: $(cat $m.err)"
		grep -q "is a static executable.*from outside with the $m mechanism" $m.err ||
			fail "$m: record does not say it samples from outside: $(cat $m.err)"
		"$PCTBIN" report --format=tsv $m.pct >$m.tsv || fail "$m: report"
		all_truth log-$m.tsv >truth-$m.tsv
		n=$(measured_samples truth-$m.tsv $m.tsv)
		[ "$n" -lt "${TRUTH_MIN:-200}" ] && [ "${dur%.*}" -lt $LONGEST_RUN ] &&
			{ echo "$m: $n samples in $dur s: again for twice as long"; dur=$(awk -v d=$dur 'BEGIN { print 2 * d }'); continue; }
		break
	done
	echo "== $m"
	check_truth truth-$m.tsv $m.tsv "$(taken_period $m.pct)" || fail "$m: the shares disagree with the Go program's clocks"
	ran=$((ran + 1))
done
[ $ran -gt 0 ] || skip "neither mechanism can sample here"
pass "$ran mechanisms: a static Go program sampled from outside, status kept, its clocks matched"
