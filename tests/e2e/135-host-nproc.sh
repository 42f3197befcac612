# A program that makes as many processes or threads as RLIMIT_NPROC
# allows (it counts every thread of the user): under -e wall each process
# of the tree has one more thread, pct's sampler, so at ulimit -u 40 10 of
# 30 forks failed, and 1 of 39 threads.  When such a call fails with
# EAGAIN, the samplers of the fork tree make way and the call is made
# again (libpct(3), RESOURCES), and again while a sampler of the tree
# may still hold a slot: under a loaded suite the samplers' next passes
# were tens of ms away and only the first failure was made again (23 of
# 30); samplers at 5 Hz, which end up to 200 ms after the stop, stand for
# that here (before: 24 of 30).  Run as nobody, whose processes are this
# test's alone (root is not held to the limit).
# pct-test: alone (RLIMIT_NPROC counts every process of the user nobody, those of other tests too)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null || skip "no setpriv to run as nobody"
[ "$(ps -u nobody -o pid= | wc -l)" = 0 ] || skip "nobody runs processes here: $(ps -u nobody -o comm= | head -3 | tr '\n' ' ')"
chmod o+x "$SCRATCH"
WRAP=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
PRE="ulimit -u 40"
host_modes "30 children at ulimit -u 40" "$HOSTS/host-nproc" 30 fork
[ "$(cat plain.out)" = "30 of 30 children" ] || fail "plain: $(cat plain.out)"
[ "$(grep -c 'process slots (ulimit -u)' err.wall)" = 1 ] || fail "wall: not one warning: $(cat err.wall)"
saved=("${MODES[@]}") saved_names=("${MODE_NAMES[@]}")
MODES=("PCT_EVENT=wall PCT_HZ=5") MODE_NAMES=(wall5)
host_modes "30 children at ulimit -u 40, 5 Hz" "$HOSTS/host-nproc" 30 fork
MODES=("${saved[@]}") MODE_NAMES=("${saved_names[@]}")
[ "$(grep -c 'process slots (ulimit -u)' err.wall5)" = 1 ] || fail "wall at 5 Hz: not one warning: $(cat err.wall5)"
host_modes "39 threads at ulimit -u 40" "$HOSTS/host-nproc" 39 thread
[ "$(cat plain.out)" = "39 of 39 threads" ] || fail "plain: $(cat plain.out)"
pass "the program makes as many processes and threads as without pct, samplers at 5 Hz too"
