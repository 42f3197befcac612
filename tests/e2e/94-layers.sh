# Commands are thin shells over the library layer (issue 16): no command
# object (src/cmd_*.c) calls a function defined in another command object,
# and no command file includes another command's header.  Proven over nm
# of the objects the build made (build/obj/src/cmd_*.o, or $LAYERS_OBJ, a
# directory of those objects, to check another tree).
. "$(dirname "$0")/lib.sh"
command -v nm >/dev/null || skip "no nm"
obj=${LAYERS_OBJ:-$ROOT/$B/obj/src}
src=${LAYERS_SRC:-$ROOT/src}
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
		[ -e "$src/$h" ] || continue
		case $h in
		cmd_*.h) bad+=("$(basename "$c") includes $h, a command's header"); continue ;;
		esac
		# the functions h declares (outside comments)
		sed -e 's|/\*.*\*/||g' -e '/^[[:space:]]*\(\/\*\|\*\)/d' "$src/$h" |
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

if [ ${#bad[@]} -gt 0 ]; then
	printf '%s\n' "${bad[@]}" >&2
	fail "${#bad[@]} calls or includes across commands, or outputs lost"
fi
pass "$# command objects: none calls or includes another command"
