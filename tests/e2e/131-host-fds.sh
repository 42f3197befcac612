# The program's descriptors are its own.  A program that closes every
# descriptor and opens its own files (daemons, closefrom), and a shell's
# `exec 5>log`, got pct's numbers: the wall sampler kept /proc/self/task
# open and lseek'd it every pass, so the program's file was rewound every
# 4 ms (a bash script kept 601 of 700 lines).  The sampler's descriptors
# now live in a descriptor table of its own (libpct(3), RESOURCES).
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
host_modes "closefrom, then 7 files" "$HOSTS/host-fds"
[ "$(cat plain.out)" = "7 files of 200 lines" ] || fail "plain: $(cat plain.out)"
same_in_every_mode 0 "$HOSTS/host-fds"
# a shell that opens descriptors 3-9 with exec and writes 100 lines to each
cat >fds.sh <<'SH'
exec 3>f3 4>f4 5>f5 6>f6 7>f7 8>f8 9>f9
i=0
while [ $i -lt 100 ]; do
	for fd in 3 4 5 6 7 8 9; do echo "line $i" >&$fd; done
	i=$((i + 1))
	[ $((i % 10)) = 0 ] && sleep 0.02
done
exec 3>&- 4>&- 5>&- 6>&- 7>&- 8>&- 9>&-
cat f3 f4 f5 f6 f7 f8 f9 | wc -l
SH
same_in_every_mode 0 bash fds.sh
[ "$(cat plain.out)" = 700 ] || fail "bash, plain: $(cat plain.out) lines"
pass "no descriptor of the program's is touched by pct in any mode"
