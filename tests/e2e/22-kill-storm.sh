# 100 SIGKILLs at random moments (fixed seed): every profile left behind
# is readable and holds the samples taken before the kill.  A process
# killed before its first sample leaves no file, which is also fine.
. "$(dirname "$0")/lib.sh"
RANDOM=4242
files=0
for i in $(seq 100); do
	PCT=k$i.pct PCT_QUIET=1 LD_PRELOAD=$LIBPCT "$PROGS/selftime" 10 >/dev/null &
	pid=$!
	# 0 to 400 ms: before the first sample, during creation, or well after
	sleep "0.$(printf '%03d' $((RANDOM % 400)))"
	kill -KILL $pid
	wait $pid 2>/dev/null
	if [ -f k$i.pct ]; then
		files=$((files + 1))
		"$PCTBIN" report --format=tsv k$i.pct >r.tsv 2>err || fail "kill $i: unreadable profile: $(cat err)"
	fi
done
ls .pct-tmp.* 2>/dev/null && fail "temporary files left: $(ls -a)"
[ $files -ge 80 ] || fail "only $files of 100 killed runs left a profile"
total=$("$PCTBIN" report --format=tsv k*.pct | awk -F'\t' 'NR > 1 { n += $1 } END { print n }')
pass "$files profiles from 100 kills, all readable, $total samples"
