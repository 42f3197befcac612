# 100 SIGKILLs at random moments (fixed seed): every profile left behind
# is readable and holds the samples taken before the kill.  A process
# killed before its first sample leaves no file, which is also fine.
# The moments are of the process's own CPU time (/proc/PID/schedstat, in
# ns), 0 to 100 ms: before the first sample (a random phase in the first
# 4 ms), during the file's creation, or well after; in CPU time, so that
# a loaded machine, which stretches wall-clock time, moves none of them.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
RANDOM=4242
files=0
# a descriptor no one writes to, for read -t as a sleep without a fork
exec {idle}<> <(:)
for i in $(seq 100); do
	at=$(( (RANDOM % 2000) * 50000 ))   # 0 to 100 ms, in ns
	PCT=k$i.pct PCT_QUIET=1 LD_PRELOAD=$LIBPCT "$PROGS/selftime" 10 >/dev/null &
	pid=$!
	# poll every 0.5 ms (no fork: read is a builtin), for 30 s at most
	for ((k = 0; k < 60000; k++)); do
		read -r c _ 2>/dev/null <"/proc/$pid/schedstat" || break
		[ "$c" -ge "$at" ] && break
		read -r -t 0.0005 -u "$idle" _
	done
	kill -KILL $pid
	wait $pid 2>/dev/null
	if [ -f k$i.pct ]; then
		files=$((files + 1))
		"$PCTBIN" report --format=tsv k$i.pct >r.tsv 2>err || fail "kill $i: unreadable profile: $(cat err)"
	fi
done
ls .pct-tmp.* 2>/dev/null && fail "temporary files left: $(ls -a)"
# a kill in the first few ms of CPU time (the loader, pct's start and the
# first period's random phase) leaves no file: about 1 in 20 moments;
# fewer than 80 files of 100 is then beyond any chance (binomial)
[ $files -ge 80 ] || fail "only $files of 100 killed runs left a profile"
total=$(samples_in k*.pct)
pass "$files profiles from 100 kills, all readable, $total samples"
