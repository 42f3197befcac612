# A program that closes stderr and opens a data file, which gets fd 2:
# pct's warnings (here: the output directory was removed, so the profile
# cannot be created) must not land in that file.  pct writes only to the
# file that was fd 2 when it started, and drops the warning otherwise.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
mkdir gone
POUT=$SCRATCH/gone/m.pct PRE="mkdir -p $SCRATCH/gone" host_modes "fd 2 reused" "$HOSTS/host-fd2" "$SCRATCH/gone"
grep -q pct: mode.out && fail "a warning in the data file: $(cat mode.out)"
# the same warning still reaches a stderr that is the original one
mkdir gone
# (the shell is not profiled: it may take a sample of its own, its first
# period being a random phase, and create the file before rmdir)
# (the warning comes with the first sample: a run that got none, which an
# oversubscribed machine's tick can do to a short run (libpct(3)), says
# nothing and is made again, three times at most)
for try in 1 2 3; do
	mkdir -p gone
	timeout 60 sh -c 'rmdir "$1"; PCT=$3 LD_PRELOAD=$4 exec "$2" 0.2' sh "$SCRATCH/gone" \
		"$HOSTS/host-fsize" "$SCRATCH/gone/m.pct" "$LIBPCT" >/dev/null 2>err || fail "host-fsize"
	[ -s err ] && break
	echo "host-fsize 0.2: no sample, no warning (run $try): again"
done
grep -q "cannot create the profile" err || fail "no warning on the original stderr: $(cat err)"
pass "warnings stay out of a data file on fd 2"
