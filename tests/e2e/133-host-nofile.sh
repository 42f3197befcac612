# A program that needs every descriptor its RLIMIT_NOFILE allows, with
# 1,100 threads: the per-thread perf events of -F above 250, of -g with
# them, and of -e wall each held a descriptor, unbounded, so at ulimit -n
# 1024 the program could open none (1,019 without pct).  pct now keeps no
# descriptor while it samples: each event lives on through its mapping
# (libpct(3), RESOURCES); the program opens exactly as many as without pct.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
MODES=("" "PCT_HZ=5000" "PCT_EVENT=wall" "PCT_STACK_BYTES=16384" "PCT_HZ=5000 PCT_STACK_BYTES=16384")
MODE_NAMES=(default F5000 wall g g-F5000)
PRE="ulimit -n 1024"
host_modes "1100 threads, ulimit -n 1024" "$HOSTS/host-nofile" 1100 0.3
case $(cat plain.out) in "opened 10"[0-9][0-9]" files, then: Too many open files") ;;
	*) fail "plain: $(cat plain.out)";; esac
echo "plain: $(cat plain.out)"
# every mode sampled the main thread's 0.3 s of CPU: 75 samples at 250 Hz,
# 1500 at 5 kHz (a floor of a fifth: loaded machines lose timer ticks)
for w in $SAMPLES; do
	[ "${w#*=}" -ge 15 ] || fail "${w%%=*}: only ${w#*=} samples"
done
# as an unprivileged user, whose perf mappings count against the locked
# memory limits (perf_event_mlock_kb, then RLIMIT_MEMLOCK)
if setpriv --reuid=nobody --regid=nogroup --clear-groups true 2>/dev/null; then
	chmod o+x "$SCRATCH"
	WRAP=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
	host_modes "nobody: 1100 threads, ulimit -n 1024" "$HOSTS/host-nofile" 1100 0.3
	for w in $SAMPLES; do
		[ "${w#*=}" -ge 15 ] || fail "nobody, ${w%%=*}: only ${w#*=} samples"
	done
fi
pass "1100 threads: the program's descriptors are all its own in every mode"
