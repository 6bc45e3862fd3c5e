" turnorder's .rules files: rulesets, setups and scenarios. Vim takes
" *.rules for other languages of its own (udev rules, hog), so this sets
" the filetype outright rather than with setfiletype, which would not
" replace Vim's guess.
autocmd BufRead,BufNewFile *.rules set filetype=rules
