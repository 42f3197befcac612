# A live profile is a shared mapping of a file: whoever can write the file
# can change it under the running program.  The runtime creates it 0644
# (0600 with call stacks) whatever the umask, so another user cannot; and
# it keeps every bound, count, offset and its pid in private memory, so
# that even a writer who can (root here) rewriting every header field and
# table slot over and over leaves the program unharmed.  `pct report` of
# the result reads it or refuses it in one line, exit 1.
. "$(dirname "$0")/lib.sh"
id nobody >/dev/null 2>&1 || skip "no user nobody"
command -v setpriv >/dev/null || skip "no setpriv"
as_nobody() { timeout 90 setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }

# a directory every user can reach (the scratch directory is 0700)
D=$(mktemp -d /tmp/pct-e2e-41.XXXXXX) && chmod 755 "$D" || fail "mktemp"
trap 'rm -rf "$SCRATCH" "$D"' EXIT
as_nobody test -x "$D" || skip "user nobody cannot reach $D"
W="$PROGS/scribble work $PROGS"

timeout 120 $W 2 >plain.out 2>plain.err
[ $? = 7 ] && [ "$(cat plain.out)" = "work done" ] || fail "plain run: $(cat plain.out plain.err)"

# run_pct HOW FILE SECONDS: the workload under pct (HOW: record,
# record-g, preload, preload-g), stdout in run.out, status in run.rc
run_pct() {
	case $1 in
	record) timeout 120 "$PCTBIN" record -o "$2" -- $W "$3" ;;
	record-g) timeout 120 "$PCTBIN" record -g -o "$2" -- $W "$3" ;;
	preload) PCT=$2 LD_PRELOAD=$LIBPCT timeout 120 $W "$3" ;;
	preload-g) PCT=$2 PCT_STACK_BYTES=8192 LD_PRELOAD=$LIBPCT timeout 120 $W "$3" ;;
	esac >run.out 2>run.err
	echo $? >run.rc
}

# unharmed HOW: same status and output as without pct
unharmed() {
	[ "$(cat run.rc)" = 7 ] || fail "$1: status $(cat run.rc), not 7: $(tail -5 run.err)"
	cmp -s run.out plain.out || fail "$1: output changed: $(cat run.out)"
}

# The modes, under umasks that would let others write.
for how in record record-g preload preload-g; do
	for u in 000 002; do
		# (a process of which no CPU-timer expiration was delivered
		# leaves no profile, which an oversubscribed machine's tick can
		# do to a short run (libpct(3)), the child's most of all: it
		# burns a part of the run: the run is made again, twice as
		# long each time (0.2 s to 3.2 s), five times at most)
		s=0.2
		for try in 1 2 3 4 5; do
		rm -f "$D"/m*.pct
		(umask $u && run_pct $how "$D/m.pct" $s)
		unharmed "$how, umask $u"
		want=644; case $how in *-g) want=600 ;; esac
		n=0
		for f in "$D"/m*.pct; do
			[ -f "$f" ] || break
			mode=$(stat -c %a "$f")
			[ "$mode" = $want ] || fail "$how, umask $u: $(basename "$f") has mode $mode, not $want"
			n=$((n + 1))
		done
		# record folds the tree into one file (pct-record(1)): its
		# members, the header's count at offset 20
		case $how in record*) [ $n = 1 ] && n=$(od -An -tu4 -j20 -N4 "$D/m.pct" | tr -d ' ') ;; esac
		[ $n -ge 2 ] && break
		[ $try = 5 ] && fail "$how, umask $u: $n profiles in each of 5 runs (0.2 s to $s s), want the parent's and a child's: $(tail -3 run.err)"
		s=$(awk -v s="$s" 'BEGIN { print 2 * s }')
		echo "$how, umask $u: $n profiles, want the parent's and a child's: again for $s s ($(tail -3 run.err | tr '\n' '|'))"
		sleep 1
		done
	done
done
pass "profiles are 0644, or 0600 with call stacks, under umask 000 and 002"

# Another user tries to rewrite the live profile: refused.  (make
# check-full: runs of 2 s, attacked for 1 s, and root's attack below twice
# per method for 1.5 s; make check: 1 s, 0.5 s, once for 0.8 s)
work_s=$(full_or 2 1) nobody_s=$(full_or 1 0.5) root_s=$(full_or 1.5 0.8) root_n=$(full_or 2 1)
for how in record record-g preload preload-g; do
	f="$D/n-$how.pct"
	(umask 000 && run_pct $how "$f" "$work_s") &
	as_nobody "$PROGS/scribble" attack "$f" "$nobody_s" >atk.out 2>&1
	rc=$?
	wait
	[ $rc = 3 ] || fail "$how: nobody's attack was not refused (status $rc): $(cat atk.out)"
	grep -q 'Permission denied' atk.out || fail "$how: $(cat atk.out)"
	unharmed "$how, attacked by nobody"
	# the file's mode refused it, not the directory: nobody can read it
	# unless it holds call stacks
	case $how in
	*-g) as_nobody cat "$f" >/dev/null 2>&1 && fail "$how: nobody can read the call stacks" ;;
	*) as_nobody cat "$f" >/dev/null || fail "$how: nobody cannot read $f" ;;
	esac
done
pass "another user cannot write a live profile"

# The worst case: a writer who can (root), rewriting every header field
# and random table slots while the program samples, twice per method.
for how in record record-g preload preload-g; do
	for i in $(seq "$root_n"); do
		f="$D/r-$how-$i.pct"
		run_pct $how "$f" "$work_s" &
		timeout 90 "$PROGS/scribble" attack "$f" "$root_s" >atk.out 2>&1 || fail "$how: attack: $(cat atk.out)"
		wait
		unharmed "$how, attacked by root"
		timeout 60 "$PCTBIN" report "$f" >rep.out 2>rep.err
		rc=$?
		case $rc in
		0) ;;
		1) [ "$(wc -l <rep.err)" = 1 ] && grep -q "^pct: '$f'" rep.err ||
			fail "$how: report refused it without one line naming it: $(cat rep.err)" ;;
		*) fail "$how: report of the rewritten profile: status $rc: $(tail -3 rep.err)" ;;
		esac
		echo "$how $i: $(cat atk.out); report: status $rc $(cat rep.err)"
	done
done
pass "the program is unharmed when its profile is rewritten under it"
