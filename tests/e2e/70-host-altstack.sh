# pct's handler runs on the program's alternate signal stack (SA_ONSTACK,
# which Go wants).  Before: it wrote up to 1752 bytes below a 3072-byte
# stack (silent corruption; SIGSEGV with a guard page).  Now a thread whose
# alternate stack is smaller than the kernel's frame (AT_MINSIGSTKSZ) plus
# RT_HANDLER_STACK (4096) is not sampled while it has it, a program's own
# handler on that stack blocks pct's signal while it runs, and the depth
# pct writes is measured: the host paints its stack (guard page below) and
# reports the deepest byte written.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
H=$HOSTS/host-altstack
frame=$(LD_SHOW_AUXV=1 /bin/true | sed -n 's/^AT_MINSIGSTKSZ: *//p')
frame=${frame:-2048}
depths() {  # the depth each mode wrote, from host_modes' stderr files
	local m out=
	for m in "${MODE_NAMES[@]}"; do
		d=$(sed -n 's/^used \([0-9]*\) of.*/\1/p' "err.$m")
		[ -n "$d" ] || fail "$m: no depth: $(cat "err.$m")"
		[ "$d" -le $((frame + 4096)) ] || fail "$m: pct wrote $d bytes deep, more than the frame ($frame) + 4096"
		out="$out $m=$d"
	done
	echo "$out"
}
for size in legacy min 4096; do
	host_modes "alternate stack $size" "$H" $size 0.3 || exit 1
	echo "  depth written:$(depths)"
done
host_modes "alternate stack 4096, own handler" "$H" 4096 0.3 own || exit 1
echo "  depth written:$(depths)"
# large enough: sampled, 25 rounds of every mode (100 runs; make check: 8
# rounds, 32 runs) with the program's own handler on the stack every 5 ms
HOST_PLAIN_KEEP=1   # the plain run once: it does not change between rounds
for r in $(seq "$(full_or 25 8)"); do
	# (the host's own handler runs every 5 ms of wall-clock time with
	# pct's signal blocked: on a machine so loaded that the host gets a
	# small part of a CPU, most of its CPU time is in that handler, and a
	# mode may take no sample in a run (default=0 F5000=1114 wall=55 g=59
	# at load 9): such a round runs again, three times at most)
	for try in 1 2 3; do
		host_modes "round $r: alternate stack 8192, own handler" "$H" 8192 0.2 own >round.log || exit 1
		case "$SAMPLES " in *"=0 "*) ;; *) break ;; esac
		[ $try = 3 ] && fail "round $r: a mode took no samples on an 8 KiB stack in 3 runs:$SAMPLES"
		echo "round $r: a mode took no samples:$SAMPLES; again"
	done
	d=$(depths)
done
tail -1 round.log
echo "  depth written:$d (plain: $(sed -n 's/^used //p' plain.err))"
host_modes "alternate stack 65536" "$H" 65536 0.3 >round.log || exit 1
tail -1 round.log
echo "  depth written:$(depths)"
pass "small alternate stacks are safe; pct writes at most the frame + 4096 bytes"
