# SIGTERM and SIGHUP sent to `pct record` (issue, item 9): before, record
# died at once, the command ran on, orphaned, and its per-process files
# (41 MB of apparent size each) were never folded, so no FILE.  Now record
# passes the signal on to the command, waits for it, folds what was
# written into FILE, prints the summary as after a normal end, and then
# exits as the command did; a second SIGTERM does not lose the fold.
. "$(dirname "$0")/lib.sh"
# the commands below loop until killed: on a failure, kill them by pid
pids=()
# and by the pid files the commands write (a failure while waiting for a
# profile left the command of a record killed here running, orphaned)
cleanup() {
	local p f
	for f in "$SCRATCH"/*/pid; do [ -s "$f" ] && pids+=("$(cat "$f")"); done
	for p in "${pids[@]}"; do [ -n "$p" ] && kill -KILL "$p" 2>/dev/null; done
	rm -rf "$SCRATCH"
}
trap cleanup EXIT
# wait_for FILE...: until each exists, 10 s at most
wait_for() {
	local i
	for i in $(seq 200); do
		local all=1 f
		for f in "$@"; do [ -e "$f" ] || all=0; done
		[ $all = 1 ] && return 0
		sleep 0.05
	done
	fail "waited 10 s for $*: $(ls)"
}
# one_profile NAME ERR: NAME alone is left, small, readable, and the
# summary was printed as after a normal end
one_profile() {
	[ "$(ls | grep -c '\.pct$')" = 1 ] && [ -f "$1" ] || fail "$1: expected one profile: $(ls -l)"
	local kib; kib=$(du --apparent-size -k "$1" | cut -f1)
	[ "$kib" -le 256 ] || fail "$1 is $kib KiB in apparent size: not folded"
	grep -q "written to '$1'" "$2" || fail "$1: no summary: $(cat "$2")"
	grep -q "^pct: report it with \`pct report $1\`" "$2" || fail "$1: no suggestion: $(cat "$2")"
	grep -q "^pct: the samples cover " "$2" || fail "$1: no coverage line: $(cat "$2")"
	"$PCTBIN" report "$1" >"$1.txt" 2>&1 || fail "pct report $1: $(cat "$1.txt")"
	grep -q '^# [1-9][0-9]* samples' "$1.txt" || fail "$1: no samples: $(cat "$1.txt")"
}
# gone PID: no such process, or a zombie (an orphan not yet reaped by init)
gone() { ! kill -0 "$1" 2>/dev/null || [ "$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | cut -c1)" = Z ]; }
# sigmask PID FIELD: /proc/PID/status's SigBlk, SigIgn... as a number
sigmask() { echo $((16#$(sed -n "s/^$2:[[:space:]]*//p" "/proc/$1/status"))); }

# (a) timeout(1): SIGTERM to record and to its process group
mkdir a && cd a || exit 1
timeout 2 "$PCTBIN" record -o t.pct -- sh -c 'echo $$ >pid; while :; do :; done' 2>err
rc=$?
pids+=("$(cat pid 2>/dev/null)")
[ $rc = 124 ] || fail "(a) timeout: status $rc, want 124: $(cat err)"
gone "$(cat pid)" || fail "(a) the command is still running after timeout"
one_profile t.pct err
pass "timeout 2 pct record: the command is gone, t.pct folded ($(du --apparent-size -k t.pct | cut -f1) KiB) and reported"
cd ..

# (b) SIGTERM to record's pid alone (this script has no job control:
# record is in our process group, and kill PID signals it only), a tree
# of two processes: the root burns until its own profile exists
mkdir b && cd b || exit 1
"$PCTBIN" record -o b.pct -- sh -c "$PROGS/selftime 0.2 >/dev/null; echo \$\$ >pid; while :; do :; done" 2>err &
rec=$!
pids+=("$rec")
wait_for pid b.pct
pids+=("$(cat pid)")
kill -TERM "$rec"
wait "$rec"
rc=$?
gone "$(cat pid)" || fail "(b) SIGTERM to record: the command is still running: $(cat err)"
[ $rc = 143 ] || fail "(b) status $rc, want 143 (the command's SIGTERM): $(cat err)"
one_profile b.pct err
grep -q "^pct: 2 processes, [0-9]* samples, written to 'b.pct' as one process tree$" err ||
	fail "(b) expected a tree of 2: $(cat err)"
"$PCTBIN" report --by=process --format=tsv b.pct | grep -q $'\tselftime 0.2$' || fail "(b) selftime is not in b.pct"
pass "SIGTERM to record's pid: passed on to the command; b.pct holds the tree; status 143"
cd ..

# (c) two SIGTERMs: the command counts them and exits 3 on the second
mkdir c && cd c || exit 1
"$PCTBIN" record -o c.pct -- sh -c "echo \$\$ >pid; trap 'echo term >>got; n=\$((\${n:-0} + 1)); [ \$n -ge 2 ] && exit 3' TERM
	while :; do :; done" 2>err &
rec=$!
pids+=("$rec")
wait_for pid c.pct
pids+=("$(cat pid)")
kill -TERM "$rec"
wait_for got
kill -TERM "$rec"
wait "$rec"
rc=$?
[ $rc = 3 ] || fail "(c) status $rc, want 3: $(cat err)"
[ "$(grep -c term got)" = 2 ] || fail "(c) the command saw $(grep -c term got) SIGTERMs, want 2"
one_profile c.pct err
pass "a second SIGTERM: passed on too, the fold kept, status 3 as the command's"
cd ..

# (d) SIGHUP to record's pid
mkdir d && cd d || exit 1
"$PCTBIN" record -o h.pct -- sh -c 'echo $$ >pid; while :; do :; done' 2>err &
rec=$!
pids+=("$rec")
wait_for pid h.pct
pids+=("$(cat pid)")
# the command neither ignores nor blocks SIGTERM or SIGHUP (bits 15 and
# 1); pct's runtime blocks every signal for the moments it holds a lock
# (creating the file the test waited for), so the mask is looked at until
# it is the command's own, for up to 2 s
for _ in $(seq 200); do
	(( ($(sigmask "$(cat pid)" SigBlk) | $(sigmask "$(cat pid)" SigIgn)) & 0x4001 )) || break
	sleep 0.01
done
(( ($(sigmask "$(cat pid)" SigBlk) | $(sigmask "$(cat pid)" SigIgn)) & 0x4001 )) &&
	fail "(d) the command blocks or ignores SIGTERM/SIGHUP: $(grep '^Sig' "/proc/$(cat pid)/status")"
kill -HUP "$rec"
wait "$rec"
rc=$?
gone "$(cat pid)" || fail "(d) SIGHUP to record: the command is still running"
[ $rc = 129 ] || fail "(d) status $rc, want 129: $(cat err)"
one_profile h.pct err
pass "SIGHUP to record's pid: passed on; h.pct folded; status 129"
cd ..

# (e) a SIGHUP ignored when record starts (nohup) stays ignored in the
# command; SIGTERM still ends it
mkdir e && cd e || exit 1
(trap '' HUP; exec "$PCTBIN" record -o n.pct -- sh -c 'echo $$ >pid; while :; do :; done') 2>err &
rec=$!
pids+=("$rec")
wait_for pid n.pct
pids+=("$(cat pid)")
(( $(sigmask "$(cat pid)" SigIgn) & 1 )) ||
	fail "(e) SIGHUP, ignored by record's parent, is not ignored by the command"
kill -TERM "$rec"
wait "$rec"
rc=$?
[ $rc = 143 ] || fail "(e) status $rc, want 143: $(cat err)"
one_profile n.pct err
pass "an ignored SIGHUP stays ignored in the command"
