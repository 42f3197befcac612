# Go's runtime installs a handler for every signal (SIGSTKFLT throws) and
# wants SA_ONSTACK on others' handlers: `go build` (Debian's dynamically
# linked /usr/bin/go) and a cgo program run as without pct, and are
# profiled.  Go's threads begin with every signal blocked (pthread_sigmask
# around pthread_create, in cgo's runtime): pct's signal stays open in the
# kernel's mask, so the goroutines' threads are sampled too.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
command -v go >/dev/null || skip "no go (scripts/deps.sh installs golang-go)"
ldd "$(command -v go)" 2>/dev/null | grep -q libc || skip "this go is linked statically: nothing to preload"
export HOME=$SCRATCH GOPATH=$SCRATCH/gopath GOCACHE=$SCRATCH/cache GO111MODULE=off GOFLAGS= CGO_ENABLED=1
cp "$ROOT/tests/hosts/hello.go" "$ROOT/tests/hosts/cgo.go" .
# a build from an empty cache each time, then the program built
printf '#!/bin/sh\nrm -rf "$GOCACHE" hello\ngo build -o hello hello.go && ./hello\n' >gobuild.sh
chmod +x gobuild.sh
same_in_every_mode 1 ./gobuild.sh
# record folds the tree into m1.pct: go's own row of --by=process
"$PCTBIN" report --by=process --format=tsv m1.pct >proc.tsv || fail "report --by=process m1.pct"
awk -F'\t' 'NR > 1 && $NF ~ /^go / && $1 > 0 { f = 1 } END { exit !f }' proc.tsv ||
	fail "go itself took no samples: $(cat proc.tsv m1.pct-said)"
[ "$(cat plain.out)" = "hello from go" ] || fail "go build itself: $(cat plain.out plain.err)"
timeout 300 go build -o cgo cgo.go || fail "cannot build the cgo program"
same_in_every_mode 10 ./cgo 100000000
[ "$(cat plain.out)" = "done true" ] || fail "the cgo program itself: $(cat plain.out plain.err)"
# its two goroutines burn at once, so at least two threads hold a fair
# part of the samples (each a third of the work)
"$PCTBIN" report --by=thread --format=tsv m1.pct >thr.tsv || fail "report by thread"
busy=$(awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next } $k["percent"] >= 15 { n++ } END { print n + 0 }' thr.tsv)
echo "cgo: $busy threads with at least 15% of the samples: $(cut -f1,3,9- thr.tsv | tr '\n\t' '| ')"
[ "$busy" -ge 2 ] || fail "Go's own threads are not sampled: $(cat thr.tsv)"
pass "go build and a cgo program run as without pct"
