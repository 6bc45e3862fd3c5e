# fish completion for turnorder: source it,
#
#   turnorder completion fish | source
#
# or save it as ~/.config/fish/completions/turnorder.fish. The candidates
# come from turnorder itself: commands, flags, bundled rulesets and .rules
# files.

function __turnorder_complete
    set -l words (commandline -opc)
    # Quoted, so that an empty word at the cursor is passed on as one.
    set -l cur (commandline -ct)
    turnorder __complete $words[2..-1] "$cur" 2>/dev/null
end

complete -c turnorder -f -a '(__turnorder_complete)'
