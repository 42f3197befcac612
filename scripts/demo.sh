#!/bin/sh
# scripts/demo.sh - profile a real program: xz -9 over a few MB of
# generated text, then print the flat profile by module and by function.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
dir=$(mktemp -d /tmp/pct-demo.XXXXXX)
cd "$dir"
awk 'BEGIN { srand(1); for (i = 0; i < 150000; i++) printf "%d %x the quick brown fox %s\n", i, int(rand() * 2^31), (rand() < .5 ? "jumps" : "naps") }' >data.txt
echo "\$ pct record xz -9 -T1 -k data.txt        (in $dir)"
"$root/build/bin/pct" record xz -9 -T1 -k data.txt
echo
echo "\$ pct report --by=module xz.pct"
"$root/build/bin/pct" report --by=module xz.pct
echo
echo "\$ pct report -n 12 xz.pct"
"$root/build/bin/pct" report -n 12 xz.pct
