# Go's runtime installs a handler for every signal (SIGSTKFLT throws) and
# wants SA_ONSTACK on others' handlers: `go build` (Debian's dynamically
# linked /usr/bin/go) and a cgo program run as without pct, and are
# profiled.  Go's threads begin with every signal blocked and unblock them
# with a raw system call, so pct samples the main thread only (libpct(3)).
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
grep -q "(go), [1-9][0-9]* samples" m1.pct-said || fail "go itself took no samples: $(cat m1.pct-said)"
[ "$(cat plain.out)" = "hello from go" ] || fail "go build itself: $(cat plain.out plain.err)"
timeout 300 go build -o cgo cgo.go || fail "cannot build the cgo program"
same_in_every_mode 10 ./cgo 100000000
[ "$(cat plain.out)" = "done false" ] || fail "the cgo program itself: $(cat plain.out plain.err)"
pass "go build and a cgo program run as without pct"
