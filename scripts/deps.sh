#!/bin/sh
# scripts/deps.sh [bench] - install the Debian packages pct needs that are
# missing: the build and test set, plus the peers the benchmarks compare
# with when "bench" is given.  Does nothing when all are present.
set -eu
need="libdw-dev libelf-dev libcapstone-dev zlib1g-dev libc6-dev xz-utils gzip python3 binutils"
[ "${1:-}" = bench ] && need="$need google-perftools libgoogle-perftools4 linux-perf python3-dbg"
missing=
for p in $need; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
echo "pct: installing Debian packages:$missing"
if [ "$(id -u)" -eq 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; else
	echo "pct: need root or sudo to install:$missing" >&2; exit 1
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
