# On a file system without O_TMPFILE (simulated: a seccomp filter fails
# open(O_TMPFILE) with EOPNOTSUPP), the profile is first written as
# DIR/.pct-tmp.PID, and a SIGKILL meanwhile leaves it behind.  The next
# run in that directory removes the temporaries of dead processes: only
# regular files of ours named .pct-tmp.PID whose PID is gone.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
mkdir d
dead=$(sh -c 'echo $$')
while kill -0 "$dead" 2>/dev/null; do dead=$(sh -c 'echo $$'); done
echo stale >"d/.pct-tmp.$dead"
echo live >"d/.pct-tmp.$$"                 # this shell is alive
ln -s /etc/passwd "d/.pct-tmp.$((dead + 1))"  # not a regular file
echo other >"d/.pct-tmp.${dead}x"           # not our naming
chown nobody "d/.pct-tmp.$$" 2>/dev/null && echo "ours" >"d/.pct-tmp.$((dead + 2))" &&
	chown nobody "d/.pct-tmp.$((dead + 2))"   # not ours (and dead)
WRAP=("$HOSTS/host-seccomp" notmpfile)
# (HOST_MIN: a run that took no sample, which an oversubscribed machine's
# tick can do to a short run, libpct(3), runs again a second later)
HOST_MIN=1 POUT=$SCRATCH/d/m.pct host_modes "no O_TMPFILE" "$HOSTS/host-fsize" 0.2
case "$SAMPLES" in *" default=0"*) fail "no samples: $(cat err.default)";; esac
[ ! -e "d/.pct-tmp.$dead" ] || fail "the stale temporary of dead pid $dead is still there"
[ -e "d/.pct-tmp.$$" ] && [ -L "d/.pct-tmp.$((dead + 1))" ] && [ -e "d/.pct-tmp.${dead}x" ] ||
	fail "removed a file it must keep: $(ls -a d)"
[ ! -e "d/.pct-tmp.$((dead + 2))" ] || [ "$(stat -c %U "d/.pct-tmp.$((dead + 2))")" = nobody ] ||
	fail "another user's temporary"
pass "stale temporaries of dead processes removed, nothing else: $(ls -a d | grep -c pct-tmp) kept"
