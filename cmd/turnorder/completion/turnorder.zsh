#compdef turnorder
# zsh completion for turnorder: source it after compinit,
#
#   source <(turnorder completion zsh)
#
# or save it as _turnorder in a directory of $fpath. The candidates come
# from turnorder itself: commands, flags, bundled rulesets and .rules files.

_turnorder() {
    local -a out dirs others
    out=("${(@f)$(turnorder __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    out=(${out:#})
    dirs=(${(M)out:#*/})
    others=(${out:#*/})
    (( $#others )) && compadd -- "${others[@]}"
    # A directory is completed on into: no space after its slash.
    (( $#dirs )) && compadd -S '' -- "${dirs[@]}"
}

if [[ $funcstack[1] == _turnorder ]]; then
    _turnorder "$@"
else
    compdef _turnorder turnorder
fi
