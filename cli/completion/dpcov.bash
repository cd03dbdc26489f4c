# bash completion of the dpcov command. Commands, options and the choices of an option are read
# from `dpcov --help` and `dpcov COMMAND --help` while completing, so they always match the
# program. Installed as share/bash-completion/completions/dpcov.

_dpcov_commands() {
  "$1" --help 2>/dev/null |
    awk '/^Subcommands:/ { on = 1; next } on && /^$/ { exit } on && /^  [a-z]/ { print $1 }'
}

_dpcov_options() {
  "$1" "$2" --help 2>/dev/null |
    awk '/^  -/ { n = split($1, names, ","); for (i = 1; i <= n; ++i) print names[i] }'
}

# The values of an option shown as TYPE:{a,b,c} in the help text.
_dpcov_choices() {
  "$1" "$2" --help 2>/dev/null |
    awk -v option="$3" '/^  -/ {
      n = split($1, names, ",")
      for (i = 1; i <= n; ++i)
        if (names[i] == option && match($0, /\{[^}]*\}/)) print substr($0, RSTART + 1, RLENGTH - 2)
    }' | tr ',' ' '
}

# The mechanism names `-m` takes, from `dpcov mechanisms`: each entry's name, or the variants
# its command line names ("release, ... as dly_gauss, dly_separate").
_dpcov_mechanisms() {
  "$1" mechanisms 2>/dev/null | awk '
    function flush() { if (name != "") print name; name = "" }
    /^ *([0-9]+|--)  [a-z0-9_]+  \[/ { flush(); name = $2; next }
    /^ *command:.* as / { sub(/.* as /, ""); gsub(/, */, "\n"); print; name = "" }
    END { flush() }'
}

_dpcov() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]} program=${COMP_WORDS[0]}
  COMPREPLY=()
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "$(_dpcov_commands "$program") --help --version" -- "$cur"))
    return
  fi
  local command=${COMP_WORDS[1]} choices=
  case $cur in
    -*)
      COMPREPLY=($(compgen -W "$(_dpcov_options "$program" "$command")" -- "$cur"))
      return
      ;;
  esac
  case $prev in
    -m | --mechanism | --mechanisms) choices=$(_dpcov_mechanisms "$program") ;;
    -*) choices=$(_dpcov_choices "$program" "$command" "$prev") ;;
  esac
  if [ -n "$choices" ]; then
    COMPREPLY=($(compgen -W "$choices" -- "$cur"))
  else
    COMPREPLY=($(compgen -f -- "$cur"))
  fi
}

complete -o filenames -F _dpcov dpcov
