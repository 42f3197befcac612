# Messages (issue 36, item 8):
# - an unknown option prints one line (getopt's) and the hint
#   "Try 'pct CMD --help' for the options.", exit 2, for every command
#   that `pct --help` lists, and nothing on standard output;
# - report's --by error lists every view, thread and process included;
# - `pct record ./nonexistent` fails and prints no coverage line ("the
#   samples cover") and no "sampled N process" line;
# - every command's --help lists "-h, --help";
# - on an 80-column terminal (script(1)'s pseudo-terminal), every comment
#   line ("# ...") of report, report -g, --callers, diff, annotate, source
#   and timeline fits 80 columns (UTF-8 characters), and through a pipe the
#   header lines are not wrapped (a continuation "#   " line appears only
#   on the terminal).
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || fail "no script(1) (bsdutils)"
command -v perl >/dev/null || fail "no perl"
cmds=$("$PCTBIN" --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 } on && /^$/ { on = 0 }')
[ "$(echo "$cmds" | wc -w)" -ge 17 ] || fail "pct --help lists only: $cmds"
for c in $cmds; do
	"$PCTBIN" "$c" --no-such-option </dev/null >u.out 2>u.err
	rc=$?
	[ $rc = 2 ] || fail "pct $c --no-such-option: exit $rc, want 2: $(head -c 300 u.err)"
	[ ! -s u.out ] || fail "pct $c --no-such-option wrote to standard output: $(head -c 200 u.out)"
	[ "$(wc -l <u.err)" = 2 ] || fail "pct $c --no-such-option: $(wc -l <u.err) lines, want 2: $(head -c 600 u.err)"
	grep -q "unrecognized option '--no-such-option'" u.err || fail "pct $c: no getopt line: $(cat u.err)"
	[ "$(tail -1 u.err)" = "Try 'pct $c --help' for the options." ] || fail "pct $c: no hint: $(cat u.err)"
	"$PCTBIN" "$c" --help >h.out 2>&1 || fail "pct $c --help failed"
	grep -q -- '-h, --help' h.out || fail "pct $c --help does not list -h, --help"
done

sampled p.pct rec.err "$PCTBIN" record -g -o p.pct "$PROGS/work-full" 400 >/dev/null
[ -s p.pct ] || fail "record: $(cat rec.err)"
sampled q.pct rec.err "$PCTBIN" record -g -o q.pct "$PROGS/work-half" 400 >/dev/null
[ -s q.pct ] || fail "record: $(cat rec.err)"

# --by: every view named in the error
"$PCTBIN" report --by=nope p.pct >/dev/null 2>by.err
[ $? = 2 ] || fail "report --by=nope: not exit 2: $(cat by.err)"
for v in function module file line address thread process; do
	grep -q "\\b$v\\b" by.err || fail "report --by=nope does not list '$v': $(cat by.err)"
done

# record of a program that is not there
"$PCTBIN" record -o n.pct ./nonexistent >/dev/null 2>n.err && fail "record ./nonexistent succeeded"
grep -q nonexistent n.err || fail "record ./nonexistent does not name it: $(cat n.err)"
grep -q -e 'samples cover' -e 'sampled [0-9]* process' n.err && fail "record ./nonexistent prints a coverage line: $(cat n.err)"

# headers on an 80-column terminal
wide=0
for c in "report p.pct" "report --callees=main p.pct" "report --callers=work_a p.pct" "diff p.pct q.pct" \
	"annotate p.pct" "source p.pct" "timeline p.pct" "report -l p.pct"; do
	script -qec "stty cols 80; $PCTBIN $c" /dev/null </dev/null | tr -d '\r' >t.txt
	grep -q '^# ' t.txt || fail "pct $c on a terminal: no header: $(head -c 300 t.txt)"
	long=$(perl -CSD -ne 'chomp; print "$_\n" if /^#/ && length($_) > 80' t.txt)
	[ -z "$long" ] || fail "pct $c on an 80-column terminal: comment lines wider than 80: $long"
	"$PCTBIN" $c >pipe.txt 2>/dev/null
	! grep -q '^#   ' pipe.txt || fail "pct $c through a pipe: a header line was wrapped: $(grep -m1 -B1 '^#   ' pipe.txt)"
	w=$(perl -CSD -ne 'chomp; $n++ if /^#/ && length($_) > 80; END { print $n + 0 }' pipe.txt)
	wide=$((wide + w))
done
# the headers this checks are long ones: without wrapping some would not fit
[ "$wide" -gt 0 ] || fail "no header line through a pipe is wider than 80 columns: the terminal check proves nothing"
pass "unknown options: one line and the hint in $(echo "$cmds" | wc -w) commands; --by lists every view; no coverage line for a missing program; -h, --help everywhere; headers fit 80 columns on a terminal ($wide wider lines through a pipe)"
