# Inputs named by someone else: a FIFO, a device node or a 10 GiB sparse
# file given as the profile is refused at once with a message naming it
# (exit 1), and a profile naming FIFOs and devices as modules is reported
# without ever opening them.  Every run is bounded by timeout; a FIFO with
# a writer waiting on its open tells whether pct opened it.
. "$(dirname "$0")/lib.sh"
T=timeout
writers=

# run NAME STATUS... -- PCT ARGS: pct within 20 s, with one of the wanted
# exit statuses; its stderr is in err.
run() {
	local name=$1 ok=; shift
	local want=
	while [ "$1" != -- ]; do want="$want $1"; shift; done
	shift
	$T -k 2 20 "$PCTBIN" "$@" >out 2>err </dev/null
	local st=$?
	[ $st = 124 ] || [ $st = 137 ] && fail "$name: pct $* hung (killed after 20 s)"
	for w in $want; do [ "$st" = "$w" ] && ok=1; done
	[ -n "$ok" ] || fail "$name: pct $* exited $st, wanted$want: $(head -c 300 err)"
}

# the profile operand of each command that reads profiles
cmds() {
	local f=$1
	echo "report $f"; echo "dump $f"; echo "annotate $f"; echo "source $f"
	echo "export --format=folded $f"; echo "flame $f"; echo "diff $f $f"; echo "merge -o m.pct $f"
}

# 1. A FIFO, a device node and a huge sparse file as the profile.
mkfifo fifo.pct
inputs="fifo.pct"
mknod null.pct c 1 3 2>/dev/null && inputs="$inputs null.pct"
truncate -s 10G sparse.pct || skip "cannot make a sparse file here"
inputs="$inputs sparse.pct"
for f in $inputs; do
	cmds "$f" | while read -r line; do
		# shellcheck disable=SC2086
		run "$f" 1 -- $line
		grep -q "'$f'" err || fail "$f: pct $line: the message does not name the file: $(cat err)"
		[ ! -e m.pct ] || fail "$f: merge wrote an output"
	done || exit 1
done
# the sparse file: the header is checked before anything else is read
if [ -x /usr/bin/time ]; then
	s=$(date +%s%N)
	/usr/bin/time -f %M -o rss $T 20 "$PCTBIN" report sparse.pct >/dev/null 2>err
	e=$(( ($(date +%s%N) - s) / 1000000 ))
	[ "$e" -lt 5000 ] || fail "a 10 GiB sparse file took $e ms to refuse"
	[ "$(tail -1 rss)" -lt 100000 ] || fail "a 10 GiB sparse file took $(tail -1 rss) KB of memory"
fi
grep -q "bad magic" err || fail "sparse: $(cat err)"

# 2. A real profile stretched to 10 GiB, its table claiming 2^28 slots
# that are holes: it is valid, and reads fast and small.
printf 'module\tbuild_id\toffset\tsamples\n%s\t\t4096\t7\n%s\t\t8192\t5\n' \
	"$PROGS/selftime" "$PROGS/selftime" | "$PROGS/mkprofile" small.pct || fail "mkprofile"
"$PCTBIN" dump small.pct >small.tsv || fail "dump small.pct"
cp small.pct big.pct
python3 - big.pct <<'EOF' || fail "patching big.pct"
import struct, sys, os
f = open(sys.argv[1], 'r+b')
h = f.read(256)
table_offset, = struct.unpack_from('<Q', h, 168)
size = 10 << 30
f.seek(24); f.write(struct.pack('<Q', size))
f.seek(176); f.write(struct.pack('<Q', 1 << 28))
f.truncate(size)
assert table_offset + (1 << 28) * 24 <= size
EOF
s=$(date +%s%N)
/usr/bin/time -f %M -o rss $T 20 "$PCTBIN" dump big.pct >big.tsv 2>err || fail "dump big.pct: $(cat err)"
e=$(( ($(date +%s%N) - s) / 1000000 ))
sed -i "s/file=big.pct/file=small.pct/" big.tsv
cmp -s small.tsv big.tsv || fail "big.pct reads differently: $(diff small.tsv big.tsv)"
[ "$e" -lt 5000 ] || fail "a 10 GiB profile with a sparse table took $e ms"
[ "$(tail -1 rss)" -lt 100000 ] || fail "a 10 GiB profile with a sparse table took $(tail -1 rss) KB"
# ... and one whose string pool claims 8 GiB: refused from its header
python3 - big.pct <<'EOF' || fail "patching big.pct"
import struct, sys
f = open(sys.argv[1], 'r+b')
f.seek(120); f.write(struct.pack('<QQ', 8 << 30, 8 << 30))
EOF
s=$(date +%s%N)
/usr/bin/time -f %M -o rss $T 20 "$PCTBIN" dump big.pct >/dev/null 2>err
st=$?
e=$(( ($(date +%s%N) - s) / 1000000 ))
[ $st = 1 ] && grep -q "'big.pct': string pool" err || fail "a pool of 8 GiB: status $st: $(cat err)"
[ "$e" -lt 5000 ] || fail "a pool of 8 GiB took $e ms to refuse"
[ "$(tail -1 rss)" -lt 100000 ] || fail "a pool of 8 GiB took $(tail -1 rss) KB"
rm -f sparse.pct big.pct

# 3. A profile naming a FIFO (with a writer waiting to see it opened), a
# device node and a real program as modules.
mkfifo mod.fifo
$T 60 sh -c ': >mod.fifo' &
writers="$writers $!"
modnull=/dev/null
mknod mod.null c 1 3 2>/dev/null && modnull=$PWD/mod.null
printf 'module\tbuild_id\toffset\tsamples\n%s\t\t4096\t7\n%s\t\t4096\t5\n%s\t\t4096\t3\n' \
	"$PWD/mod.fifo" "$modnull" "$PROGS/selftime" | "$PROGS/mkprofile" mods.pct || fail "mkprofile"
for line in "report mods.pct" "report --by=line mods.pct" "annotate mods.pct" "source mods.pct" \
	"dump mods.pct" "export --format=callgrind mods.pct"; do
	# shellcheck disable=SC2086
	run "modules" 0 1 -- $line
done
sleep 1
for w in $writers; do
	kill -0 "$w" 2>/dev/null || fail "pct opened the FIFO named as a module"
	kill "$w" 2>/dev/null
	wait "$w" 2>/dev/null
done
# the filters' TSV inputs: a device is refused unopened; a FIFO is read
# as a pipe (a shell's <(...)), and one with no writer is given up after
# a bounded wait
mkfifo tsv.fifo
for cmd in "sym" "line" "sum --by=module"; do
	# shellcheck disable=SC2086
	timeout 10 "$PCTBIN" $cmd "$modnull" >/dev/null 2>err; rc=$?
	[ $rc = 1 ] && grep -q "character device, not a regular file" err ||
		fail "pct $cmd of a device: status $rc: $(cat err)"
done
# (the two wait at once, each on a FIFO of its own)
mkfifo tsv2.fifo
timeout 20 "$PCTBIN" sym tsv.fifo >/dev/null 2>err1 & w1=$!
timeout 20 "$PCTBIN" sum --by=module tsv2.fifo >/dev/null 2>err2 & w2=$!
for w in "1 $w1 sym" "2 $w2 sum --by=module"; do
	read -r i pid cmd <<<"$w"
	wait "$pid"; rc=$?
	[ $rc = 1 ] && grep -q "a FIFO with no writer (waited 5 s)" err$i ||
		fail "pct $cmd of a FIFO with no writer: status $rc: $(cat err$i)"
done
# a writer that comes late (after the reader opened) is waited for
( sleep 1; cat small.tsv > tsv.fifo ) &
timeout 20 "$PCTBIN" sym tsv.fifo >got.tsv 2>err || fail "sym from a FIFO: $(cat err)"
wait
[ "$(wc -l <got.tsv)" -eq "$(wc -l <small.tsv)" ] || fail "sym from a FIFO lost rows"
left=$(ps -o pid=,args= --ppid $$ | grep -v ' ps ' | grep -cF "$PCTBIN")
[ "$left" -eq 0 ] || fail "processes left behind: $(ps -o pid=,args= --ppid $$)"
# impossible counts in the header are refused with the field named
# (before: "18446744073709551615 more samples were dropped"); offsets
# from include/pct_format.h: samples 192, dropped 200, stacks_dropped 280
"$PROGS/mkprofile" cnt.pct <"$ROOT/tests/golden/input.tsv" || fail "mkprofile"
for f in samples:192 dropped:200 stacks_dropped:280; do
	cp cnt.pct bad.pct
	printf '\377\377\377\377\377\377\377\377' | dd of=bad.pct bs=1 seek=${f#*:} conv=notrunc 2>/dev/null
	"$PCTBIN" report bad.pct >/dev/null 2>err; st=$?
	[ $st = 1 ] || fail "${f%:*} all ones: exit $st: $(cat err)"
	grep -q "header field ${f%:*} is 18446744073709551615" err || fail "${f%:*} all ones: $(cat err)"
done
"$PCTBIN" report cnt.pct >/dev/null || fail "the unpatched profile"
pass "FIFOs, devices and sparse files refused; modules that are not files never opened"
