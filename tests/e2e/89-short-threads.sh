# Threads shorter than one period are sampled in proportion to their CPU
# time with perf events (-F above 250, -e user): each thread's first period
# is a uniformly random phase, ended by a one-shot task-clock event.  2000
# threads of 0.5 ms each do half the work; before, their function got 0
# samples and main's about 80%.  (The default CPU timers start at a random
# phase too, but the kernel checks them only at its tick, so threads
# shorter than a tick stay undersampled there: libpct(3).)
# pct-test: timing plain (a rate or CPU-time measurement of the uninstrumented runtime)
. "$(dirname "$0")/lib.sh"
for hz in 1000 250; do
	ev=cpu; [ $hz = 250 ] && ev=user
	"$PCTBIN" record -e $ev -F $hz -o st$hz.pct "$PROGS/shortthreads" 2000 0.5 >truth$hz.tsv 2>err || fail "record -F $hz: $(cat err)"
	grep -q "perf_event_open was refused" err && skip "perf_event_open refused here: $(cat err)"
	"$PCTBIN" report --format=tsv st$hz.pct >report$hz.tsv || fail "report -F $hz"
	echo "-F $hz:"
	# the share is the claim; for the counts, the period that makes the
	# two functions' samples their true CPU time together (on a loaded
	# machine CPU timers lose expirations, and the process's CPU time
	# holds thread creation besides the two functions: both would move a
	# period measured over the whole process)
	period=$(awk -F'\t' 'NR == FNR { t += $2; f[$1] = 1; next } FNR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		($c["function"] in f) { n += $c["samples"] } END { if (n) printf "%.6f", t / 1e9 / n; else print 1 }' truth$hz.tsv report$hz.tsv)
	check_truth truth$hz.tsv report$hz.tsv "$period" || fail "-F $hz: short threads' share disagrees with their CPU time"
done
pass "2000 threads of 0.5 ms sampled in proportion to their CPU time at 1 kHz and with -e user at 250 Hz"
