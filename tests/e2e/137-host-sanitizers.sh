# Sanitized builds under pct, in every mode: a clang -fsanitize=thread
# program crashed at its first pthread_create under -g (pct's new-thread
# setup called pthread_getattr_np and free before TSan had set the thread
# up), and a gcc -fsanitize=address program did not run under pct record
# at all ("ASan runtime does not come first"), even with libasan preloaded
# by the user.  Both must run as without pct, and be profiled.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
src=$ROOT/tests/hosts/sanitized.c
hot_samples() {  # hot_samples FILE...: samples in hot() over the files
	local n=0 f
	for f in "$@"; do
		[ -f "$f" ] || continue
		n=$((n + $("$PCTBIN" report --format=tsv "$f" 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
			$c["function"] == "hot" { n += $c["samples"] } END { print n + 0 }')))
	done
	echo $n
}
built=0
if clang -fsanitize=thread -g -O1 -pthread -o tsan "$src" 2>tsan.err && ./tsan 0.01 >/dev/null 2>&1; then
	built=$((built + 1))
	same_in_every_mode 30 ./tsan 0.3
	# 0.6 s of CPU in hot: 150 samples at 250 Hz, 3000 at 5 kHz (floors of
	# a fifth: a loaded machine loses timer expirations)
	for i in 1 2 3 4; do
		n=$(hot_samples m$i.pct m$i.*.pct)
		[ "$n" -ge 30 ] || fail "TSan, mode $i: $n samples in hot"
		echo "TSan, mode $i: $n samples in hot"
	done
else
	echo "clang cannot build a TSan program here: $(head -c 300 tsan.err)"
fi
if gcc -fsanitize=address -g -O1 -pthread -o asan "$src" 2>asan.err && ./asan 0.01 >/dev/null 2>&1; then
	built=$((built + 1))
	same_in_every_mode 30 ./asan 0.3
	for i in 1 2 3 4; do
		n=$(hot_samples m$i.pct m$i.*.pct)
		[ "$n" -ge 30 ] || fail "ASan, mode $i: $n samples in hot"
		echo "ASan, mode $i: $n samples in hot"
	done
	lib=$(gcc -print-file-name=libasan.so)
	LD_PRELOAD=$lib same_in_every_mode 30 ./asan 0.3
else
	echo "gcc cannot build an ASan program here: $(head -c 300 asan.err)"
fi
[ "$built" = 2 ] || fail "only $built of the 2 sanitized programs could be built (scripts/deps.sh installs clang's and gcc's runtimes)"
pass "TSan and ASan programs run and are profiled in every mode"
