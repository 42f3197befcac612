# The module scan reads the ELF header of the last offset-0 mapping of a
# file that also has an executable mapping.  A PROT_NONE header page
# (SIGSEGV if read) or one past the end of a truncated file (SIGBUS) must
# not fault in the program: pct copies it with process_vm_readv.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
host_modes "PROT_NONE ELF header" "$HOSTS/host-elfhdr" none
case "$SAMPLES" in *" default=0"*) fail "no samples";; esac
host_modes "truncated ELF file" "$HOSTS/host-elfhdr" trunc
case "$SAMPLES" in *" default=0"*) fail "no samples";; esac
pass "unreadable ELF headers cost no fault"
