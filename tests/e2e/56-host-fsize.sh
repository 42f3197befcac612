# A file size limit (ulimit -f 1000: 1,024,000 bytes) that the program
# lives within: pct's profile (41 MB, 108 MB with -g) must not raise
# SIGXFSZ, which kills.  pct shrinks the file to fit (a smaller tick log and
# bucket table, fewer table slots, a
# smaller stack area) and samples on.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
PRE="ulimit -f 1000"
host_modes "ulimit -f 1000" "$HOSTS/host-fsize" 0.3
for m in default g; do
	grep -q "made smaller to fit" "err.$m" || fail "$m: no note of the smaller file: $(cat "err.$m")"
done
# the default run's file is within the limit and readable
rm -rf prof; mkdir prof
(ulimit -f 1000; PCT=$SCRATCH/prof/m.pct LD_PRELOAD=$LIBPCT timeout 60 "$HOSTS/host-fsize" 0.3) >/dev/null 2>&1
size=$(stat -c %s prof/m.pct) || fail "no profile within the limit"
[ "$size" -le 1024000 ] || fail "profile of $size bytes, over the limit"
"$PCTBIN" report prof/m.pct | grep -q burn || fail "profile within the limit: no samples in burn"
pass "ulimit -f 1000: no SIGXFSZ; a $size-byte profile"
