# '-' is standard output (issue 36, item 2): `pct merge -o -`, `pct
# archive -o -`, `pct html -o -` and `pct flame -o -` write to standard
# output, and create no file named '-'.  What they write there is what
# they write to a file: the merged profile reports the same rows, the
# archive lists the same members, the page and the SVG are the same
# bytes.  On a terminal each refuses, with exit status 2 and a message that
# names the command and what its output is, as `pct export` does for its
# binary formats; the terminal is a pseudo-terminal from script(1).
. "$(dirname "$0")/lib.sh"
command -v script >/dev/null || fail "no script(1) (bsdutils)"
sampled p.pct rec.err "$PCTBIN" record -g -o p.pct "$PROGS/work-full" 400 >/dev/null
[ -s p.pct ] || fail "record: $(cat rec.err)"

# merge: the same rows as a merge into a file
"$PCTBIN" merge -o m.pct p.pct 2>merge.err || fail "merge -o m.pct: $(cat merge.err)"
"$PCTBIN" merge -o - p.pct >dash.pct 2>merge.err || fail "merge -o -: $(cat merge.err)"
"$PCTBIN" report --format=tsv m.pct >m.tsv || fail "report m.pct"
"$PCTBIN" report --format=tsv dash.pct >dash.tsv || fail "report of merge -o -'s output: $(head -c 300 dash.pct | od -c | head -5)"
[ -s m.tsv ] && cmp -s m.tsv dash.tsv || fail "merge -o - reports differently: $(diff m.tsv dash.tsv | head)"

# archive: a gzip tar with the same members
"$PCTBIN" archive -o a.tar.gz p.pct 2>arch.err || fail "archive -o a.tar.gz: $(cat arch.err)"
"$PCTBIN" archive -o - p.pct >dash.tar.gz 2>arch.err || fail "archive -o -: $(cat arch.err)"
tar tzf a.tar.gz | sort >a.list || fail "a.tar.gz is no gzip tar"
tar tzf dash.tar.gz | sort >dash.list || fail "archive -o -'s output is no gzip tar"
grep -q 'p.pct' dash.list && grep -q '^build-id/' dash.list || fail "archive -o -: no profile or no module: $(cat dash.list)"
cmp -s a.list dash.list || fail "archive -o - lists other members: $(diff a.list dash.list)"

# html and flame: the same bytes as into a file (a fixed title: the
# default names the output)
"$PCTBIN" html --title=t -o h.html p.pct 2>html.err || fail "html -o h.html: $(cat html.err)"
"$PCTBIN" html --title=t -o - p.pct >dash.html 2>html.err || fail "html -o -: $(cat html.err)"
grep -q '<html' dash.html && cmp -s h.html dash.html || fail "html -o - differs from html -o FILE"
"$PCTBIN" flame --title=t -o f.svg p.pct 2>flame.err || fail "flame -o f.svg: $(cat flame.err)"
"$PCTBIN" flame --title=t -o - p.pct >dash.svg 2>flame.err || fail "flame -o -: $(cat flame.err)"
grep -q '<svg' dash.svg && cmp -s f.svg dash.svg || fail "flame -o - differs from flame -o FILE"
[ ! -e ./- ] || fail "a file named '-' was created"

# on a terminal: refused, exit 2, the command and its output named; no
# byte of the output on the terminal
for c in "merge -o - p.pct:binary" "archive -o - p.pct:binary" "html -o - p.pct:HTML" \
	"html p.pct:HTML" "flame -o - p.pct:SVG" "export --format=pprof p.pct:binary"; do
	args=${c%%:*} what=${c#*:} cmd=${args%% *}
	script -qec "$PCTBIN $args; echo \"exit=\$?\"" /dev/null </dev/null >tty.out 2>&1
	tr -d '\r' <tty.out >tty.txt
	grep -q '^exit=2$' tty.txt || fail "pct $args on a terminal: not exit 2: $(head -c 300 tty.txt | tr -c '[:print:]\n' '?')"
	grep -q "^pct: $cmd: .*standard output is a terminal" tty.txt || fail "pct $args on a terminal: no message naming $cmd: $(head -c 300 tty.txt)"
	grep -qF "the output is $what and standard output is a terminal" tty.txt || fail "pct $args: the message does not say the output is $what: $(cat tty.txt)"
	[ "$(wc -l <tty.txt)" -le 3 ] || fail "pct $args on a terminal wrote more than its message: $(head -c 300 tty.txt | tr -c '[:print:]\n' '?')"
done
[ ! -e ./- ] || fail "a file named '-' was created on a terminal"
pass "merge, archive, html and flame -o - write standard output (same rows, members and bytes as into a file), no file '-', refused on a terminal with exit 2"
