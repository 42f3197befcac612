# If the profile cannot be created, the program runs on unchanged: same
# output, same exit status, and exactly one warning on stderr.
# pct-test: plain (its subject is the runtime, which build-san leaves uninstrumented: the sanitized run adds nothing)
. "$(dirname "$0")/lib.sh"
awk 'BEGIN { srand(3); for (i = 0; i < 20000; i++) print rand() }' >in
gzip -9 -c in >plain.gz; echo $? >plain.rc
PCT=/nonexistent/dir/x.pct LD_PRELOAD=$LIBPCT gzip -9 -c in >pct.gz 2>err; echo $? >pct.rc
cmp plain.gz pct.gz || fail "output differs"
cmp plain.rc pct.rc || fail "exit status differs"
[ "$(wc -l <err)" -eq 1 ] || fail "expected one warning: $(cat err)"
grep -q "^pct: cannot create the profile.*/nonexistent/dir/x.pct" err || fail "warning does not name the file: $(cat err)"
mkdir ro && chmod 555 ro
if [ "$(id -u)" -ne 0 ]; then
	PCT=ro/x.pct LD_PRELOAD=$LIBPCT gzip -9 -c in >ro.gz 2>err
	cmp plain.gz ro.gz || fail "output differs (read-only dir)"
fi
pass "$(cat err)"
