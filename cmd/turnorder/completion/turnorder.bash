# bash completion for turnorder: source it, or put it where
# bash-completion looks (~/.local/share/bash-completion/completions/turnorder):
#
#   source <(turnorder completion bash)
#
# The candidates come from turnorder itself: commands, flags, bundled
# rulesets and .rules files.

_turnorder() {
    local out line
    out=$(turnorder __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) || return
    # One candidate a line, read as it is: not split on spaces, not globbed.
    COMPREPLY=()
    while IFS= read -r line; do
        [[ -n $line ]] && COMPREPLY+=("$line")
    done <<<"$out"
    # A directory is completed on into: no space after its slash.
    if [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == */ ]]; then
        compopt -o nospace 2>/dev/null
    fi
}

complete -F _turnorder turnorder
