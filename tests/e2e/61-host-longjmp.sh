# A program whose SIGALRM handler (every 100 us) siglongjmps out of
# whatever ran, pct's handler included.  If that happens while pct holds
# a lock (creating the file, adding a module), the lock stays held and the
# next sample waits for ever; the program spins 50 ms after its last jump
# so that nothing ends such a wait.  pct blocks every signal while it
# holds a lock, and while it drains a perf ring buffer (a flag left set
# there stopped all later samples: 0 samples with -F 5000).  Before the fix, 2 of 10 runs hung with -F 5000 and with
# -e wall.  With pct's handler also blocking every signal, 600 runs passed;
# then one default-mode run in about 2,000 hung, and one in about 500
# crashed, on a loaded machine: the host armed its alarm before sigsetjmp,
# and an alarm in between (pct's first sample, which creates the file,
# widens that window) jumped to an empty buffer or, inside sigsetjmp before
# it saved the mask, left SIGALRM blocked.  The host now sets the target
# first; 3,000 loaded runs then passed.  make check-full: 25 rounds of the
# four modes, 100 runs, 300,000 siglongjmps; make check: 12 rounds, 48
# runs (a fault that hung 2 runs of 10 is missed by a mode's 12 with a
# probability of 0.8^12 = 7%, by all four of them 2e-5).
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
TMO=20
HOST_PLAIN_KEEP=1   # the plain run once: it does not change between rounds
rounds=$(full_or 25 12)
for r in $(seq "$rounds"); do
	host_modes "round $r" "$HOSTS/host-longjmp" 3000 >round.log || exit 1
	tail -1 round.log
	case "$SAMPLES " in *"=0 "*) fail "round $r: a mode took no samples (a flag left set?):$SAMPLES";; esac
done
pass "$((4 * rounds)) runs under pct ($rounds rounds of 4 modes) with 3000 siglongjmps each, none hung"
