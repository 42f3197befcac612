# pct record -o SHARED/rec.pct lists only the profiles its own run wrote:
# a FIFO named like a child's profile does not hang it; profiles planted
# by user nobody (dated in the future), an old one of root's and one of an
# unrelated root run (another session token) are neither listed nor named in the suggested
# `pct report` command; links planted at every name record and the
# runtime use do not make root write through them; and an existing FILE
# that is not a regular file is never moved to FILE.old.
# pct-test: alone (the names planted are those the next 400 pids give, which other tests would take)
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root, to plant files as nobody and run record as root"
id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null || skip "no user nobody or group nogroup"
command -v setpriv >/dev/null && command -v perl >/dev/null || skip "needs setpriv and perl"
asnobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
chmod 755 "$SCRATCH"
mkdir log
printf 'root-only secret\n' >victim
chmod 600 victim
cp victim victim.orig
mkdir -m 1777 d
check_victim() { cmp -s victim victim.orig || fail "$1: the root-only file changed"; }
# set_start FILE NS: the header's start_time_ns (pct(5): offset 80); set_pids FILE PID PPID
set_start() { perl -e 'open F, "+<", $ARGV[0] or die; seek F, 80, 0; print F pack("q<", $ARGV[1])' "$@"; }
set_pids() { perl -e 'open F, "+<", $ARGV[0] or die; seek F, 36, 0; print F pack("L<", $ARGV[1]);
	seek F, 60, 0; print F pack("L<", $ARGV[2])' "$@"; }
future=$((($(date +%s) + 86400) * 1000000000))
# record_in: the real run, bounded; the children's files are then those
# of root's that are not planted
record_in() { timeout 60 "$PCTBIN" record -o d/rec.pct "$PROGS/forkexec" >/dev/null 2>log/err; }
suggested() { sed -n 's/^pct: report it with `pct report \(.*\)`.*$/\1/p' log/err; }

# 1. a FIFO named like a child's profile
asnobody mkfifo -m 666 d/rec.77.pct
record_in
rc=$?
[ $rc != 124 ] || fail "record hung on the FIFO d/rec.77.pct"
[ $rc = 0 ] || fail "record failed: $(cat log/err)"
grep -q "rec.77.pct" log/err && fail "the FIFO is listed: $(cat log/err)"
[ -p d/rec.77.pct ] || fail "the FIFO was replaced"
pass "a FIFO among the children's names: record finished"
find d -mindepth 1 -delete

# 2. planted profiles: nobody's, dated after the run started; root's from
# an earlier run; root's from an unrelated run, dated after the start
"$PCTBIN" record -o other.pct "$PROGS/selftime" 0.1 >/dev/null 2>&1 || fail "record other.pct"
chmod 644 other.pct
asnobody cp other.pct d/rec.1234.pct && set_start d/rec.1234.pct $future
cp other.pct d/rec.555.pct
cp other.pct d/rec.556.pct && set_start d/rec.556.pct $future && set_pids d/rec.556.pct 556 555
# and links to the victim where record and the runtime may write:
# FILE.old, FILE's stem + .PID.pct and .PID.1.pct, DIR/.pct-tmp.PID
last=$(cat /proc/sys/kernel/ns_last_pid)
asnobody perl -e '($v, $d, $lo, $hi) = @ARGV; symlink $v, "$d/rec.pct.old";
	for $p ($lo .. $hi) { symlink $v, "$d/rec.$p.pct"; symlink $v, "$d/rec.$p.1.pct"; symlink $v, "$d/.pct-tmp.$p" }' \
	"$SCRATCH/victim" d $((last + 1)) $((last + 400)) || fail "planting"
record_in
rc=$?
[ $rc = 0 ] || fail "record with planted files: status $rc: $(cat log/err)"
cat log/err
check_victim "record with planted links"
for f in rec.1234.pct rec.555.pct rec.556.pct; do
	grep -q "$f" log/err && fail "the planted $f is named: $(cat log/err)"
	[ -f d/$f ] && [ ! -L d/$f ] || fail "the planted $f was removed or replaced: $(ls -l d | grep -v ' -> ')"
done
# the run's own three profiles are folded into d/rec.pct, the planted
# ones left out (and left alone)
real=$(cd d && find . -maxdepth 1 -name 'rec.*.pct' -type f -user root ! -name rec.555.pct ! -name rec.556.pct -newer ../other.pct)
[ -z "$real" ] || fail "per-process files left beside d/rec.pct: $real"
grep -q "^pct: 3 processes, [0-9]* samples, written to 'd/rec.pct' as one process tree$" log/err ||
	fail "expected the tree of 3: $(cat log/err)"
[ "$(suggested)" = "d/rec.pct" ] || fail "the suggested command names '$(suggested)'"
"$PCTBIN" report d/rec.pct | grep -q "3 files summed" || fail "the suggested command does not report"
pass "planted profiles not folded nor named; d/rec.pct holds the run's 3 processes"
find d -mindepth 1 -delete

# 3. FILE itself planted: a link is neither followed, nor moved to FILE.old
asnobody ln -s "$SCRATCH/victim" d/rec.pct
timeout 60 "$PCTBIN" record -o d/rec.pct touch ran 2>log/err
rc=$?
check_victim "record -o a planted link"
[ $rc = 1 ] && [ -L d/rec.pct ] && [ ! -e d/rec.pct.old ] && [ ! -e ran ] &&
	grep -q "^pct: record: cannot create 'd/rec.pct': it exists and is a symbolic link" log/err ||
	fail "record -o a planted link: status $rc, $(ls -l d), $(cat log/err)"
rm d/rec.pct
asnobody mkfifo -m 666 d/rec.pct
timeout 60 "$PCTBIN" record -o d/rec.pct touch ran 2>log/err
rc=$?
[ $rc = 1 ] && [ -p d/rec.pct ] && [ ! -e ran ] || fail "record -o a planted FIFO: status $rc, $(ls -l d), $(cat log/err)"
pass "record refuses a FILE that is a link or a FIFO"

# 4. a process whose parent wrote no profile (two shells between the
# command and it, each of which takes a sample with a probability of
# about its CPU time over the period: rerun until neither did) is still
# this run's, and listed
for try in 1 2 3 4 5 6 7 8 9 10 11 12; do
	rm -rf tree; mkdir tree
	timeout 60 "$PCTBIN" record -o tree/t.pct sh -c "sh -c '$PROGS/selftime 0.3 >/dev/null; true'; true" 2>log/err ||
		fail "record of a shell tree: $(cat log/err)"
	"$PCTBIN" report --by=process --format=tsv tree/t.pct >log/proc.tsv || fail "report tree/t.pct: $(cat log/err)"
	# both shells listed without a sample, then selftime
	[ "$(awk -F'\t' 'NR > 1 { printf "%s:%s ", $1, substr($NF, 1, 2) }' log/proc.tsv | cut -d' ' -f1-2)" = "0:sh 0:sh" ] && break
done
[ "$(ls tree)" = t.pct ] || fail "expected tree/t.pct alone: $(ls -l tree)"
[ "$(awk -F'\t' 'NR > 1 { printf "%s:%s ", $1, substr($NF, 1, 2) }' log/proc.tsv | cut -d' ' -f1-2)" = "0:sh 0:sh" ] ||
	fail "a shell took a sample in 12 runs: $(cat log/proc.tsv)"
grep -q $'\tselftime 0.3$' log/proc.tsv || fail "the grandchild is not in tree/t.pct: $(cat log/proc.tsv)"
[ "$(suggested)" = "tree/t.pct" ] || fail "the suggested command names '$(suggested)', not tree/t.pct"
pass "a grandchild under processes that took no sample is listed by its session token"

