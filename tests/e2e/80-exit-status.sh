# pct(1)'s promise: a usage error (an unknown option, a bad option value, a
# missing operand, an -o that cannot be used) exits 2; a runtime error (a
# missing or corrupt input) exits 1; each with a message on stderr.  Every
# command `pct help` lists is called.  And '-' is standard input for the
# commands that read profiles.
. "$(dirname "$0")/lib.sh"
P=$PCTBIN
printf 'module\tbuild_id\toffset\tsamples\n/x/prog\t\t0x10\t50\n/x/lib\t\t0x20\t30\n' | "$PROGS/mkprofile" g.pct ||
	fail "mkprofile"
"$P" dump g.pct >g.tsv
head -c 300 /dev/urandom >junk.pct
printf 'PCTPROF\0garbage' >bad.pct
bad=()
# expect STATUS CMD ARGS...: the exit status and a message on stderr
expect() {
	local want=$1; shift
	"$P" "$@" </dev/null >out 2>err
	local rc=$?
	if [ "$rc" -ne "$want" ] || [ ! -s err ]; then
		bad+=("pct $* exited $rc (want $want), stderr: $(head -c 200 err)")
	fi
}
commands=$("$P" help | awk '/^Commands:/ { on = 1; next } on && NF { print $1 }')
[ "$(echo "$commands" | wc -l)" -ge 12 ] || fail "pct help lists too few commands: $commands"
for c in $commands; do
	expect 2 "$c" --no-such-option g.pct
	expect 2 "$c" -Q g.pct
done
expect 2 help no-such-command
expect 2 no-such-command

# a bad value for every option that takes one
expect 2 record -F abc true
expect 2 record -F 0 true
expect 2 record --freq=-5 true
expect 2 record -e no-such-event true
expect 2 record -c abc -e cycles true
expect 2 record --stack-bytes=abc -g true
expect 2 record -o
for c in report sum; do
	f=g.pct; [ $c = sum ] && f=g.tsv
	expect 2 $c --format=xml $f
	expect 2 $c -n abc $f
	expect 2 $c --rows=-1 $f
	expect 2 $c --min-samples=many $f
	expect 2 $c --split=galaxy $f
done
expect 2 report --by=galaxy g.pct
expect 2 report --callers
expect 2 sum --by=galaxy g.tsv
expect 2 sum g.tsv
expect 2 diff --by=galaxy g.pct g.pct
expect 2 diff --by=thread g.pct g.pct
expect 2 diff --by=process g.pct g.pct
expect 2 diff --format=xml g.pct g.pct
expect 2 diff --alpha=abc g.pct g.pct
expect 2 diff --alpha=2 g.pct g.pct
expect 2 diff -n abc g.pct g.pct
expect 2 diff g.pct
expect 2 export --format=galaxy g.pct
expect 2 export g.pct
expect 2 flame --width=abc -o f.svg g.pct
expect 2 flame --width=0 -o f.svg g.pct
expect 2 merge g.pct
expect 2 annotate -n abc g.pct
expect 2 annotate --functions=-3 g.pct
expect 2 source -n abc g.pct
expect 2 source --files=x g.pct
expect 2 annotate --source-root=/nonexistent/dir g.pct
expect 2 source --source-root=/nonexistent/dir g.pct
expect 2 merge -o
expect 2 export -o
expect 2 flame -o
expect 2 flame --title
for c in report dump merge diff export flame annotate source; do
	expect 2 $c
done

# runtime errors: a missing, a random and a truncated profile
for f in missing.pct junk.pct bad.pct; do
	expect 1 report $f
	expect 1 dump $f
	expect 1 diff $f g.pct
	expect 1 merge -o m.pct $f
	expect 1 export --format=folded -o x.folded $f
	expect 1 flame -o f.svg $f
	expect 1 annotate $f
	expect 1 source $f
done
printf 'not\ta\tpct\ttsv\n' >junk.tsv
expect 1 sym junk.tsv
expect 1 line junk.tsv
expect 1 sum --by=module junk.tsv
expect 1 sym missing.tsv
# an -o that cannot be created once the inputs are read is a runtime error,
# as for flame and merge (tests/e2e/43-outputs.sh)
expect 1 export --format=folded -o /nonexistent/dir/x.folded g.pct
expect 1 merge -o /nonexistent/dir/m.pct g.pct
if [ ${#bad[@]} -gt 0 ]; then
	printf '%s\n' "${bad[@]}" >&2
	fail "${#bad[@]} wrong exit statuses"
fi
pass "usage errors exit 2 and runtime errors 1, with a message"

# '-' is standard input
"$P" report g.pct >file.txt 2>/dev/null
cat g.pct | "$P" report - >stdin.txt 2>/dev/null || fail "cat g.pct | pct report - failed"
diff <(sed 1d file.txt) <(sed 1d stdin.txt) || fail "report - differs from report FILE"
head -1 stdin.txt | grep -q '^# standard input: pid ' || fail "report - should name standard input: $(head -1 stdin.txt)"
cat g.pct | "$P" dump - | grep -v '^#pct file=' >stdin.tsv || fail "cat g.pct | pct dump - failed"
diff <(grep -v '^#pct file=' g.tsv) stdin.tsv || fail "dump - differs from dump FILE"
printf 'module\tbuild_id\toffset\tsamples\n/x/prog\t\t0x10\t7\n' | "$PROGS/mkprofile" h.pct || fail "mkprofile h.pct"
cat h.pct | "$P" report --format=tsv g.pct - | awk -F'\t' 'NR > 1 { n += $1 } END { exit n != 87 }' ||
	fail "report FILE - should sum both (87 samples)"
# the same profile as a file and on standard input: refused
cat g.pct | "$P" report g.pct - >/dev/null 2>err.txt; rc=$?
[ $rc = 1 ] && grep -qF "'g.pct' and 'standard input' hold the same profile" err.txt ||
	fail "report g.pct - of g.pct: exit $rc, $(cat err.txt)"
cat g.pct | "$P" report - - >/dev/null 2>err && fail "a second '-' must be refused"
grep -q "standard input" err || fail "a second '-': $(cat err)"
"$P" report - <junk.pct >/dev/null 2>err; rc=$?
[ $rc -eq 1 ] && grep -q "standard input" err || fail "junk on standard input: status $rc, $(cat err)"
pass "'-' reads standard input"
