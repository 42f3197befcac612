# A program that needs every descriptor its RLIMIT_NOFILE allows, with
# 1,100 threads: the per-thread perf events of -F above 250, of -g with
# them, and of -e wall each held a descriptor, unbounded, so at ulimit -n
# 1024 the program could open none (1,019 without pct).  pct now keeps no
# descriptor while it samples: each event lives on through its mapping
# (libpct(3), RESOURCES); the program opens exactly as many as without pct.
# Where a mapping is refused (an unprivileged user's locked-memory budget,
# shared with every process of the user), the descriptor kept instead lies
# above the soft limit, out of the program's reach (before, up to 64 were
# kept at the top of its table: as nobody with -F 5000, 1,016 or fewer
# files whenever other processes of nobody held perf mappings); so the
# unprivileged rounds run with the hard limit above the soft one, as
# systemd sets them (1024 and 524288), and with the two equal.
# pct-test: alone (it spends the locked-memory budget of the user nobody, which every test running as nobody shares)
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
	# the user's budget of locked memory spent by another of its
	# processes (perf-eat), so that every perf mapping is refused
	"${WRAP[@]}" "$HOSTS/perf-eat" 120 >eat.out & eater=$!
	for i in $(seq 100); do grep -q mapped eat.out && break; sleep 0.1; done
	grep -q mapped eat.out || fail "perf-eat did not start"
	echo "perf-eat: $(cat eat.out)"
	for PRE in "ulimit -S -n 1024; ulimit -H -n 4096" "ulimit -n 1024"; do
		host_modes "nobody, no locked memory left, $PRE: 1100 threads" "$HOSTS/host-nofile" 1100 0.3
		for m in "${MODE_NAMES[@]}"; do
			n=$(echo "$SAMPLES" | tr ' ' '\n' | sed -n "s/^$m=//p")
			# sampled through descriptors above the soft limit, or with
			# the two limits equal, warned of as not sampled
			[ "$n" -ge 15 ] || grep -q 'no locked memory' "err.$m" ||
				fail "nobody, $PRE, $m: $n samples and no warning: $(cat "err.$m")"
		done
	done
	kill $eater; wait $eater 2>/dev/null
fi
pass "1100 threads: the program's descriptors are all its own in every mode"
