# Hostile DWARF costs bounded time and memory, and the reports go on
# (exit 0) with a warning naming the file:
#  (a) 60,000 nested DW_TAG_lexical_block DIEs (a recursive walk overflowed
#      the stack): the walk stops at 256 levels;
#  (b) 400,000 sibling DW_TAG_inlined_subroutine DIEs over one range (the
#      sweep that flattens inline ranges was quadratic: 27 s here), and
#      20,000 that share a range list of 100,000 base-address entries
#      (libdw steps through them on each DIE's call: 21 s here); a list is
#      now read once;
#  (c) a .gnu_debugaltlink naming a FIFO, with the unit's DW_AT_comp_dir in
#      the dwz file (DW_FORM_GNU_strp_alt): libdw opened the FIFO itself and
#      report --by=line, annotate and source hung for ever;
#  (d) a compressed .debug_info (SHF_COMPRESSED, then GNU .zdebug_info)
#      that inflates to 128 MiB in a file of 0.6 MiB: libdw inflated it
#      (RSS 150 MB a report); it is refused as claiming more than 64 times
#      the file's size, and the module is read without its DWARF.
# Each command runs under timeout; RSS is measured with /usr/bin/time.
. "$(dirname "$0")/lib.sh"
command -v python3 >/dev/null || skip "no python3"
command -v cc >/dev/null || skip "no C compiler"
command -v objcopy >/dev/null || skip "no objcopy"

# gen.py KIND N [ALTPATH] > prog.s: a main that spins (about 0.15 s) with
# DWARF 4 written by hand: a unit, a subprogram over main and, by KIND,
# N nested lexical blocks (nest), N sibling inlined subroutines that all
# cover main through one range list (inline; with shared, the list opens
# with ALTPATH base-address entries), or a unit whose comp_dir is a string
# of the dwz file named by ALTPATH (alt).  The line table is gas's
# (.loc).  The inlined subroutines are inline constants, no relocation: the
# range list is at offset 0 of .debug_ranges, the only one in the program.
cat >gen.py <<'EOF'
import sys
kind, n = sys.argv[1], int(sys.argv[2])
alt = kind == "alt"
p = print
p('''	.text
	.globl main
	.type main, @function
main:
.Lbegin:
	.file 1 "hostile.c"
	.loc 1 3
	movl $150000000, %ecx
.Lloop:
	.loc 1 4
	decl %ecx
	jnz .Lloop
	.loc 1 5
	xorl %eax, %eax
	ret
.Lend:
	.size main, .-main
	.section .note.GNU-stack,"",@progbits
	.section .debug_line,"",@progbits
.Lline0:
	.section .debug_str,"MS",@progbits,1
.Lname: .asciz "hostile.c"
.Ldir: .asciz "/hostile"
.Lf: .asciz "spin"
	.section .debug_abbrev,"",@progbits
	.uleb128 1, 0x11, 1, 0x03, 0x0e''')
p('	.uleb128 0x1b, %s' % ('0x1f21' if alt else '0x0e'))
p('''	.uleb128 0x11, 0x01, 0x12, 0x07, 0x10, 0x17, 0, 0
	.uleb128 2, 0x2e, 1, 0x03, 0x0e, 0x11, 0x01, 0x12, 0x07, 0, 0
	.uleb128 3, 0x0b, 1, 0, 0
	.uleb128 4, 0x1d, 0, 0x03, 0x08, 0x55, 0x17, 0x58, 0x0b, 0x59, 0x0b, 0, 0
	.byte 0
	.section .debug_ranges,"",@progbits''')
if kind == "shared":
    p('	.rept %d' % int(sys.argv[3]))
    p('	.quad -1, .Lbegin')
    p('	.endr')
p('''	.quad 0, .Lend - .Lbegin
	.quad 0, 0
	.section .debug_aranges,"",@progbits
	.long 44
	.value 2
	.long .Linfo0
	.byte 8, 0
	.long 0
	.quad .Lbegin, .Lend - .Lbegin
	.quad 0, 0
	.section .debug_info,"",@progbits
.Linfo0:
	.long .Linfo_end - .Linfo_start
.Linfo_start:
	.value 4
	.long .debug_abbrev
	.byte 8
	.uleb128 1
	.long .Lname''')
p('	.long 0' if alt else '	.long .Ldir')
p('''	.quad .Lbegin
	.quad .Lend - .Lbegin
	.long .Lline0
	.uleb128 2
	.long .Lf
	.quad .Lbegin
	.quad .Lend - .Lbegin''')
if kind == "nest":
    p('	.fill %d, 1, 3' % n)
    p('	.fill %d, 1, 0' % n)
elif kind in ("inline", "shared"):
    p('	.rept %d' % n)
    p('	.byte 4')
    p('	.asciz "inl"')
    p('	.long 0')
    p('	.byte 1, 7')
    p('	.endr')
p('''	.byte 0
	.byte 0
.Linfo_end:''')
if alt:
    p('\t.section .gnu_debugaltlink,"",@progbits\n\t.asciz "%s"' % sys.argv[3])
    p('\t.byte ' + ','.join(str(i) for i in range(20)))
EOF

# zpatch.py ELF SECTION MIB: ELF's section SECTION (compressed by objcopy)
# replaced by a zlib stream of MIB MiB of zeros, appended to the file
cat >zpatch.py <<'EOF'
import struct, sys, zlib
path, name, mib = sys.argv[1], sys.argv[2], int(sys.argv[3])
b = bytearray(open(path, 'rb').read())
shoff, = struct.unpack_from('<Q', b, 0x28)
shentsize, shnum, shstrndx = struct.unpack_from('<HHH', b, 0x3a)
def sh(i): return list(struct.unpack_from('<IIQQQQIIQQ', b, shoff + i * shentsize))
stroff = sh(shstrndx)[4]
def nm(h): return bytes(b[stroff + h[0]:b.index(0, stroff + h[0])]).decode()
c = zlib.compressobj(1)
zero = bytes(1 << 20)
z = b''.join(c.compress(zero) for _ in range(mib)) + c.flush()
for i in range(shnum):
    h = sh(i)
    if nm(h) != name:
        continue
    if name.startswith('.zdebug'):
        blob = b'ZLIB' + struct.pack('>Q', mib << 20) + z
    else:
        blob = struct.pack('<IIQQ', 1, 0, mib << 20, 1) + z
        h[2] |= 0x800
    while len(b) % 8:
        b.append(0)
    h[4], h[5] = len(b), len(blob)
    b += blob
    struct.pack_into('<IIQQQQIIQQ', b, shoff + i * shentsize, *h)
    open(path, 'wb').write(b)
    sys.exit(0)
sys.exit('no section ' + name)
EOF

# pct ARGS... within LIMIT s (default 20): out, err; $st its status, $ms its
# wall time, $kb its largest RSS (KiB) when /usr/bin/time is there
kb=0
run() {
	local limit=20
	[ "$1" = -t ] && { limit=$2; shift 2; }
	local t0; t0=$(date +%s%N)
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o rss timeout -k 2 "$limit" "$PCTBIN" "$@" >out 2>err </dev/null
		st=$?
		kb=$(tail -1 rss)
	else
		timeout -k 2 "$limit" "$PCTBIN" "$@" >out 2>err </dev/null
		st=$?
	fi
	ms=$(( ($(date +%s%N) - t0) / 1000000 ))
	case $st in
	124|137) fail "pct $* hung (killed after $limit s)" ;;
	0) ;;
	*) fail "pct $* exited $st (status > 128: killed by a signal): $(head -c 300 err)" ;;
	esac
}

record() {
	"$PCTBIN" record -o "$1.pct" "./$1" >/dev/null 2>rec.err || fail "record $1: $(cat rec.err)"
}

# (a) deep nesting, under the usual 8 MiB stack
python3 gen.py nest 60000 >nest.s && cc -o nest nest.s || fail "cc nest"
record nest
(ulimit -s 8192; run report --by=line nest.pct; echo "$st $ms" >nest.st) || exit 1
read -r st ms <nest.st
grep -q "'[^']*': the compile unit at offset 0x[0-9a-f]* nests DIEs deeper than 256 levels" err ||
	fail "(a) no warning about the nesting: $(cat err)"
grep -q 'hostile.c  *4 ' out || fail "(a) the hot line is missing: $(cat out)"
echo "(a) 60000 nested blocks: report --by=line in $ms ms: $(head -1 err)"

# (b) many siblings: the inline frame is found, fast
python3 gen.py inline 400000 >inline.s && cc -o inline inline.s || fail "cc inline"
record inline
run -t 10 report --by=line inline.pct
grep -q 'hostile.c  *4  .*inl@/hostile/hostile.c:7' out || fail "(b) the inline frame is missing: $(cat out)"
[ "$ms" -lt 5000 ] || fail "(b) 400000 sibling inlined subroutines took $ms ms"
echo "(b) 400000 sibling inlined subroutines: report --by=line in $ms ms"
python3 gen.py shared 20000 100000 >shared.s && cc -o shared shared.s || fail "cc shared"
record shared
run -t 10 report --by=line shared.pct
grep -q 'hostile.c  *4  .*inl@/hostile/hostile.c:7' out || fail "(b) shared: the inline frame is missing: $(cat out)"
echo "(b) 20000 inlined subroutines sharing a list of 100000 base-address entries: $ms ms"

# (c) the dwz file is a FIFO: never opened, the unit's directory is unknown
mkfifo alt.fifo || fail "mkfifo"
python3 gen.py alt 0 "$SCRATCH/alt.fifo" >alt.s && cc -o alt alt.s || fail "cc alt"
record alt
for c in "report --by=line" annotate source; do
	run -t 10 $c alt.pct
	echo "(c) pct $c with a FIFO as the dwz file: $ms ms, status 0"
done
grep -q 'hostile.c  *4 ' <("$PCTBIN" report --by=line alt.pct 2>/dev/null) || fail "(c) no line without the dwz file"

# (d) compressed sections that claim 128 MiB (two programs: two build-ids)
cat >small.c <<'EOF'
static volatile unsigned long sink;
int main(void) { for (unsigned long i = 0; i < 100000000UL; i++) sink += i * STEP; return 0; }
EOF
step=1
for form in zlib-gabi:.debug_info zlib-gnu:.zdebug_info; do
	sec=${form#*:}
	step=$((step + 1))
	cc -g -O1 -DSTEP=$step -o zprog small.c && objcopy --compress-debug-sections="${form%%:*}" zprog &&
		python3 zpatch.py zprog "$sec" 128 || fail "(d) make the $sec bomb"
	record zprog
	run report --by=line zprog.pct
	[ "$(grep -c "compressed section [0-9]* ($sec) claims to inflate to 134217728 bytes" err)" = 1 ] ||
		fail "(d) $sec: want one warning naming the section: $(cat err)"
	grep -q "^pct: warning: '[^']*': compressed section .*more than 64 times the file's [0-9]* bytes: its debug information is not read" err ||
		fail "(d) $sec: the warning: $(cat err)"
	grep -q 'main' out || fail "(d) $sec: main is not named: $(cat out)"
	[ "$kb" -lt 98304 ] || fail "(d) $sec: a report took $kb KiB of RSS"
	echo "(d) $sec claiming 128 MiB: $ms ms, ${kb} KiB RSS: $(cat err)"
	mv zprog.pct "zprog$sec.pct"
done
pass "hostile DWARF: bounded walk, n log n sweep, no dwz file opened by libdw, compressed claims refused"
