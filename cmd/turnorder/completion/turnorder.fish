# fish completion for turnorder: source it,
#
#   turnorder completion fish | source
#
# or save it as ~/.config/fish/completions/turnorder.fish. The candidates
# come from turnorder itself: commands, flags, bundled rulesets and .rules
# files.

function __turnorder_complete
    set -l words (commandline -opc) (commandline -ct)
    turnorder __complete $words[2..-1] 2>/dev/null
end

complete -c turnorder -f -a '(__turnorder_complete)'
