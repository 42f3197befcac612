# Every way a program can end abnormally leaves a valid profile holding
# the samples taken before: SIGSEGV, abort(), _exit() (no atexit, no
# destructors) and exec (the image is replaced).  SIGKILL, which the OOM
# killer also sends, is tests 06 and 22.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
ulimit -c 0
for how in segv abort _exit exec; do
	ms=400
	# 400 ms of CPU at 250 Hz: about 100 samples; a loaded machine loses
	# CPU-timer expirations (46 seen with two busy loops; issue 15), and
	# what this tests is that the samples taken are kept: at least 25 in
	# burn, the run made longer (up to 3.2 s) until they are there
	while :; do
	rm -f $how.pct $how.tsv
	PCT=$how.pct LD_PRELOAD=$LIBPCT "$PROGS/die" $ms $how >/dev/null 2>$how.err
	rc=$?
	case $how in
	segv) [ $rc -eq 139 ] || fail "segv: status $rc" ;;
	abort) [ $rc -eq 134 ] || fail "abort: status $rc" ;;
	_exit) [ $rc -eq 7 ] || fail "_exit: status $rc" ;;
	exec) [ $rc -eq 0 ] || fail "exec: status $rc" ;;
	esac
	# no profile at all: no CPU-timer expiration was delivered (the
	# kernel checks them at a tick that finds the thread running, which
	# an oversubscribed machine can miss for a whole short run:
	# libpct(3)), the same as too few samples
	n=0
	if [ -e $how.pct ] || [ -n "$(cat $how.err)" ]; then
		"$PCTBIN" report --format=tsv $how.pct >$how.tsv 2>err || fail "$how: unreadable: $(cat err); the runtime said: $(cat -v $how.err)"
		n=$(awk -F'\t' '$9 == "burn" { print $1 }' $how.tsv)
	fi
	[ "${n:-0}" -ge 25 ] && break
	[ $ms -lt 3200 ] || { [ -e $how.pct ] || fail "$how: no profile in any run (the runtime said nothing), the last of $ms ms"
		fail "$how: only ${n:-0} samples in burn after $ms ms: $(cat $how.tsv)"; }
	ms=$((ms * 2))
	done
	echo "$how: status $rc, $n samples in burn ($ms ms)"
done
pass "abnormal ends keep their samples"
