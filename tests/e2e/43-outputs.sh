# -o in a directory others write to: export, flame and merge, run by root,
# never write through a name that user nobody planted (the final name, or
# any temporary name a pid or a guess could give), never replace a device,
# a FIFO or a link to /proc/self/fd/1 named by -o but write into it, keep
# a replaced file's mode, and leave no temporary behind.
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" = 0 ] || skip "needs root, to plant files as nobody and run the commands as root"
id nobody >/dev/null 2>&1 && getent group nogroup >/dev/null || skip "no user nobody or group nogroup"
command -v setpriv >/dev/null && command -v perl >/dev/null || skip "needs setpriv and perl"
asnobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
chmod 755 "$SCRATCH"
mkdir log
"$PCTBIN" record -g -o in.pct "$PROGS/callchain" 0.2 >/dev/null 2>&1 || fail "record -g"
# a FIFO that no one reads, in the log directory (which the checks below
# leave out): flame gives it up after its bounded wait, meanwhile
mkfifo log/lonely
timeout 60 "$PCTBIN" flame -o log/lonely in.pct 2>log/lonely.err & lonely=$!
printf 'root-only secret\n' >victim
chmod 600 victim
cp victim victim.orig
mkdir -m 1777 sticky
mkdir group && chgrp nogroup group && chmod 2775 group

# run_cmd CMD OUT: the command writing OUT, for each of the three,
# bounded in time
run_cmd() {
	local opt=()
	[ "$1" = export ] && opt=(--format=folded)
	timeout 60 "$PCTBIN" "$1" "${opt[@]}" -o "$2" in.pct
}
out_of() { case $1 in export) echo out.txt ;; flame) echo out.svg ;; merge) echo out.pct ;; esac; }
# everything under the scratch directory but the log and one output
# (a directory's size is left out: creating and renaming the temporary
# may grow the directory's blocks, 57344 -> 61440 bytes once)
snapshot() { find "$SCRATCH" -path "$SCRATCH/log" -prune -o -path "$1" -prune -o \( -type d -printf '%p %y %m %u %g %l\n' \) \
	-o -printf '%p %y %m %u %g %s %l\n' | sort; }
check_victim() { cmp -s victim victim.orig && [ "$(stat -c %a victim)" = 600 ] || fail "$1: the root-only file changed: $(ls -l victim; head -c 80 victim)"; }

for d in sticky group; do
	for c in export flame merge; do
		out=$d/$(out_of $c)
		# 1. temporaries: every name the old code used (OUT.tmpPID,
		# OUT.tmp.PID) for the next 600 pids, and a few random-looking
		# ones, all links to the victim
		# (other tests running beside this one take pids too: a command
		# that ran outside the planted range is run again, three times
		# at most)
		for attempt in 1 2 3; do
		find "$d" -user nobody -delete; rm -f "$out"
		last=$(cat /proc/sys/kernel/ns_last_pid)
		asnobody perl -e '($v, $o, $lo, $hi) = @ARGV;
			for $p ($lo .. $hi) { symlink $v, "$o.tmp$p"; symlink $v, "$o.tmp.$p" }
			symlink $v, "$o.pct-tmp.$_" for qw(AAAAAA aaaaaa 000000 XXXXXX);' \
			"$SCRATCH/victim" "$SCRATCH/$out" $((last + 1)) $((last + 600)) || fail "planting"
		before=$(snapshot "$SCRATCH/$out")
		run_cmd $c "$out" >/dev/null 2>log/err &
		pid=$!
		wait $pid
		rc=$?
		inrange=1
		[ $pid -gt "$last" ] && [ $pid -le $((last + 600)) ] || { inrange=; echo "note: $c ran as pid $pid, outside the planted range (attempt $attempt)"; }
		check_victim "$c -o $out with planted temporaries"
		[ $rc = 0 ] || fail "$c -o $out failed with planted temporaries: $(cat log/err)"
		[ -f "$out" ] && [ ! -L "$out" ] && [ "$(stat -c %U "$out")" = root ] || fail "$c: $out is not root's regular file: $(ls -l "$out")"
		[ "$before" = "$(snapshot "$SCRATCH/$out")" ] || fail "$c: something besides $out changed:
$(diff <(echo "$before") <(snapshot "$SCRATCH/$out") | head)"
		left=$(find "$d" -user root ! -path "$d" ! -path "$out")
		[ -z "$left" ] || fail "$c left files behind: $left"
		[ -n "$inrange" ] && break
		done
		# 2. the final name: a link to the victim, then a FIFO, both nobody's
		rm -f "$out"
		find "$d" -user nobody -delete
		asnobody ln -s "$SCRATCH/victim" "$out"
		run_cmd $c "$out" >/dev/null 2>log/err
		rc=$?
		check_victim "$c -o $out, a link planted by nobody"
		[ -L "$out" ] && [ $rc = 1 ] && grep -q "^pct: $c: cannot create '$out': .*owned by uid 65534.*not followed" log/err ||
			fail "$c -o $out (nobody's link): status $rc, $(ls -l "$out"), $(cat log/err)"
		rm -f "$out"
		asnobody mkfifo -m 666 "$out"
		run_cmd $c "$out" >/dev/null 2>log/err
		rc=$?
		[ -p "$out" ] && [ $rc = 1 ] && grep -q "^pct: $c: cannot create '$out': a FIFO owned by uid 65534" log/err ||
			fail "$c -o $out (nobody's FIFO): status $rc, $(ls -l "$out"), $(cat log/err)"
		rm -f "$out"
	done
done
pass "planted links and FIFOs in sticky and setgid directories: the root-only file unchanged"

# -o naming a character device, a FIFO, a link to /proc/self/fd/1
mknod null c 1 3
for c in export flame merge; do
	run_cmd $c null >/dev/null 2>log/err || fail "$c -o null (a char device): $(cat log/err)"
	[ -c null ] || fail "$c replaced the character device: $(ls -l null)"
done
mkfifo fifo
timeout 60 cat fifo >got &
reader=$!
"$PCTBIN" flame -o fifo in.pct 2>log/err
rc=$?
[ -p fifo ] || { kill $reader; fail "flame replaced the FIFO: $(ls -l fifo)"; }
wait $reader
[ $rc = 0 ] && grep -q '</svg>' got || fail "flame -o FIFO: status $rc, $(wc -c <got) bytes read: $(cat log/err)"
SECONDS=0
wait $lonely; rc=$?
[ -p log/lonely ] || fail "flame replaced a FIFO with no reader: $(ls -l log/lonely)"
[ $rc = 1 ] && grep -q "^pct: flame: cannot create 'log/lonely': a FIFO with no reader" log/lonely.err ||
	fail "flame -o FIFO without a reader: status $rc after $SECONDS s more: $(cat log/lonely.err)"
ln -s /proc/self/fd/1 so
"$PCTBIN" flame -o so in.pct >got 2>log/err || fail "flame -o so: $(cat log/err)"
[ -L so ] && [ "$(readlink so)" = /proc/self/fd/1 ] || fail "flame replaced the link: $(ls -l so)"
grep -q '</svg>' got || fail "flame -o so: nothing on standard output"
echo first >got
"$PCTBIN" flame -o so in.pct >>got 2>log/err || fail "flame -o so >>: $(cat log/err)"
[ "$(head -1 got)" = first ] && grep -q '</svg>' got || fail "flame -o so >> got: $(head -c 100 got)"
"$PCTBIN" export --format=folded in.pct >folded.want
"$PCTBIN" export --format=folded -o /dev/stdout in.pct | cat >folded.got
cmp -s folded.want folded.got && [ -c /dev/null ] || fail "export -o /dev/stdout into a pipe"
pass "a device, a FIFO with and without a reader, /proc/self/fd/1: written in place, never replaced"

# modes: a replaced file keeps its own, a new one follows the umask
"$PCTBIN" flame -o keep.svg in.pct && chmod 640 keep.svg && "$PCTBIN" flame -o keep.svg in.pct
[ "$(stat -c %a keep.svg)" = 640 ] || fail "the replaced file's mode became $(stat -c %a keep.svg)"
(umask 077 && "$PCTBIN" merge -o new.pct in.pct 2>/dev/null)
[ "$(stat -c %a new.pct)" = 600 ] || fail "a new file under umask 077 got mode $(stat -c %a new.pct)"
# errors: one line, exit 1, nothing left behind
"$PCTBIN" flame -o nodir/x.svg in.pct 2>log/err
rc=$?
[ $rc = 1 ] && [ "$(cat log/err)" = "pct: flame: cannot create 'nodir/x.svg': No such file or directory" ] ||
	fail "missing directory: status $rc, $(cat log/err)"
mkdir full && ln -s /dev/full full/out.pct
"$PCTBIN" merge -o full/out.pct in.pct 2>log/err
[ $? = 1 ] && grep -q "^pct: merge: cannot write 'full/out.pct': No space left on device" log/err ||
	fail "merge into /dev/full: $(cat log/err)"
[ -z "$(ls -A . | grep -e '\.tmp' -e 'pct-tmp')" ] || fail "temporaries left: $(ls -A)"
pass "modes kept, umask followed, errors clear, no temporaries left"
