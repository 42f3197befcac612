# seccomp: a filter that kills a system call pct's handler makes would
# turn a sample into SIGSYS; strict mode kills on any of them; a
# launcher's filter against timer_create or perf_event_open would kill the
# program in pct's constructor.  A filter that kills cannot be told from
# one that does not, so pct does not start under a filter (one warning)
# unless $PCT_SECCOMP_OK=1 vouches for it, and stops sampling before the
# program installs one (prctl(2) is wrapped).  tests/progs/noperf, whose
# filter only fails perf_event_open, sets PCT_SECCOMP_OK=1 (test 40).
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
host_modes "filter installed late (kills ftruncate)" "$HOSTS/host-seccomp" late
for m in "${MODE_NAMES[@]}"; do
	[ "$(cat "err.$m")" = "pct: a seccomp filter was installed; profiling stops" ] || fail "late, $m: $(cat "err.$m")"
done
TMO=20 host_modes "strict mode" "$HOSTS/host-seccomp" strict
host_modes "launcher's filter (kills timer_create, perf_event_open)" "$HOSTS/host-seccomp" launch "$HOSTS/host-fsize" 0.2
for m in "${MODE_NAMES[@]}"; do
	grep -q "a seccomp filter is in force" "err.$m" || fail "launch, $m: $(cat "err.$m")"
done
# vouched for: sampling goes on under the filter
rm -rf prof; mkdir prof
PCT=$SCRATCH/prof/m.pct PCT_SECCOMP_OK=1 LD_PRELOAD=$LIBPCT timeout 60 "$HOSTS/host-seccomp" notmpfile \
	"$HOSTS/host-fsize" 0.2 >out 2>err || fail "PCT_SECCOMP_OK=1: $(cat err)"
[ "$(count_samples prof)" -gt 0 ] || fail "PCT_SECCOMP_OK=1: no samples: $(cat err)"
pass "no SIGSYS and no SIGKILL under seccomp"
