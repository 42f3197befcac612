# setuid and setgid programs are never profiled: a static program with the
# runtime linked in, setuid root, run by another user, has AT_SECURE set,
# and secure_getenv hides $PCT from it.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
[ "$(id -u)" -eq 0 ] || skip "needs root to make a setuid-root copy and run it as another user"
command -v setpriv >/dev/null || skip "needs setpriv (util-linux) to run as another user"
mkdir suid && chmod 777 suid
cp "$PROGS/selftime-static" suid/prog && chmod 4755 suid/prog
(cd suid && PCT=s.pct setpriv --reuid=65534 --regid=65534 --clear-groups ./prog 0.3 >/dev/null) || fail "setuid run failed"
[ -z "$(ls suid | grep pct)" ] || fail "a setuid program was profiled: $(ls suid)"
chgrp 0 suid/prog && chmod 2755 suid/prog && [ -g suid/prog ] || fail "cannot make a setgid copy"
(cd suid && PCT=s.pct setpriv --reuid=65534 --regid=65534 --clear-groups ./prog 0.3 >/dev/null) || fail "setgid run failed"
[ -z "$(ls suid | grep pct)" ] || fail "a setgid program was profiled: $(ls suid)"
# control: the same binary without the bits is profiled
chmod 755 suid/prog
(cd suid && PCT=s.pct setpriv --reuid=65534 --regid=65534 --clear-groups ./prog 0.3 >/dev/null)
[ -f suid/s.pct ] || fail "control: the plain copy was not profiled: $(ls suid)"
pass "setuid and setgid: not profiled; the same binary without them: profiled"
