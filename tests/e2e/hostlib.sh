# tests/e2e/hostlib.sh - sourced by the "never harm the host" tests
# (56-66) after lib.sh.
#
# host_modes NAME CMD [ARG...]: run CMD plain, then preloaded with pct in
# each mode (default, -F 5000, -e wall, -g), each in a subshell that
# first evaluates $PRE (a ulimit, say) and bounded by `timeout ${TMO:-60}`.  The
# stdout and exit status of every pct run must equal the plain run's.
# ${WRAP[@]}, if set, runs before pct's environment is set (so it is not
# profiled itself) and must exec its arguments.  $POUT is $PCT (default $SCRATCH/prof/m.pct, in a fresh directory per
# run).  Sets $SAMPLES to "mode=N ..." (samples in the profiles of each
# run) and fills $HOSTERR with each run's stderr, one file per mode.
MODES=("" "PCT_HZ=5000" "PCT_EVENT=wall" "PCT_STACK_BYTES=16384")
MODE_NAMES=(default F5000 wall g)

count_samples() {  # count_samples DIR: samples in every profile in DIR
	local n=0 f
	for f in "$1"/*.pct; do
		[ -e "$f" ] || continue
		n=$((n + $("$PCTBIN" dump "$f" 2>/dev/null | awk -F'\t' '/^#/ { next }
			!h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } { n += $c["samples"] } END { print n + 0 }')))
	done
	echo $n
}

host_modes() {
	local name=$1; shift
	local want rc i pdir
	(eval "${PRE:-}"; exec timeout ${TMO:-60} ${WRAP+"${WRAP[@]}"} "$@") >plain.out 2>plain.err; want=$?
	SAMPLES=
	for i in "${!MODES[@]}"; do
		rm -rf prof; mkdir prof; chmod 777 prof
		pdir=${POUT:-$SCRATCH/prof/m.pct}
		[ -d "$pdir" ] || pdir=$(dirname "$pdir")
		case $pdir in "$SCRATCH"/*) rm -f "$pdir"/*.pct;; *) pdir=$SCRATCH/prof;; esac
		(eval "${PRE:-}"; exec timeout ${TMO:-60} ${WRAP+"${WRAP[@]}"} env PCT="${POUT:-$SCRATCH/prof/m.pct}" LD_PRELOAD="$LIBPCT" \
			${MODES[$i]} "$@") >"mode.out" 2>"err.${MODE_NAMES[$i]}"; rc=$?
		[ "$rc" = "$want" ] ||
			fail "$name, pct ${MODE_NAMES[$i]}: exit status $rc, $want without pct: $(head -c 600 "err.${MODE_NAMES[$i]}")"
		cmp -s plain.out mode.out ||
			fail "$name, pct ${MODE_NAMES[$i]}: output differs: $(diff plain.out mode.out | head -5)"
		SAMPLES="$SAMPLES ${MODE_NAMES[$i]}=$(count_samples "$pdir")"
	done
	echo "$name: status $want and output identical in every mode; samples:$SAMPLES"
}
