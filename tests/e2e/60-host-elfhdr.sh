# The module scan reads the ELF header of the last offset-0 mapping of a
# file that also has an executable mapping.  A PROT_NONE header page
# (SIGSEGV if read) or one past the end of a truncated file (SIGBUS) must
# not fault in the program: pct copies it with process_vm_readv.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
# each mode must sample (HOST_MIN: again, a second later, if a run took
# none: an oversubscribed machine's tick can miss a short run's CPU-time
# timers, libpct(3))
HOST_MIN=1 host_modes "PROT_NONE ELF header" "$HOSTS/host-elfhdr" none
case "$SAMPLES" in *" default=0"*) fail "no samples";; esac
HOST_MIN=1 host_modes "truncated ELF file" "$HOSTS/host-elfhdr" trunc
case "$SAMPLES" in *" default=0"*) fail "no samples";; esac
pass "unreadable ELF headers cost no fault"
