#!/bin/sh
# scripts/deps.sh [bench] - install the Debian packages pct needs that are
# missing: the build and test set, plus the peers the benchmarks compare
# with when "bench" is given.  Does nothing when all are present.
set -eu
# the build, then the peers the tests run: gprof (binutils), google-pprof,
# callgrind_annotate (valgrind), protoc and headless chromium
need="libdw-dev libdebuginfod-dev libelf-dev libcapstone-dev libiberty-dev libarchive-dev zlib1g-dev libprotobuf-c-dev protobuf-c-compiler golang-github-google-pprof-dev libc6-dev xz-utils gzip python3 binutils clang util-linux"
need="$need google-perftools valgrind protobuf-compiler chromium"
# pkg-config, to build against the installed libpct.pc (e2e 114)
need="$need pkgconf"
# the Go toolchain for the Go host test (e2e 54); perf, the reference of
# the xz comparison (e2e 87)
need="$need golang-go linux-perf"
# ncurses for pct top's screen, tmux to test it (e2e 107)
need="$need libncurses-dev tmux"
# Debian's debuginfod server, serving a test build by build-id (e2e 103)
need="$need debuginfod"
# the Debian package build and its check (e2e 119, make check-package)
need="$need debhelper dpkg-dev lintian fakeroot"
# what the tests would otherwise install themselves while other tests run
# (tests/run.sh -j): glibc's debug files (e2e 17), the aarch64 cross tools
# and qemu-user (e2e 116), musl (e2e 117), gdb (e2e 129)
need="$need libc6-dbg gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user musl-tools gdb"
# g++ for the multi-threaded C++ program, libopenh264's nasm kernels
# (exported untyped), numpy in a venv, and gcc's cc1 as real programs
# against perf (e2e 140-148)
need="$need g++ libopenh264-7 gcc python3-numpy python3-venv"
[ "${1:-}" = bench ] && need="$need libgoogle-perftools4 python3-dbg"
missing=
for p in $need; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed$' || missing="$missing $p"
done
# npm fetches speedscope from the npm registry for its test; any npm will
# do (Debian's package, or one that came with another nodejs)
command -v npm >/dev/null || missing="$missing npm"
# a JVM and node as host programs (e2e 69); any java and node will do
command -v java >/dev/null || missing="$missing default-jre-headless"
command -v node >/dev/null || missing="$missing nodejs"
if [ "$(id -u)" -eq 0 ]; then sudo=; elif command -v sudo >/dev/null; then sudo=sudo; else sudo=false; fi
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	echo "pct: installing Debian packages:$missing"
	[ "$sudo" = false ] && { echo "pct: need root or sudo to install:$missing" >&2; exit 1; }
	$sudo apt-get update -qq
	$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# libFuzzer and the sanitizer runtimes ship apart from clang itself
fuzz_ok() { echo 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }' |
	clang -x c -fsanitize=fuzzer,address,undefined -o /dev/null - >/dev/null 2>&1; }
if command -v clang >/dev/null && ! fuzz_ok; then
	v=$(clang --version | sed -n 's/.*version \([0-9]*\).*/\1/p' | head -1)
	echo "pct: installing libclang-rt-$v-dev (libFuzzer)"
	$sudo apt-get install -y -qq --no-install-recommends "libclang-rt-$v-dev" >/dev/null
fi
