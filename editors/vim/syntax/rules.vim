" Vim syntax file
" Language: turnorder rules (.rules files: rulesets, setups and scenarios)
" Maintainer: The turnorder authors
" The keywords are the grammar's; a test in the dsl package checks that
" every one is here.

if exists("b:current_syntax")
  finish
endif

syn keyword rulesKeyword
      \ activate activation activations allowed alternate as attribute award
      \ before_after by changed choice chooser chooses decide default
      \ draw each end error event example expect first
      \ highest holder hook in is lowest no not of
      \ on once one order pass phase policy quote random
      \ ready remember remove reroll roll round ruleset scenario
      \ secretly seed sequential set side sides source standing start
      \ status step team tie unit unit_order units unless
      \ until when where
      \ bag deck die empty per reshuffle
" Scenarios: a unit that joins, a round's events as a whole list.
syn keyword rulesKeyword add events exactly to
syn keyword rulesType int string bool
syn keyword rulesConstant true false nil
syn keyword rulesOperatorWord and or matches contains startsWith endsWith

syn match rulesNumber "\<[0-9]\+\(\.[0-9]\+\)\=\>"
syn match rulesDice "\<[0-9]*d[0-9]\+\>"
syn match rulesDice "\<[0-9]\+D[0-9]\+\>"
syn match rulesOperator "==\|!=\|<=\|>=\|&&\|||\|??\|?\.\|\*\*\|\.\.\|[-+*/%<>!?|&^=]"
syn region rulesString start=+"+ skip=+\\.+ end=+"+ end=+$+ contains=rulesEscape
syn region rulesString start=+'+ skip=+\\.+ end=+'+ end=+$+ contains=rulesEscape
syn match rulesEscape "\\." contained
syn match rulesComment "#.*$" contains=@Spell

hi def link rulesKeyword Keyword
hi def link rulesType Type
hi def link rulesConstant Constant
hi def link rulesOperatorWord Operator
hi def link rulesOperator Operator
hi def link rulesNumber Number
hi def link rulesDice Number
hi def link rulesString String
hi def link rulesEscape SpecialChar
hi def link rulesComment Comment

let b:current_syntax = "rules"
