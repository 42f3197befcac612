# Terminal escapes in names: a profile's command line, module path and
# thread name, and an ELF file's symbol and DWARF file names, hold ESC [ 2 J,
# ESC ] 0;title BEL, the C1 byte 0x9b, the invalid byte 0xff and a
# backslash (tests/progs/escnames.c).  No output of pct carries them raw:
# every report (text and TSV, every view), the filter stages, diff,
# annotate, source (whose text holds escapes too), the exports' text and
# warnings show them as \xNN, once; the flame graph is valid XML.
. "$(dirname "$0")/lib.sh"
for t in xmllint python3; do command -v $t >/dev/null || fail "$t is missing (scripts/deps.sh installs it)"; done
[ -x "$PROGS/escnames" ] || fail "$PROGS/escnames is not built (make progs)"

# lines holding ESC, BEL or the C1 byte 0x9b
raw() { LC_ALL=C grep -c $'[\e\a\x9b]' "$@"; }
bad=0
# check NAME CMD...: CMD's standard output and error hold no raw escape
check() {
	local name=$1
	shift
	"$@" >out.txt 2>err.txt || { echo "FAILED: $name: $(tail -2 err.txt | cat -v)"; bad=1; return; }
	local o e
	o=$(raw out.txt) e=$(raw err.txt)
	if [ "$o" != 0 ] || [ "$e" != 0 ]; then
		echo "RAW ESCAPES: $name: $o lines of output, $e of errors: $(LC_ALL=C grep -a $'[\e\a\x9b]' out.txt err.txt | head -2 | cat -v)"
		bad=1
	fi
}

dir=$'dir\e[2J\e]0;t\a\x9b\xff\\'
mkdir "$dir" || fail "mkdir"
prog="$dir/"$'esc\e]0;x\a\x9bprog'
cp "$PROGS/escnames" "$prog" || fail "cp"
# the source file, where DWARF says it is (relative to the working
# directory), with escapes and a tab in its text
srcname=$'esc\e[2J\e]0;title\a\x9b\xff\\src.c'
for i in $(seq 40); do printf '\tline %d\e[2J\e]0;src\a\x9b\n' "$i"; done >"$srcname"
"$PCTBIN" record -g -o e.pct "$prog" 0.3 $'arg\e[2J\e]0;t\a\x9b\xff\\' >/dev/null 2>&1 || fail "record"

for by in function module address line file thread process; do
	check "report --by=$by" "$PCTBIN" report --by=$by e.pct
	check "report --by=$by --format=tsv" "$PCTBIN" report --by=$by --format=tsv e.pct
done
check "report --split=thread" "$PCTBIN" report --split=thread e.pct
check "report --callers" "$PCTBIN" report --callers=main e.pct
check "report --callees --format=tsv" "$PCTBIN" report --callees=main --format=tsv e.pct
check dump "$PCTBIN" dump e.pct
"$PCTBIN" dump e.pct >d.tsv && "$PCTBIN" sym d.tsv >s.tsv && "$PCTBIN" line s.tsv >l.tsv || fail "stages"
check sym "$PCTBIN" sym d.tsv
check line "$PCTBIN" line s.tsv
check "sum --by=module,function" "$PCTBIN" sum --by=module,function s.tsv
check "sum --by=file,line,function,inline" "$PCTBIN" sum --by=file,line,function,inline l.tsv
check "sum --split=process --format=tsv" "$PCTBIN" sum --by=function --split=process --format=tsv s.tsv
# the stages escape once: the shell pipeline prints what report prints
"$PCTBIN" sum --by=file,line,function,inline l.tsv >pipe.txt
"$PCTBIN" report --by=line e.pct >report.txt
cmp -s pipe.txt report.txt || fail "pipeline and report differ: $(diff pipe.txt report.txt | head -5 | cat -v)"
# a TSV made by hand, with raw escapes
printf 'samples\tfunction\n5\tf\e[2J\e]0;t\a\x9b\n' >hand.tsv
check "sum of a hand-made TSV" "$PCTBIN" sum --by=function hand.tsv
check "sum --format=tsv of a hand-made TSV" "$PCTBIN" sum --by=function --format=tsv hand.tsv
printf '#pct \e[2J\nmodule\tbuild_id\toffset\tsamples\tx\e[2J\n[unknown]\t\t0x1\t5\ty\e]0;t\a\x9b\n' >hand2.tsv
check "sym of a hand-made TSV" "$PCTBIN" sym hand2.tsv
check "line of a hand-made TSV" "$PCTBIN" line hand2.tsv
for by in function line module; do
	check "diff --by=$by" "$PCTBIN" diff --normalize --by=$by e.pct e.pct
	check "diff --by=$by --format=tsv" "$PCTBIN" diff --normalize --by=$by --format=tsv e.pct e.pct
done
check annotate "$PCTBIN" annotate e.pct
check source "$PCTBIN" source e.pct
grep -q $'^=>.*\tline' out.txt || fail "source: the text's tab is gone: $(cat -v out.txt | head -5)"
check flame "$PCTBIN" flame e.pct
check html "$PCTBIN" html e.pct
check "html diff" "$PCTBIN" html e.pct e.pct
check "export folded" "$PCTBIN" export --format=folded e.pct
check "export callgrind" "$PCTBIN" export --format=callgrind e.pct

[ $bad = 0 ] || fail "raw escapes reached the output"
# what the escaped names look like: once, a backslash as it is
fn='hot\x1b[2J\x1b]0;title\x07\x9b\xfffn'
"$PCTBIN" report --format=tsv e.pct >r.tsv
grep -qF "$fn" r.tsv || fail "the function is not shown escaped: $(cat -v r.tsv)"
"$PCTBIN" report --by=file e.pct >f.txt
grep -qF 'esc\x1b[2J\x1b]0;title\x07\x9b\xff\src.c' f.txt || fail "the file is not shown escaped: $(cat -v f.txt)"
"$PCTBIN" report --by=process e.pct >p.txt
grep -qF 'arg\x1b[2J\x1b]0;t\x07\x9b\xff\' p.txt || fail "the command line is not shown escaped: $(cat -v p.txt)"
grep -qF 'dir\x1b[2J\x1b]0;t\x07\x9b\xff\/esc\x1b]0;x\x07\x9bprog' r.tsv || fail "the module is not shown escaped"
# the flame graph is XML, with escapes in the names and the title
"$PCTBIN" flame -o e.svg e.pct || fail "flame"
xmllint --noout e.svg || fail "the flame graph is not valid XML"
# (a ';' in a name stays one: only folded stacks, whose separator it is, write it \x3b)
grep -qF "<title>$fn (" e.svg || fail "the flame graph's frame is not escaped: $(grep -a '<title>hot' e.svg | cat -v)"
"$PCTBIN" flame -o t.svg --title=$'a & <b> "c" \'d\' \e[2J\a\x9b\xff\xef\xbf\xbf' e.pct || fail "flame --title"
xmllint --noout t.svg || fail "the flame graph with an odd title is not valid XML"
"$PCTBIN" flame --width=100 -o n.svg e.pct && xmllint --noout n.svg || fail "a narrow flame graph is not valid XML"
# the HTML report: its data is one JSON object in which the names are
# escaped and '<' is \u003c, so that no name or title (here one holding
# "</script>" and "<!--") ends the element; the page holds no raw escape
"$PCTBIN" html -o e.html --title=$'</script><script>alert(1)</script><!-- \e[2J\a' e.pct || fail "html"
[ "$(raw e.html)" = 0 ] || fail "html: raw escapes: $(LC_ALL=C grep -a $'[\e\a\x9b]' e.html | head -2 | cat -v)"
python3 - e.html "$fn" <<'PY' || fail "html: the data is not one escaped JSON object"
import json, re, sys
page = open(sys.argv[1], encoding="utf-8", errors="strict").read()
head, rest = page.split('<script id="pct-data" type="application/json">', 1)
assert "<script" not in head, "a script before the data"
data, after = rest.split("</script>", 1)
assert after.startswith("\n<script>\n"), "the data's element does not end where the data ends"
assert "<" not in data and ">" not in data, "a raw < or > in the data"
d = json.loads(data)
assert d["title"].startswith("</script><script>alert(1)"), d["title"]
names = [k[0] for k in d["tables"]["function"]["keys"]]
assert sys.argv[2] in names, names
print("html: the title and", len(names), "function names sit escaped in the data")
PY
grep -q '<title>&lt;/script&gt;' e.html || fail "html: the page title is not escaped: $(grep -a '<title>' e.html | cat -v)"
# binary exports: their text
"$PCTBIN" export --format=gperftools -o e.prof e.pct || fail "export gperftools"
LC_ALL=C grep -aoE '[0-9a-f]+-[0-9a-f]+ r-xp .*' e.prof >maps.txt
grep -qF 'esc\x1b]0;x\x07\x9bprog' maps.txt || fail "gperftools: the module is not escaped: $(cat -v maps.txt)"
[ "$(raw maps.txt)" = 0 ] || fail "gperftools: raw escapes in the maps: $(cat -v maps.txt)"
"$PCTBIN" export --format=pprof -o e.pb.gz e.pct || fail "export pprof"
# the string table (field 6 of Profile) of the decompressed message
gzip -dc e.pb.gz | python3 -c '
import sys
d = sys.stdin.buffer.read()
def varint(i):
    r = s = 0
    while True:
        b = d[i]; i += 1; r |= (b & 0x7f) << s; s += 7
        if b < 0x80: return r, i
i = 0
while i < len(d):
    k, i = varint(i)
    if k & 7 == 0: _, i = varint(i)
    elif k & 7 == 1: i += 8
    elif k & 7 == 5: i += 4
    else:
        n, i = varint(i)
        if k >> 3 == 6: sys.stdout.buffer.write(d[i:i + n] + b"\n")
        i += n
' >strings.txt || fail "cannot read the pprof export"
grep -qF "$fn" strings.txt || fail "pprof: the function is not escaped: $(cat -v strings.txt)"
[ "$(raw strings.txt)" = 0 ] || fail "pprof: raw escapes in the strings: $(grep -a $'\e' strings.txt | cat -v)"

# warnings: the module and the source file are gone
mv "$dir" gone
rm -f "$srcname"
# (the build-id cache, which pct record filled, would still name it)
export PCT_CACHE=0
check "report without the module" "$PCTBIN" report e.pct
grep -qF 'esc\x1b]0;x\x07\x9bprog' err.txt || fail "no warning that names the module: $(cat -v err.txt)"
"$PCTBIN" line s.tsv >/dev/null 2>err.txt
[ "$(raw err.txt)" = 0 ] || fail "line: raw escapes in warnings: $(cat -v err.txt)"
mv gone "$dir"
check "source without the file" "$PCTBIN" source e.pct
grep -F "cannot open source '" err.txt | grep -qF '/esc\x1b[2J' || fail "no warning that names the source: $(cat -v err.txt)"
[ $bad = 0 ] || fail "raw escapes reached the output"
pass "names with terminal escapes print escaped in every output; the flame graph is valid XML"
