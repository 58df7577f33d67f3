# SPDX-License-Identifier: GPL-2.0
# bash completion for kab: commands, options (from 'kab CMD
# --completion-helper', so never out of date), job names, and the run
# ids and kernel labels of the database (--db, $KAB_DB or the default).
#
# Installed as /usr/share/bash-completion/completions/kab; or
#   source completion/kab.bash

_kab_words()
{
	# what kab offers; the database named by --db if one was typed
	if [ -n "$_kab_db" ]; then
		kab --db "$_kab_db" --completion-helper "$@" 2>/dev/null
	else
		kab --completion-helper "$@" 2>/dev/null
	fi
}

_kab()
{
	local cur prev cmd sub i w words_opts
	cur=${COMP_WORDS[COMP_CWORD]}
	prev=${COMP_WORDS[COMP_CWORD-1]}
	_kab_db=
	cmd=
	sub=
	COMPREPLY=()

	# the command (after global options) and ci's subcommand
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case "$w" in
		--db)
			_kab_db=${COMP_WORDS[i+1]}
			[ -z "$cmd" ] && ((i++))
			;;
		--db=*)
			_kab_db=${w#--db=}
			;;
		-*) ;;
		*)
			if [ -z "$cmd" ]; then
				cmd=$w
			elif [ "$cmd" = ci ] && [ -z "$sub" ]; then
				sub=$w
			fi
			;;
		esac
	done

	# an option's value
	case "$prev" in
	--db|--kernel|--tree|--kconfig|--base|--junit|--summary|--output|-o|--profile|--csv)
		COMPREPLY=($(compgen -f -- "$cur"))
		return
		;;
	--job)
		COMPREPLY=($(compgen -W "$(_kab_words jobs)" -- "$cur")
			   $(compgen -f -X '!*.y*ml' -- "$cur"))
		return
		;;
	--kernel-label|--label)
		COMPREPLY=($(compgen -W "$(_kab_words labels)" -- "$cur"))
		return
		;;
	--kpi|--metric)
		COMPREPLY=($(compgen -W "$(_kab_words metrics)" -- "$cur"))
		return
		;;
	--set|--only)
		COMPREPLY=($(compgen -W "$(_kab_words params)" -- "$cur"))
		compopt -o nospace 2>/dev/null
		return
		;;
	--monitors)
		COMPREPLY=($(compgen -W "$(_kab_words monitors)" -- "$cur"))
		return
		;;
	--target)
		COMPREPLY=($(compgen -W "local qemu ssh:// lava:local" -- "$cur"))
		compopt -o nospace 2>/dev/null
		return
		;;
	--clock)
		COMPREPLY=($(compgen -W "auto icount wall icount:" -- "$cur"))
		return
		;;
	--test)
		COMPREPLY=($(compgen -W "welch mwu lkp" -- "$cur"))
		return
		;;
	--fail-on)
		COMPREPLY=($(compgen -W "regression change" -- "$cur"))
		return
		;;
	--format)
		# each command's own formats, as its --help lists them
		COMPREPLY=($(compgen -W "$(_kab_words formats $cmd)" -- "$cur"))
		return
		;;
	esac

	if [ -z "$cmd" ]; then
		if [[ "$cur" == -* ]]; then
			COMPREPLY=($(compgen -W "--db --help --version" -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$(_kab_words commands)" -- "$cur"))
		fi
		return
	fi
	if [ "$cmd" = ci ] && [ -z "$sub" ]; then
		COMPREPLY=($(compgen -W "matrix gate" -- "$cur"))
		return
	fi
	if [[ "$cur" == -* ]]; then
		# '--runs=' takes a value: offered as '--runs'
		words_opts=$(kab $cmd $sub --completion-helper 2>/dev/null |
			     sed 's/=$//')
		COMPREPLY=($(compgen -W "$words_opts" -- "$cur"))
		return
	fi
	case "$cmd$sub" in
	run|cimatrix)
		COMPREPLY=($(compgen -W "$(_kab_words jobs)" -- "$cur")
			   $(compgen -f -X '!*.y*ml' -- "$cur"))
		compopt -o filenames 2>/dev/null
		;;
	compare|report|cigate|show|export|plan|rm|relabel)
		COMPREPLY=($(compgen -W "$(_kab_words labels) $(_kab_words runs)" \
			     -- "$cur"))
		;;
	import|merge)
		COMPREPLY=($(compgen -f -- "$cur"))
		compopt -o filenames 2>/dev/null
		;;
	help)
		COMPREPLY=($(compgen -W "$(_kab_words commands)" -- "$cur"))
		;;
	esac
}
complete -F _kab kab
