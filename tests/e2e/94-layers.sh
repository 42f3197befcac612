# Commands are thin shells over the library layer (issue 16): no command
# object (src/cmd/cmd_*.c) calls a function defined in another command
# object, and no command file includes another command's header.  Proven
# over nm of the objects the build made (build/obj/src/cmd/cmd_*.o, or
# $LAYERS_OBJ, a directory of those objects, to check another tree).  And
# each folder of src/ includes only its own headers and those of the
# folders below it: cmd > export > report > attach > format > symbols > core, then
# include/ (README, Layout).
# pct-test: plain (it checks documents and sources against each other: nothing for the sanitizers)
. "$(dirname "$0")/lib.sh"
command -v nm >/dev/null || skip "no nm"
obj=${LAYERS_OBJ:-$ROOT/$B/obj/src/cmd}
src=${LAYERS_SRC:-$ROOT/src/cmd}
set -- "$obj"/cmd_*.o
[ -e "$1" ] || fail "no command objects in $obj (build first)"
[ $# -ge 12 ] || fail "only $# command objects in $obj"

bad=()
# each object's defined (text, data, bss, read-only) and undefined global
# symbols, as "OBJECT D|U SYMBOL" lines
for o in "$@"; do
	nm -g "$o" | awk -v o="$(basename "$o" .o)" '
		NF == 3 && $2 ~ /^[TDBRVW]$/ { print o, "D", $3 }
		NF == 2 && $1 == "U" { print o, "U", $2 }'
done >syms
[ -s syms ] || fail "nm printed nothing for $obj"
while read -r a s b; do
	bad+=("$a.c calls $s, defined in $b.c")
done < <(awk '$2 == "D" { def[$3] = def[$3] " " $1 } $2 == "U" { und[$1 " " $3] = 1 }
	END { for (k in und) { split(k, f, " "); n = split(def[f[2]], d, " ")
		for (i = 1; i <= n; i++) if (d[i] != f[1]) print f[1], f[2], d[i] } }' syms | sort)
awk '$2 == "D" { print $1 ".o", $3 }' syms >defs
# the checker finds what it looks for: a command object does call into the
# layer, so its undefined symbols are read
grep -q '^cmd_report U stage_sum$' syms || fail "nm shows no call to stage_sum in cmd_report.o"

# no command includes another command's header: a header a command file
# includes declares no function that another command object defines (the
# entry points cmd_NAME in commands.h are the dispatcher's, pct.c)
awk '{ print $2 }' defs | sort -u >all.def
for c in "$src"/cmd_*.c; do
	awk -v o="$(basename "$c" .c).o" '$1 == o { print $2 }' defs | sort -u >me.def
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$c"); do
		hp=$(ls "$src/$h" "$src"/../*/"$h" 2>/dev/null | head -n 1)
		[ -n "$hp" ] || continue
		case $h in
		cmd_*.h) bad+=("$(basename "$c") includes $h, a command's header"); continue ;;
		esac
		# the functions h declares (outside comments)
		sed -e 's|/\*.*\*/||g' -e '/^[[:space:]]*\(\/\*\|\*\)/d' "$hp" |
			grep -o '[A-Za-z_][A-Za-z0-9_]*[[:space:]]*(' | tr -d '( \t' | sort -u >decl
		other=$(comm -12 decl all.def | grep -v '^cmd_[a-z]*$' | comm -23 - me.def | tr '\n' ' ')
		[ -n "$other" ] && bad+=("$(basename "$c") includes $h, which declares other commands' ${other% }")
	done
done

# the dispatcher (pct.c) checks standard output once a command returns
# 0: output lost on a full disk exits 1 saying so, for every command
# that prints (no command checks it itself any more)
if [ -z "${LAYERS_OBJ:-}" ] && [ -w /dev/full ]; then
	printf 'module\tbuild_id\toffset\tsamples\n/x/prog\t\t0x10\t50\n' | "$PROGS/mkprofile" g.pct ||
		fail "mkprofile"
	"$PCTBIN" dump g.pct >g.tsv || fail "pct dump"
	for args in "report g.pct" "report --format=tsv g.pct" "dump g.pct" "sym g.tsv" "line g.tsv" \
		"sum --by=module g.tsv" "diff --normalize g.pct g.pct" \
		"export --format=callgrind g.pct" "--help" "--version" "help report" "report --help"; do
		# shellcheck disable=SC2086
		"$PCTBIN" $args >/dev/full 2>err
		rc=$?
		[ $rc = 1 ] && [ "$(tail -n 1 err)" = "pct: error writing the output: No space left on device" ] ||
			bad+=("pct $args >/dev/full: exit $rc, stderr: $(head -c 300 err)")
	done
fi

# the folders' include order: a file includes headers of its own folder
# or of a folder after it in this list (include/ and the generated
# profile.pb-c.h are below them all)
layers="cmd export report attach format symbols core"
rank() { local i=0 l; for l in $layers; do [ "$l" = "$1" ] && { echo $i; return; }; i=$((i + 1)); done; echo -1; }
nfiles=0
for d in "$src"/../*/; do
	d=$(basename "$d")
	# src/html/: the browser code the tool embeds (assets.S), no C
	if [ "$d" = html ]; then
		ls "$src/../html"/*.[ch] >/dev/null 2>&1 && bad+=("src/html/ holds C files: it is browser code only")
		continue
	fi
	[ "$(rank "$d")" -ge 0 ] || bad+=("src/$d/ is not a known layer ($layers)")
done
for l in $layers; do
	r=$(rank "$l")
	for f in "$src/../$l"/*.[ch]; do
		[ -e "$f" ] || continue
		nfiles=$((nfiles + 1))
		for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
			[ "$h" = profile.pb-c.h ] && continue
			[ -e "$ROOT/include/$h" ] && continue
			hp=$(ls "$src"/../*/"$h" 2>/dev/null | head -n 1)
			[ -n "$hp" ] || { bad+=("src/$l/$(basename "$f") includes $h, found in no layer"); continue; }
			hl=$(basename "$(dirname "$hp")")
			[ "$(rank "$hl")" -ge "$r" ] || bad+=("src/$l/$(basename "$f") includes $hl/$h, a layer above $l")
		done
	done
done
[ "$nfiles" -ge 60 ] || fail "only $nfiles files found in the layers"

if [ ${#bad[@]} -gt 0 ]; then
	printf '%s\n' "${bad[@]}" >&2
	fail "${#bad[@]} calls or includes across commands, or outputs lost"
fi
pass "$# command objects: none calls or includes another command; $nfiles files include only their own or lower layers"
