#!/bin/sh
# Writes the man page of `dpcov` (COMMAND empty) or of `dpcov COMMAND` (page dpcov-COMMAND) from
# the command's own --help and --version text with help2man, so that the pages say exactly what
# --help says and cannot drift from it.
# Usage: make_man_page.sh HELP2MAN DPCOV COMMAND OUTPUT [ALL_COMMANDS...]
set -eu
help2man="$1"
dpcov="$2"
command="$3"
output="$4"
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# help2man runs "PROGRAM OPTION"; a wrapper named like the page gives it the page's name.
page=dpcov${command:+-$command}
# help2man takes the page's name from the first word of --version: the wrapper answers
# "dpcov-COMMAND VERSION" (commands have no --version of their own).
cat > "$work/$page" <<WRAPPER
#!/bin/sh
if [ "\$1" = --version ]; then "$dpcov" --version | sed 's/^dpcov/$page/'; exit; fi
exec "$dpcov" $command "\$@"
WRAPPER
chmod +x "$work/$page"
if [ -n "$command" ]; then
  # The first sentence of the command's description names it.
  name=$("$dpcov" "$command" --help | head -n 1 | sed 's/\([.:]\) .*/\1/; s/[.:]$//')
  printf '[SEE ALSO]\n.BR dpcov (1)\n' > "$work/include"
else
  name="differentially private second-moment and covariance matrices"
  { printf '[SEE ALSO]\n'
    for c in "$@"; do printf '.BR dpcov-%s (1),\n' "$c"; done
    printf 'and the README of the dpcov sources.\n'; } > "$work/include"
fi
"$help2man" --no-info --section=1 --manual="dpcov manual" --source=dpcov \
  --version-option=--version --name="$name" --include="$work/include" \
  --output="$output" "$work/$page"
