# A module whose section headers are corrupt names no function and no line;
# pct says so, once per module, naming the file and what is wrong, instead
# of silently reporting MODULE+0x... rows.
. "$(dirname "$0")/lib.sh"
cp "$PROGS/selftime" prog || fail "cp"
"$PCTBIN" record -o p.pct ./prog 1 >/dev/null 2>&1 || fail "record"
"$PCTBIN" report --format=tsv p.pct 2>err >good.tsv || fail "report of the intact program"
[ -s err ] && fail "warnings for an intact program: $(cat err)"
grep -q $'\twork_a$' good.tsv || fail "work_a missing: $(cat good.tsv)"
size=$(stat -c %s prog)
# poke VALUE (little-endian, BYTES wide) at OFFSET of a copy of prog, in place
poke() { cp prog.orig prog; perl -e 'open F, "+<", "prog" or die; seek F, $ARGV[0], 0; print F pack($ARGV[2], $ARGV[1]); close F' "$@"; }
cp prog prog.orig
check() {
	local what=$1
	"$PCTBIN" report --format=tsv p.pct >bad.tsv 2>err || fail "$what: report failed: $(cat err)"
	[ "$(grep -c "corrupt section headers" err)" = 1 ] || fail "$what: want one warning, got: $(cat err)"
	grep -q "'$SCRATCH/prog': corrupt section headers: $2" err || fail "$what: the warning: $(cat err)"
	# the report and sym and line all open the module: still one warning each run
	"$PCTBIN" report --by=line p.pct 2>&1 >/dev/null | grep -c "corrupt section headers" | grep -qx 1 ||
		fail "$what: more than one warning for one module with --by=line"
}
# e_shoff (0x28, 8 bytes) past the end of the file
poke 40 $((size + 4096)) Q
check "e_shoff" "the section header table (offset 0x[0-9a-f]*, [0-9]* entries) lies past the end of the file ($size bytes)"
# e_shstrndx (0x3e, 2 bytes) not a section
poke 62 999 S
check "e_shstrndx" "the section name table index (e_shstrndx 999) is not a section"
# .symtab's sh_offset past the end of the file
shoff=$(readelf -hW prog.orig | awk '/Start of section headers/ { print $5 }')
idx=$(readelf -SW prog.orig | sed -n 's/^ *\[ *\([0-9]*\)\] \.symtab .*/\1/p')
[ -n "$idx" ] || skip "selftime has no .symtab"
poke $((shoff + idx * 64 + 24)) $((size * 4)) Q
check ".symtab" "section $idx (.symtab) at offset 0x[0-9a-f]*, 0x[0-9a-f]* bytes, lies past the end of the file"
cp prog.orig prog
pass "corrupt section headers: one warning per module naming the file and the fault"
