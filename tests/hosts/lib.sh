# tests/hosts/lib.sh - sourced by the host tests (e2e 50-66) after
# tests/e2e/lib.sh (which sets $HOSTS, the built host programs).  Gives two ways
# to run a host plain and under pct in every mode (default, -F 5000,
# -e wall, -g): same_in_every_mode through `pct record`, host_modes
# through $PCT and LD_PRELOAD (for limits and wrappers set before pct).
#
# same_in_every_mode MIN_SAMPLES COMMAND [ARG...]: run COMMAND plain, then
# under `pct record` by default, with -F 5000, -e wall and -g.  Its output,
# its own lines on stderr and its exit status must be the same in every
# mode; prints the samples pct took in each, and fails if a mode took
# fewer than MIN_SAMPLES (0: the host takes none by design), counted over
# the files of every process of the tree, in each of three runs (a run
# short of them is run again: a loaded machine loses expirations).
same_in_every_mode() {
	local min=$1; shift
	local rc_plain rc n mode i=0
	timeout 60 "$@" >plain.out 2>plain.err
	rc_plain=$?
	for mode in "" "-F 5000" "-e wall" "-g"; do
		i=$((i + 1))
		local try
		for try in 1 2 3; do
		rm -f m$i.pct m$i.*.pct
		timeout 60 "$PCTBIN" record $mode -o m$i.pct -- "$@" >m$i.out 2>m$i.err
		rc=$?
		grep -v '^pct: ' m$i.err >m$i.own
		grep '^pct: ' m$i.err >m$i.pct-said
		n=0
		for f in m$i.pct m$i.*.pct; do  # every process of the tree
			[ -f "$f" ] && n=$((n + $("$PCTBIN" report "$f" 2>/dev/null |
				sed -n 's/^# \([0-9]*\) samples.*/\1/p;T;q' | grep . || echo 0)))
		done
		echo "pct record ${mode:-(default)}: exit $rc, $n samples; pct said: $(head -c 300 m$i.pct-said | tr '\n' '|')"
		[ "$rc" = "$rc_plain" ] || fail "'$mode': exit $rc, $rc_plain without pct: $(cat m$i.out m$i.err)"
		diff plain.out m$i.out >/dev/null || fail "'$mode': the output differs: $(diff plain.out m$i.out | head -20)"
		diff plain.err m$i.own >/dev/null || fail "'$mode': stderr differs: $(diff plain.err m$i.own | head -20)"
		# a mode that took fewer than MIN samples runs again, three times
		# at most: a loaded machine loses CPU-timer expirations
		[ "$n" -ge "$min" ] && break
		[ $try = 3 ] && fail "'$mode': $n samples, want at least $min (3 runs)"
		echo "'$mode': $n samples, fewer than $min: again"
		done
	done
	echo "plain: exit $rc_plain; output: $(head -c 300 plain.out | tr '\n' '|')"
}

# host_modes NAME CMD [ARG...]: run CMD plain, then preloaded with pct in
# each mode (default, -F 5000, -e wall, -g), each in a subshell that
# first evaluates $PRE (a ulimit, say) and bounded by `timeout ${TMO:-60}`.  The
# stdout and exit status of every pct run must equal the plain run's.
# ${WRAP[@]}, if set, runs before pct's environment is set (so it is not
# profiled itself) and must exec its arguments.  $POUT is $PCT (default $SCRATCH/prof/m.pct, in a fresh directory per
# run).  Sets $SAMPLES to "mode=N ..." (samples in the profiles of each
# run) and fills $HOSTERR with each run's stderr, one file per mode.
# With HOST_PLAIN_KEEP=1 the plain run of a command is made once and kept
# for the calls that repeat it (rounds of the same host).  With HOST_MIN=N,
# a mode whose run took fewer than N samples runs again, after a pause of
# a second (five runs at most): the kernel's missed CPU timers come in
# bursts (0.2 s runs of host-fsize beside three busy loops: 12 of 60, 5 of
# 30 and 5 of 40 left no profile within a few minutes, 0 of 200 minutes
# later; e2e 66 once missed three runs in a row).
MODES=("" "PCT_HZ=5000" "PCT_EVENT=wall" "PCT_STACK_BYTES=16384")
MODE_NAMES=(default F5000 wall g)

count_samples() {  # count_samples DIR: samples in every profile in DIR
	local n=0 f
	for f in "$1"/*.pct; do
		[ -e "$f" ] || continue
		n=$((n + $("$PCTBIN" dump "$f" 2>>dump.err | awk -F'\t' '/^#/ { next }
			!h++ { for (i = 1; i <= NF; i++) c[$i] = i; next } { n += $c["samples"] } END { print n + 0 }')))
	done
	echo $n
}

host_modes() {
	local name=$1; shift
	local want rc i pdir
	# the plain run; with HOST_PLAIN_KEEP=1, once for rounds of one command
	local key="${PRE:-}|${WRAP[*]:-}|$*"
	if [ -n "${HOST_PLAIN_KEEP:-}" ] && [ "${HOST_PLAIN_KEY:-}" = "$key" ]; then
		want=$HOST_PLAIN_RC
	else
		(eval "${PRE:-}"; exec timeout ${TMO:-60} ${WRAP+"${WRAP[@]}"} "$@") >plain.out 2>plain.err; want=$?
		HOST_PLAIN_KEY=$key HOST_PLAIN_RC=$want
	fi
	SAMPLES=
	local n try
	for i in "${!MODES[@]}"; do
		for try in 1 2 3 4 5; do
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
		n=$(count_samples "$pdir")
		# with HOST_MIN, a mode that took fewer samples runs again, five
		# times at most: an oversubscribed machine's tick can miss a
		# short run's CPU-time timers (libpct(3))
		[ "${n:-0}" -ge "${HOST_MIN:-0}" ] && break
		# (again only if the runtime said nothing: a warning fails)
		grep -q '^pct: ' "err.${MODE_NAMES[$i]}" &&
			fail "$name, pct ${MODE_NAMES[$i]}: $n samples, want at least ${HOST_MIN:-0}: $(head -c 600 "err.${MODE_NAMES[$i]}")"
		[ $try = 5 ] && fail "$name, pct ${MODE_NAMES[$i]}: $n samples, want at least ${HOST_MIN:-0} (5 runs)"
		echo "$name, pct ${MODE_NAMES[$i]}: $n samples, fewer than ${HOST_MIN:-0}: again"
		sleep 1
		done
		SAMPLES="$SAMPLES ${MODE_NAMES[$i]}=$n"
	done
	echo "$name: status $want and output identical in every mode; samples:$SAMPLES"
}
