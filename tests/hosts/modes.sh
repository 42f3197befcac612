# tests/hosts/modes.sh - sourced by the e2e tests 50-55 after lib.sh.
# same_in_every_mode MIN_SAMPLES COMMAND [ARG...]: run COMMAND plain, then
# under `pct record` by default, with -F 5000, -e wall and -g.  Its output,
# its own lines on stderr and its exit status must be the same in every
# mode; prints the samples pct took in each, and fails if a mode took
# fewer than MIN_SAMPLES (0: the host takes none by design), counted over
# the files of every process of the tree.
HOSTS=$ROOT/$B/tests/hosts
same_in_every_mode() {
	local min=$1; shift
	local rc_plain rc n mode i=0
	timeout 60 "$@" >plain.out 2>plain.err
	rc_plain=$?
	for mode in "" "-F 5000" "-e wall" "-g"; do
		i=$((i + 1))
		rm -f m$i.pct m$i.*.pct
		timeout 60 "$PCTBIN" record $mode -o m$i.pct -- "$@" >m$i.out 2>m$i.err
		rc=$?
		grep -v '^pct: ' m$i.err >m$i.own
		grep '^pct: ' m$i.err >m$i.pct-said
		n=0
		for f in m$i.pct m$i.*.pct; do  # every process of the tree
			[ -f "$f" ] && n=$((n + $("$PCTBIN" report "$f" 2>/dev/null |
				sed -n 's/^# \([0-9]*\) samples.*/\1/p')))
		done
		echo "pct record ${mode:-(default)}: exit $rc, $n samples; pct said: $(head -c 300 m$i.pct-said | tr '\n' '|')"
		[ "$rc" = "$rc_plain" ] || fail "'$mode': exit $rc, $rc_plain without pct: $(cat m$i.out m$i.err)"
		diff plain.out m$i.out >/dev/null || fail "'$mode': the output differs: $(diff plain.out m$i.out | head -20)"
		diff plain.err m$i.own >/dev/null || fail "'$mode': stderr differs: $(diff plain.err m$i.own | head -20)"
		[ "$n" -ge "$min" ] || fail "'$mode': $n samples, want at least $min"
	done
	echo "plain: exit $rc_plain; output: $(head -c 300 plain.out | tr '\n' '|')"
}
