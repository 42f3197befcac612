# Progress while stacks are unwound (issue 16): on a terminal, once the
# unwinding has taken $PCT_PROGRESS_DELAY seconds (0 here, to need no
# huge profile), standard error shows "pct: unwinding stacks: N of M",
# rewritten in place with a carriage return and erased at the end; the
# report on standard output is the same.  Never in a pipe or a file, and
# not on a terminal when the work is shorter than the default delay (1 s).
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || fail "no script(1) (util-linux) to give pct a terminal"
"$PCTBIN" record -g -F 1000 -o cc.pct "$PROGS/callchain" 0.2 >/dev/null 2>err || fail "record -g: $(cat err)"
"$PCTBIN" report cc.pct >pipe.out 2>pipe.err || fail "report: $(cat pipe.err)"
nstacks=$("$PCTBIN" report --format=tsv cc.pct 2>/dev/null | awk -F'\t' 'NR == 1 { for (i = 1; i <= NF; i++) k[$i] = i; next }
	$k["function"] == "main" { print $k["total"] }')
[ "${nstacks:-0}" -ge 600 ] || fail "only ${nstacks:-0} samples with stacks through main: too few to show progress (256 a step)"

# a terminal (script(1) runs the command on a pseudo-terminal and copies
# what it writes there to the typescript): standard output to a file, so
# the typescript holds standard error only
PCT_PROGRESS_DELAY=0 script -q -e -c "'$PCTBIN' report cc.pct >tty.out" tty.log </dev/null >/dev/null 2>&1 ||
	fail "report on a terminal: $(cat -v tty.log)"
# (util-linux's script puts "Script started ..." and "Script done ..." lines
# around it)
sed -i '/^Script started on /d; /^Script done on /d' tty.log
cmp -s pipe.out tty.out || fail "the report differs on a terminal: $(diff pipe.out tty.out | head -5)"
grep -aq 'pct: unwinding stacks: [0-9]* of [0-9]*' tty.log ||
	fail "no progress line on a terminal: $(cat -v tty.log | head -5)"
# every line shown counts up to the records there are, and starts with \r
tr '\r' '\n' <tty.log | awk '/^pct: unwinding stacks: / { n++; if ($4 + 0 > $6 + 0 || $4 + 0 < last) bad = 1; last = $4 + 0 }
	END { exit !(n >= 1 && !bad) }' || fail "progress lines out of order: $(cat -v tty.log | head -5)"
# erased: the last thing written is "\r", spaces over the line, "\r"
last=$(tr '\r' '\n' <tty.log | grep -a . | tail -1)
[ -z "$(echo "$last" | tr -d ' ')" ] || fail "the progress line is not erased at the end: $(cat -v tty.log | tail -c 200)"
tr -d '\n' <tty.log | tail -c 1 | od -c | grep -q '\\r' || fail "does not end in a carriage return: $(tail -c 80 tty.log | cat -v)"

# never in a pipe or a file, whatever the delay
PCT_PROGRESS_DELAY=0 "$PCTBIN" report cc.pct 2>&1 >/dev/null | grep -a 'unwinding' && fail "progress in a pipe"
PCT_PROGRESS_DELAY=0 "$PCTBIN" export --format=folded -o cc.folded cc.pct 2>file.err
grep -a 'unwinding' file.err && fail "progress in a file"
cmp -s pipe.err /dev/null || fail "report in a pipe wrote to standard error: $(cat -v pipe.err)"
# the default delay: a few hundred stacks take far less than 1 s
script -q -e -c "'$PCTBIN' report cc.pct >tty2.out" tty2.log </dev/null >/dev/null 2>&1 || fail "report on a terminal"
sed -i '/^Script started on /d; /^Script done on /d' tty2.log
grep -aq 'unwinding' tty2.log && fail "progress before the default delay: $(cat -v tty2.log | head -3)"
pass "progress on a terminal only, erased at the end"
