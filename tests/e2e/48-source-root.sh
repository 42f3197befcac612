# pct source prints whatever file a module's DWARF names: a profile and
# binary from someone else can make it print /etc/passwd (or a key) into a
# listing that gets published.  --source-root=DIR reads only files under
# DIR, after resolving symlinks and "..": the rest are "not shown", and
# only the line table is listed.
. "$(dirname "$0")/lib.sh"
command -v cc >/dev/null || fail "cc is missing"
secret=TOP-SECRET-$$

# a program whose DWARF names a secret file outside the tree
mkdir -p tree outside
{ echo "/* $secret */"; printf '#include "%s"\n' "$ROOT/tests/progs/burn.h"
  echo 'DEFINE_BURN(, work)'
  echo 'int main(void) { work(0.3); return 0; }'; } >outside/leak.c
cc -O2 -g -o tree/leak outside/leak.c || fail "cc leak"
sampled leak.pct leak.err "$PCTBIN" record -o leak.pct tree/leak >/dev/null || fail "record leak: $(cat leak.err)"
[ -f leak.pct ] || fail "record leak left no leak.pct: $(cat leak.err)"
"$PCTBIN" source leak.pct >all.txt 2>&1 || fail "source: $(cat all.txt)"
grep -q "$secret" all.txt || fail "without --source-root the file is not printed: $(head -5 all.txt)"
"$PCTBIN" source --source-root=tree leak.pct >root.txt 2>&1 || fail "source --source-root: $(cat root.txt)"
grep -q "$secret" root.txt && fail "--source-root=tree printed a file outside it: $(head -5 root.txt)"
grep -q "source not shown: outside --source-root" root.txt || fail "no note that the file was not shown: $(cat root.txt)"
grep -Eq '^=> +[0-9]+ +[0-9.]+% +[0-9]+$' root.txt || fail "no line table instead: $(cat root.txt)"
echo "a file outside --source-root: $(grep 'not shown' root.txt)"

# symlinks and .. are resolved: a link in the tree to the secret is outside
mkdir -p tree/src && ln -s ../../outside/leak.c tree/src/leak.c
"$PCTBIN" source -S tree/src --source-root=tree leak.pct >link.txt 2>&1 || fail "source -S: $(cat link.txt)"
grep -q "$secret" link.txt && fail "a symlink in the root reached a file outside it: $(head -5 link.txt)"
"$PCTBIN" source --source-root=tree/../outside leak.pct >dots.txt 2>&1 || fail "source ..: $(cat dots.txt)"
grep -q "$secret" dots.txt || fail "--source-root=tree/../outside did not read the file in it: $(head -5 dots.txt)"
# a copy inside the root is read (found through -S)
rm tree/src/leak.c && cp outside/leak.c tree/src/leak.c
"$PCTBIN" source -S tree/src --source-root=tree leak.pct >copy.txt 2>&1 || fail "source copy: $(cat copy.txt)"
grep -q "$secret" copy.txt || fail "the copy under the root was not read: $(head -5 copy.txt)"
grep -q "read from tree/src/leak.c" copy.txt || fail "not read from the copy: $(head -3 copy.txt)"
# repeatable; annotate too
"$PCTBIN" source --source-root=tree --source-root=outside leak.pct | grep -q "$secret" || fail "a second --source-root is ignored"
"$PCTBIN" annotate --source-root=tree leak.pct >ann.txt 2>&1 || fail "annotate: $(cat ann.txt)"
grep -q "$secret" ann.txt && fail "annotate printed a file outside the root"
grep -q "source not shown: outside --source-root" ann.txt || fail "annotate: no note: $(head -8 ann.txt)"
"$PCTBIN" source --source-root=no-such-dir leak.pct >/dev/null 2>err.txt && fail "a missing root was accepted"
grep -q "source-root 'no-such-dir'" err.txt || fail "unclear error: $(cat err.txt)"

# the attack as it is: DWARF that names /etc/passwd
[ -r /etc/passwd ] || skip "no /etc/passwd"
{ printf '#include "%s"\n' "$ROOT/tests/progs/burn.h"; echo '#line 1 "/etc/passwd"'
  echo 'DEFINE_BURN(, work)'
  echo 'int main(void) { work(0.3); return 0; }'; } >passwd.c
cc -O2 -g -o tree/pw passwd.c || fail "cc passwd"
sampled pw.pct pw.err "$PCTBIN" record -o pw.pct tree/pw >/dev/null || fail "record pw: $(cat pw.err)"
[ -f pw.pct ] || fail "record pw left no pw.pct: $(cat pw.err)"
first=$(head -1 /etc/passwd)
"$PCTBIN" source pw.pct 2>&1 | grep -qF "$first" || fail "without --source-root /etc/passwd is not printed"
"$PCTBIN" source --source-root="$PWD" pw.pct >pw.txt 2>&1 || fail "source pw: $(cat pw.txt)"
grep -qF "$first" pw.txt && fail "--source-root printed /etc/passwd"
grep -q "source not shown" pw.txt || fail "no note for /etc/passwd: $(cat pw.txt)"
pass "--source-root keeps files outside it (symlinks and .. resolved) out of source and annotate listings"
