# bash completion for pct(1); installed as
# $(PREFIX)/share/bash-completion/completions/pct, or source it.
#
# Commands and each command's options are read from the pct being
# completed (`pct --help`, `pct CMD --help`), so they follow the tool.  The
# values of options are listed here; tests/e2e/115-completion.sh checks
# them against `pct record --help`, `pct report --help`, `pct export
# --help`, `pct timeline --help` and `pct diff --help`.

# what -e/--event takes (pct record, pct top)
_pct_events="cpu user wall cycles instructions cache-misses branch-misses"
# pct report --by (and pct diff --by, which takes the first five)
_pct_views="function module address line file thread process"
_pct_diff_views="function module address line file"
_pct_timeline_views="thread function"
_pct_export_formats="gmon gperftools pprof callgrind folded speedscope perf-script"
_pct_text_formats="text tsv"
_pct_splits="thread process"
# pct diff --check[=WHAT]: a value only after "=" (an optional argument)
_pct_checks="slower faster"
# pct record --mechanism, pct top --mechanism
_pct_mechanisms="perf ptrace"

# _pct_commands PCT: the commands `PCT --help` lists under "Commands:"
_pct_commands()
{
	"$1" --help 2>/dev/null | awk '/^Commands:/ { on = 1; next } on && /^$/ { exit } on { print $1 }'
}

# _pct_options PCT CMD: the options of `PCT CMD --help`, each from the
# start of an option line ("  -o, --output=FILE  ..."): -x, --name, or
# --name= when it takes a value
_pct_options()
{
	"$1" "$2" --help 2>/dev/null | sed -n 's/^ *\(-[^ ].*\)$/\1/p' | sed 's/   *.*//' |
		tr ',' '\n' | sed -n 's/^ *\(-[A-Za-z0-9]\)\( .*\)\{0,1\}$/\1/p; s/^ *\(--[A-Za-z0-9][A-Za-z0-9-]*=\{0,1\}\).*/\1/p'
}

# _pct_values CMD OPTION: the values OPTION takes in CMD, if listed here
_pct_values()
{
	case $1:$2 in
	record:-e | record:--event | top:-e | top:--event) echo "$_pct_events" ;;
	report:--by) echo "$_pct_views" ;;
	diff:--by) echo "$_pct_diff_views" ;;
	timeline:--by) echo "$_pct_timeline_views" ;;
	export:--format) echo "$_pct_export_formats" ;;
	report:--format | sum:--format | diff:--format | timeline:--format) echo "$_pct_text_formats" ;;
	report:--split | sum:--split) echo "$_pct_splits" ;;
	record:--mechanism | top:--mechanism) echo "$_pct_mechanisms" ;;
	diff:--check) echo "$_pct_checks" ;;
	record:-p | record:--pid | top:-p | top:--pid) ps -e -o pid= 2>/dev/null | tr -d ' ' ;;
	*) return 1 ;;
	esac
}

_pct()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev= pct=${COMP_WORDS[0]} cmd= i
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()
	# the command: the first word after pct
	if [ "$COMP_CWORD" -eq 1 ]; then
		COMPREPLY=($(compgen -W "$(_pct_commands "$pct") help --help --version" -- "$cur"))
		return 0
	fi
	cmd=${COMP_WORDS[1]}
	if [ "$cmd" = help ]; then
		[ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "$(_pct_commands "$pct")" -- "$cur"))
		return 0
	fi
	# pct record/top -- COMMAND...: complete the command as bash would
	for ((i = 2; i < COMP_CWORD; i++)); do
		if [ "${COMP_WORDS[i]}" = -- ]; then
			if [ "$cmd" = record ] || [ "$cmd" = top ]; then
				if declare -F _command_offset >/dev/null; then
					_command_offset $((i + 1))
				else
					COMPREPLY=($(compgen -c -- "$cur"))
				fi
			else
				COMPREPLY=($(compgen -f -- "$cur"))
			fi
			return 0
		fi
	done
	local vals
	# --opt=VALUE: bash splits "=" into a word of its own (COMP_WORDBREAKS)
	if [ "$cur" = = ] && vals=$(_pct_values "$cmd" "$prev"); then
		COMPREPLY=($(compgen -W "$vals"))
		return 0
	fi
	if [ "$prev" = = ] && [ "$COMP_CWORD" -ge 3 ] &&
		vals=$(_pct_values "$cmd" "${COMP_WORDS[COMP_CWORD - 2]}"); then
		COMPREPLY=($(compgen -W "$vals" -- "$cur"))
		return 0
	fi
	# --opt=VALUE as one word (COMP_WORDBREAKS without "=")
	case $cur in
	--*=*)
		if vals=$(_pct_values "$cmd" "${cur%%=*}"); then
			COMPREPLY=($(compgen -P "${cur%%=*}=" -W "$vals" -- "${cur#*=}"))
			return 0
		fi
		;;
	esac
	# -e EVENT, --by VIEW (not --check, whose value must follow "=")
	if [ "$prev" != --check ] && vals=$(_pct_values "$cmd" "$prev"); then
		COMPREPLY=($(compgen -W "$vals" -- "$cur"))
		return 0
	fi
	case $prev in
	-o | --output | -S | --source-dir | --source-root | --symfs) COMPREPLY=($(compgen -f -- "$cur")); return 0 ;;
	esac
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "$(_pct_options "$pct" "$cmd")" -- "$cur"))
		# no space after an option that takes a value
		[[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return 0
	fi
	case $cmd in
	record) COMPREPLY=($(compgen -c -- "$cur")) ;;
	cache) [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W "list prune" -- "$cur")) ;;
	*)	# profiles, and directories on the way to them
		COMPREPLY=($(compgen -f -X '!*.pct' -- "$cur") $(compgen -d -- "$cur")) ;;
	esac
	return 0
}
complete -F _pct pct
