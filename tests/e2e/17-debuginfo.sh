# Separate debug info found by build-id: with Debian's libc6-dbg
# installed (/usr/lib/debug/.build-id/...), samples in libc resolve to
# glibc source lines.  The test installs the package when it can.
# pct-test: plain (gcov: its sanitized run executes no line of src/ that the rest of the sanitized subset leaves out, in two runs of each; make check-full runs it sanitized)
. "$(dirname "$0")/lib.sh"
if ! dpkg-query -W -f='${Status}' libc6-dbg 2>/dev/null | grep -q 'install ok installed'; then
	if [ "$(id -u)" -eq 0 ]; then
		apt_get install -y -qq libc6-dbg >/dev/null 2>&1 ||
			{ apt_get update -qq >/dev/null 2>&1 && apt_get install -y -qq libc6-dbg >/dev/null 2>&1; }
	fi
	dpkg-query -W -f='${Status}' libc6-dbg 2>/dev/null | grep -q 'install ok installed' ||
		skip "libc6-dbg is not installed and cannot be installed here (not root, or no package archive)"
fi
libc=$(ldd "$PROGS/libcwork" | awk '/libc\.so/ { print $3 }')
id=$(readelf -n "$(readlink -f "$libc")" | awk '/Build ID/ { print $3 }')
[ -f "/usr/lib/debug/.build-id/${id:0:2}/${id:2}.debug" ] || skip "libc6-dbg does not match this libc ($id)"
"$PCTBIN" record -o l.pct "$PROGS/libcwork" >/dev/null 2>&1 || fail "record"
"$PCTBIN" dump l.pct | "$PCTBIN" sym | "$PCTBIN" line >l.tsv
# libc's samples: how many have a source line now?
awk -F'\t' '!/^#/ && NR > 1 && $1 ~ /\/libc\.so\.6$/ { all += $4; if ($9 != "[unknown]") lined += $4 }
	END { printf "libc: %d of %d samples have a source line\n", lined, all; exit !(all >= 50 && lined * 10 >= all * 9) }' l.tsv ||
	fail "libc samples did not resolve to lines"
"$PCTBIN" report --by=line --format=tsv l.pct | awk -F'\t' 'NR > 1 && $8 ~ /msort\.c$/' | head -3 | grep -q . ||
	fail "no row in glibc's msort.c: $("$PCTBIN" report --by=line l.pct | head)"
pass "$("$PCTBIN" report --by=line -n 4 l.pct | tail -4)"
