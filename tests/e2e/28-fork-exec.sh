# A process tree: the parent, a forked child, and the program the child
# execs each write their own profile while they run; record folds them
# into fe.pct (pct(5), "Tree files"), attributable by pid and command;
# report sums them or splits them by process.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
export XDG_CACHE_HOME=$SCRATCH/cache
# (run again, up to 4 times, while a process took fewer than the 20
# samples below: a loaded machine loses CPU-timer expirations)
for try in 1 2 3 4; do
rm -f ./*.pct
"$PCTBIN" record -o fe.pct "$PROGS/forkexec" 2>err || fail "forkexec failed under record: $(cat err)"
cat err
[ "$(ls | grep -c '\.pct$')" = 1 ] || fail "expected fe.pct alone, the tree folded into it: $(ls)"
grep -q "^pct: 3 processes, [0-9]* samples, written to 'fe.pct' as one process tree$" err ||
	fail "record does not sum up the three processes: $(cat err)"
# each process burns 0.3 s in its own function: about 75 samples at 250
# Hz, fewer on an oversubscribed machine, where the kernel's CPU-time
# timers lose expirations (30-38 seen, before this change too; issue 15).
# So: at least 20, and the process's own function holds most of them (the
# rest is the burn loop's clock_gettime).
"$PCTBIN" report --split=process --format=tsv fe.pct >split.tsv || fail "report --split=process fe.pct"
cat split.tsv
# fn_pid FUNCTION: the pid of the process (pid and command) that has most
# of its samples in FUNCTION (at least 20), or nothing
fn_pid() { awk -F'\t' -v f="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ k = $c["pid"] "\t" $c["command"]; t[k] += $1 } $c["function"] == f { n[k] += $1 }
	END { for (k in n) if (n[k] >= 20 && n[k] >= 0.7 * t[k]) { split(k, a, "\t"); print a[1] } }' split.tsv; }
p0=$(fn_pid parent_work) p1=$(fn_pid child_work) p2=$(fn_pid exec_work)
[ -n "$p0" ] && [ -n "$p1" ] && [ -n "$p2" ] && break
echo "try $try: too few samples in a process; again"
done
[ -n "$p0" ] || fail "parent_work missing from the parent"
[ -n "$p1" ] && [ -n "$p2" ] || fail "too few samples in the child or the exec'd program"
# pids: the parent's differs from the child's; exec keeps the child's pid
[ "$p0" != "$p1" ] && [ "$p1" = "$p2" ] || fail "pids: parent $p0, child $p1, exec'd $p2"
# split by process: two pids; summed: all three functions in one report
"$PCTBIN" report --by=process --format=tsv fe.pct >proc.tsv
[ "$(cut -f8 proc.tsv | grep -v '^pid' | sort -u | wc -l)" = 2 ] || fail "process view: $(cat proc.tsv)"
"$PCTBIN" report fe.pct | grep -q "3 files summed" || fail "summing the tree"
"$PCTBIN" report --format=tsv fe.pct >all.tsv
for f in parent_work child_work exec_work; do grep -q $'\t'"$f"'$' all.tsv || fail "$f missing from the sum"; done
pass "fork + exec: 3 profiles in fe.pct, pids $p0 and $p1, every function present"
