#!/usr/bin/env bash
# tests/run.sh - run every unit test (build/tests/test_*) and every
# end-to-end test (tests/e2e/NN-*.sh), then print "N passed, N failed".
# An e2e test exits 0 (pass), 77 (skip: the machine cannot run it, with a
# reason) or anything else (fail).  Usage: tests/run.sh [PATTERN]
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PCT_BUILD:-build}          # the build to test (build-san: sanitized)
export PCT_BUILD=$build
pattern=${1:-}
pass=0 fail=0 skip=0 failed=()
unset PCT PCT_HZ PCT_SLOTS PCT_QUIET PCT_LIB

run() {
	local name=$1; shift
	local log; log=$(mktemp)
	local t0=$SECONDS
	"$@" >"$log" 2>&1
	local rc=$?
	local dt=$((SECONDS - t0))
	case $rc in
	0) pass=$((pass + 1)); printf 'PASS  %-36s %3ss\n' "$name" "$dt" ;;
	77) skip=$((skip + 1)); printf 'SKIP  %-36s %s\n' "$name" "$(grep -m1 '^SKIP' "$log")" ;;
	*) fail=$((fail + 1)); failed+=("$name"); printf 'FAIL  %-36s %3ss\n' "$name" "$dt"; sed 's/^/      /' "$log" | tail -40 ;;
	esac
	rm -f "$log"
}

for t in "$root/$build"/tests/test_*; do
	[ -x "$t" ] || continue
	[[ -n $pattern && $(basename "$t") != *$pattern* ]] && continue
	run "unit/$(basename "$t")" "$t"
done
# the fuzz target over its seeds and every regression file found so far
if [ -x "$root/$build/tests/replay" ] && [[ -z $pattern || replay == *$pattern* ]]; then
	run "unit/fuzz-replay" "$root/$build/tests/replay" "$root"/tests/fuzz/seeds/* $(ls "$root"/tests/fuzz/regressions/* 2>/dev/null)
fi
for t in "$root"/tests/e2e/[0-9]*.sh; do
	[[ -n $pattern && $(basename "$t") != *$pattern* ]] && continue
	run "e2e/$(basename "$t" .sh)" bash "$t"
done
echo
[ ${#failed[@]} -gt 0 ] && echo "failed: ${failed[*]}"
echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
