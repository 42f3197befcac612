# The live profile truncated under the program (`: > FILE`, cp /dev/null,
# rsync --inplace, logrotate's copytruncate): pct's next write to its
# mapping would raise SIGBUS, which killed the program in every mode.  pct
# takes a SIGBUS in its own mapping as its own: the program runs on, with
# one warning, and its own SIGBUS handling is exactly as without pct: its
# handler sees its own faults and its own disposition, a fault without a
# handler kills it with SIGBUS, an ignored raise(SIGBUS) is ignored and a
# default one kills; a program that blocks every signal (SIGBUS too) runs
# on as well.  The host truncates its own profile ($PCT) once the
# first sample made it, then burns 0.3 s more (libpct(3), RESOURCES).
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
for how in own dfl ign raise blocked ""; do
	host_modes "truncated profile, SIGBUS $how" "$HOSTS/host-truncate" 0.3 $how
	for m in "${MODE_NAMES[@]}"; do
		[ "$(grep -c 'truncated the profile' "err.$m")" = 1 ] ||
			fail "$how, $m: not one warning of the truncation: $(cat "err.$m")"
		grep -v '^pct: ' "err.$m" >own.err
		grep -v '^pct: ' plain.err | cmp -s - own.err || fail "$how, $m: stderr differs: $(cat "err.$m")"
	done
done
case $(cat plain.out) in done) ;; *) fail "plain: $(cat plain.out)";; esac
# the same through pct record (its own name for the file)
same_in_every_mode 0 "$HOSTS/host-truncate" 0.3 own
pass "a truncated profile never kills the program; its own SIGBUS is its own"
