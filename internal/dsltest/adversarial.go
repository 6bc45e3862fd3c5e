package dsltest

import (
	"fmt"
	"slices"
	"strings"
)

// Adversarial returns a .rules source of about size bytes (never more) of
// the given kind, a shape of input that is costly to lex, parse or
// recover from: the benchmarks and tests that keep Parse and the compiler
// fast on whatever a user gives them are written against these.
// AdversarialKinds lists the kinds.
func Adversarial(kind string, size int) []byte {
	g, ok := adversarial[kind]
	if !ok {
		panic("dsltest: no adversarial input of kind " + kind)
	}
	return g(size)
}

// AdversarialKinds returns the kinds Adversarial knows, sorted.
func AdversarialKinds() []string {
	var kinds []string
	for k := range adversarial {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}

// orderHead opens an order procedure, where criteria with expressions go.
const orderHead = "ruleset x {\n  sides 2\n  side attribute a int\n  phase p {\n    order sides as o {\n"

const orderTail = "    }\n  }\n}\n"

// fill repeats line (or what next returns for the i-th line) between head
// and tail, as often as fits in size bytes.
func fill(size int, head, tail string, next func(i int) string) []byte {
	var b strings.Builder
	b.WriteString(head)
	for i := 0; ; i++ {
		line := next(i)
		if b.Len()+len(line)+len(tail) > size {
			break
		}
		b.WriteString(line)
	}
	b.WriteString(tail)
	return []byte(b.String())
}

func lines(line string) func(int) string { return func(int) string { return line } }

// nested is n brackets around inner, opened from open and closed from close
// in turn.
func nested(n int, open, close, inner string) string {
	var b strings.Builder
	for i := range n {
		b.WriteByte(open[i%len(open)])
	}
	b.WriteString(inner)
	for i := n - 1; i >= 0; i-- {
		b.WriteByte(close[i%len(close)])
	}
	return b.String()
}

// oneLine is a single line of an order procedure, `lowest` and then what
// part returns for the i-th part, joined by " + ", as long as size allows.
func oneLine(size int, part func(int) string) []byte {
	return fill(size, orderHead+"      lowest a", "\n"+orderTail, func(i int) string { return " + " + part(i) })
}

var adversarial = map[string]func(size int) []byte{
	// Many criteria, each nested as deep as the limit allows.
	"deep-parens": func(size int) []byte {
		return fill(size, orderHead, orderTail, lines("      lowest "+nested(58, "(", ")", "a")+"\n"))
	},
	// Brackets of both kinds, nested deep, one criterion after another.
	"deep-mixed": func(size int) []byte {
		return fill(size, orderHead, orderTail, lines("      lowest "+nested(58, "([", ")]", "a")+"[0]\n"))
	},
	// One expression of many operators on one line.
	"long-expr": func(size int) []byte { return oneLine(size, func(int) string { return "a" }) },
	// One expression of many groups, each nested deep.
	"long-deep-expr": func(size int) []byte {
		return oneLine(size, func(int) string { return nested(58, "(", ")", "a") })
	},
	// One pair of brackets holding the whole file, over many lines.
	"long-bracket": func(size int) []byte {
		return fill(size, orderHead+"      lowest len([\n", "      ])\n"+orderTail, lines("        a + 1, a * 2, a ?? 3,\n"))
	},
	// Many lines of operators.
	"many-exprs": func(size int) []byte {
		return fill(size, orderHead, orderTail, lines("      lowest a"+strings.Repeat(" + a * 2", 30)+"\n"))
	},
	// Thousands of tie rules, with guards and blocks.
	"ties": func(size int) []byte {
		return fill(size, orderHead+"      highest roll d6\n", orderTail, func(i int) string {
			if i%2 == 0 {
				return fmt.Sprintf("      tie when a > %d: reroll\n", i)
			}
			return "      tie when len(tied) == 2 {\n        highest roll d6\n        tie: reroll\n      }\n"
		})
	},
	// Many top-level declarations: the sides of a setup file.
	"many-decls": func(size int) []byte {
		return fill(size, "", "", func(i int) string { return fmt.Sprintf("side S%d team T { unit U%d a = 1 }\n", i, i) })
	},
	// Many statements that are each a syntax error inside a block.
	"broken-stmts": func(size int) []byte {
		return fill(size, orderHead, orderTail, lines("      tie reroll\n"))
	},
	// Many broken lines at the top level: bare words.
	"broken-top": func(size int) []byte {
		return fill(size, "", "", lines("side S = \n"))
	},
	// A syntax error at the very end of a long, correct file.
	"late-error": func(size int) []byte {
		return fill(size, orderHead, "      tie reroll\n"+orderTail, lines("      lowest a + 1\n"))
	},
	// Many lines with a bracket that is never closed.
	"unclosed-brackets": func(size int) []byte {
		return fill(size, orderHead, orderTail, lines("      lowest (a + 1\n"))
	},
	// Many lines with a string that is never closed: lexical errors.
	"unclosed-strings": func(size int) []byte {
		return fill(size, "ruleset x {\n", "}\n", lines("  quote \"It's a long way\n"))
	},
	// Characters no token starts, on many lines: lexical errors.
	"foreign": func(size int) []byte {
		return fill(size, "ruleset x {\n", "}\n", lines("  sides 2 @\n"))
	},
	// Long strings.
	"long-strings": func(size int) []byte {
		return fill(size, "ruleset x {\n", "}\n", lines("  quote \""+strings.Repeat("a rulebook sentence ", 200)+"\"\n"))
	},
	// One string as long as the file.
	"one-string": func(size int) []byte {
		return []byte("ruleset x {\n  quote \"" + strings.Repeat("a", max(0, size-30)) + "\"\n}\n")
	},
	// Blocks opened and never closed, in a ruleset never closed.
	"unterminated": func(size int) []byte {
		return fill(size, "ruleset x {\n  sides 2\n", "", lines("  phase p {\n    order sides as o {\n      highest roll d6\n    }\n"))
	},
	// A brace too many after each of many blocks.
	"extra-braces": func(size int) []byte {
		return fill(size, "", "", lines("ruleset x {\n  sides 2\n}\n}\n"))
	},
	// Many steps nested as deep as the limit allows.
	"deep-blocks": func(size int) []byte {
		return fill(size, "ruleset x {\n  sides 2\n  phase p {\n", "  }\n}\n", lines(strings.Repeat("step s {\n", 58)+"hook h\n"+strings.Repeat("}\n", 58)))
	},
}
