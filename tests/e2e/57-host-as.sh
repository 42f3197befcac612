# An address-space limit (ulimit -v) 10 MiB above what the program uses:
# its own malloc(8 MiB) must still succeed under pct.  pct leaves the
# program max(64 MiB, a quarter of the limit) of headroom, so here it
# gives up at start with one warning.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
vm=$("$HOSTS/host-as" probe) || fail "probe"
PRE="ulimit -v $((vm + 10 * 1024))"
host_modes "ulimit -v $((vm + 10 * 1024)) (VmSize $vm kB + 10 MiB)" "$HOSTS/host-as"
for m in "${MODE_NAMES[@]}"; do
	[ "$(grep -c 'address space limit leaves no room' "err.$m")" = 1 ] && [ "$(wc -l <"err.$m")" = 1 ] ||
		fail "$m: expected one warning: $(cat "err.$m")"
done
# with 200 MiB of headroom pct samples as usual
PRE="ulimit -v $((vm + 200 * 1024))"
host_modes "ulimit -v +200 MiB" "$HOSTS/host-as"
case "$SAMPLES" in *" default=0"*) fail "no samples with 200 MiB of headroom; pct said: $(cat err.default); dump said: $(cat dump.err 2>/dev/null)";; esac
pass "ulimit -v: the program's malloc works in every mode"
