# Programs that rewrite their argv in place (git, perf, setproctitle end it
# with NULL): pct's fork handler copied the command line from the saved
# argv, and strlen(NULL) killed every forked child before it could exec.
# `pct record -- git gc` exited 128 ("pack-refs died of signal 11") and
# left loose objects; `perf record` printed "perf: Segmentation fault".
# The runtime now copies the command line once, with bounds, at its start
# (libpct(3), RESOURCES).  Each runs plain and in every mode.
. "$(dirname "$0")/lib.sh"
. "$ROOT/tests/hosts/lib.sh"
same_in_every_mode 1 "$HOSTS/host-argv" one two three
[ "$(cat plain.out)" = "$(printf 'child ran\nparent: child exited 0')" ] || fail "host-argv itself: $(cat plain.out)"
command -v git >/dev/null || fail "git is needed (Debian's git)"
git init -q repo || fail "git init"
for i in $(seq 1 40); do
	echo "$i" >"repo/f$i"
	git -C repo add "f$i" && git -C repo -c user.email=t@t -c user.name=t commit -qm "$i" || fail "commit $i"
done
git -C repo tag v1
# gc packs the 120 loose objects into one pack and packs the refs
cat >gc.sh <<'SH'
rm -rf r && cp -a repo r && git -C r gc -q && ls r/.git/objects/pack | grep -c '\.pack$' && git -C r count-objects | cut -d' ' -f1 && test -f r/.git/packed-refs && echo refs packed
SH
same_in_every_mode 1 sh gc.sh
[ "$(cat plain.out)" = "$(printf '1\n0\nrefs packed')" ] || fail "git gc itself: $(cat plain.out)"
if command -v perf >/dev/null && perf record -q -o /dev/null -- true 2>/dev/null; then
	same_in_every_mode 0 perf record -q -o perf.out -- true
else
	echo "perf record cannot run here: its case is left out"
fi
pass "argv rewritten in place: every forked child runs, git gc packs"
