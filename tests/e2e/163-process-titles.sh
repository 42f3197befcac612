# A server that names its workers as postgres names its backends: each
# forked child writes its title over its argv strings (setproctitle's
# way).  `pct report --by=process` labelled every worker with the
# parent's command line (its fork handler copied the parent's); the
# runtime now takes the command line the process shows when it writes its
# profile and when it ends (libpct(3), FILES).  Also with $PCT alone.
. "$(dirname "$0")/lib.sh"
pad=$(printf 'x%.0s' $(seq 60))
"$PCTBIN" record -o t.pct "$HOSTS/host-title" 3 0.2 "$pad" 2>rec.err || fail "pct record: $(cat rec.err)"
"$PCTBIN" report --by=process --format=tsv t.pct >proc.tsv 2>rep.err || fail "report: $(cat rep.err)"
cat proc.tsv
for i in 1 2 3; do
	n=$(awk -F'\t' -v w="host-title: worker $i" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		index($c["command"], w) == 1 { n += $c["samples"] } END { print n + 0 }' proc.tsv)
	[ "$n" -ge 10 ] || fail "worker $i: $n samples under its own title"
done
[ "$(grep -c "host-title 3 0.2" proc.tsv)" = 1 ] || fail "not one row of the parent's command line"
rm -rf p && mkdir p
PCT="$SCRATCH/p/" LD_PRELOAD="$LIBPCT" "$HOSTS/host-title" 3 0.2 "$pad" || fail "preloaded run"
for i in 1 2 3; do
	"$PCTBIN" report --by=process --format=tsv p/*.pct 2>/dev/null | grep -q "host-title: worker $i" ||
		fail "preloaded: no worker $i"
done
pass "each worker's profile carries the title it set"
