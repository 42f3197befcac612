# The bash completion (scripts/pct-completion.bash, installed as
# share/bash-completion/completions/pct), driven as bash drives it:
# COMP_WORDS and COMP_CWORD set, _pct called, COMPREPLY checked.  Its
# lists of values are checked against the tool's --help, both ways, so
# neither can drift from the other.
# pct-test: plain (it checks documents and sources against each other: nothing for the sanitizers)
. "$(dirname "$0")/lib.sh"
. "$ROOT/scripts/pct-completion.bash"
complete -p pct | grep -q -- '-F _pct' || fail "the script registers no completion for pct"

# complete WORD...: COMPREPLY for the command line WORD... (the last word
# being completed), sorted, one line
complete_words() {
	COMP_WORDS=("$PCTBIN" "$@")
	COMP_CWORD=$#
	COMP_LINE="${COMP_WORDS[*]}"
	COMP_POINT=${#COMP_LINE}
	COMPREPLY=()
	_pct "$PCTBIN" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
	printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ' | sed 's/ $//'
}
expect() {	# expect WANT WORD...
	local want=$1; shift
	local got; got=$(complete_words "$@")
	[ "$got" = "$want" ] || fail "pct $* <TAB>: got '$got', want '$want'"
	echo "pct $* <TAB>: $got"
}
sorted() { tr ' ' '\n' | grep . | sort | tr '\n' ' ' | sed 's/ $//'; }

# commands: every one pct --help lists (and help, --help, --version)
cmds=$("$PCTBIN" --help | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }' | sorted)
[ "$(echo "$cmds" | wc -w)" -ge 17 ] || fail "pct --help lists only: $cmds"
expect "$(echo "$cmds --help --version help" | sorted)" ""
expect "record report" re
expect "timeline top" t
expect "$cmds" help ""

# options, from each command's --help
expect "--callees= --callers=" report --ca
expect "--event=" record --ev
expect "--by=" report -l --b
expect "--call-graph --count=" record --c
expect "--max-size=" cache --m
expect "list prune" cache ""
for c in $cmds; do
	# every long option a command's --help shows is offered for "--"
	got=$(complete_words "$c" --)
	for o in $("$PCTBIN" "$c" --help | grep -oE '^ +(-[A-Za-z], )?--[a-z][a-z-]*' | grep -oE -- '--[a-z][a-z-]*'); do
		case " $got " in *" $o "* | *" $o= "*) ;; *) fail "pct $c --<TAB> lacks $o (got: $got)" ;; esac
	done
done

# values, in all three shapes bash gives them: --by= VALUE (COMP_WORDBREAKS
# has "="), --by=VALUE as one word, and -e VALUE
views="function module address line file thread process"
expect "$(echo "$views" | sorted)" report --by = ""
expect "file function" report --by = f
expect "--by=file --by=function" report --by=f
expect "thread" report --split = th
expect "text tsv" report --format = ""
events="cpu user wall cycles instructions cache-misses branch-misses"
expect "$(echo "$events" | sorted)" record -e ""
expect "cache-misses cpu cycles" record -e c
expect "wall" record --event = w
expect "$(echo "$events" | sorted)" top -e ""
formats="gmon gperftools pprof callgrind folded speedscope perf-script"
expect "$(echo "$formats" | sorted)" export --format = ""
expect "--format=perf-script --format=pprof" export --format=p
expect "function thread" timeline --by = ""
expect "perf ptrace" record --mechanism = ""
expect "--mechanism=ptrace" top --mechanism=pt
# diff's --check takes its value only after "=" (an optional argument):
# "--check VALUE" would be a file, so no value is offered there
expect "faster slower" diff --check = ""
expect "--check=slower" diff --check=s
[ -z "$(complete_words diff --check sl)" ] || fail "pct diff --check <TAB> offers $(complete_words diff --check sl)"
grep -q -- "--check\[=slower|faster\]" <<<"$("$PCTBIN" diff --help)" || fail "pct diff --help has no --check[=slower|faster]"
rec_help=$("$PCTBIN" record --help)
grep -q -- "--mechanism=perf|ptrace" <<<"$rec_help" || fail "pct record --help has no --mechanism=perf|ptrace"

# the lists against the tool's help, both ways
rec=$("$PCTBIN" record --help)
for e in $events; do grep -qw -- "$e" <<<"$rec" || fail "event $e is not in pct record --help"; done
# every word of the -e option's description block that names an event
help_events=$(awk '/^  -e, --event=EVENT/ { on = 1 } on && /^  -[A-Za-z], / && !/--event/ { exit } on' <<<"$rec" |
	sed 's/^  -e, --event=EVENT//; s/ (default)//' | grep -oE '^ *[a-z][a-z, -]*:' | tr -d ':' | tr ',' '\n' | sed 's/^ *//' | grep . | sorted)
[ "$help_events" = "$(echo "$events" | sorted)" ] ||
	fail "pct record --help lists events '$help_events', the completion '$events'"
help_views=$("$PCTBIN" report --help | awk '/^  --by=VIEW/ { on = 1; sub(/--by=VIEW/, "") } on && /^  --/ && !/--by=/ { exit } on' |
	grep -oE '^ +[a-z]+( \(default\))?:' | grep -oE '[a-z]+' | grep -v default | sorted)
[ "$help_views" = "$(echo "$views" | sorted)" ] || fail "pct report --help lists views '$help_views', the completion '$views'"
help_formats=$("$PCTBIN" export --help | grep -oE '^  --format=[a-z-]+' | sed 's/.*=//' | sorted)
[ "$help_formats" = "$(echo "$formats" | sorted)" ] ||
	fail "pct export --help lists formats '$help_formats', the completion '$formats'"
"$PCTBIN" timeline --help | grep -q "^  --by=ROWS       'thread' (default) or 'function'" ||
	fail "pct timeline --help: --by is no longer thread or function"
# and the tool takes each value (a bad one is refused: the test can fail)
"$PCTBIN" record -o r.pct -e nosuchevent true >/dev/null 2>&1 && fail "pct record took -e nosuchevent"
for e in cpu user wall; do
	"$PCTBIN" record -o "r-$e.pct" -e "$e" true >/dev/null 2>err || fail "pct record -e $e: $(cat err)"
done
"$PCTBIN" record -o v.pct "$PROGS/selftime" 0.2 >/dev/null 2>&1 || fail "record for the views"
for v in $views; do "$PCTBIN" report --by="$v" v.pct >/dev/null 2>err || fail "pct report --by=$v: $(cat err)"; done
"$PCTBIN" report --by=nosuchview v.pct >/dev/null 2>&1 && fail "pct report took --by=nosuchview"
pass "completion: commands, options, events, views, formats"
