// Package dsl is the .rules language: its lexer and participle grammar, the
// AST, compiler-style diagnostics, and the formatter.
//
// A .rules file holds rulesets and scenarios. A ruleset describes who acts
// first in a game:
//
//	ruleset mesbg "Middle-earth SBG: Priority Phase" {
//	  sides 2
//	  phase priority {
//	    order sides as priority {
//	      highest roll d6
//	      tie when round == 1: reroll
//	      tie: award not previous.chooser
//	      choice first by winner default self
//	    }
//	  }
//	}
//
// Statements end at the end of a line (or at ';'). Expressions inside rules
// (`round == 1`, `sum(units, .movement)`) are expr-lang code: the parser
// only finds where each one begins and ends, keeping its exact text in
// Expr.Source, and the runtime compiles it, so that an error inside an
// expression is reported at its true line and column in the file.
//
// A scenario is a worked example, checked by package conformance:
//
//	scenario "Jay and Rob" {
//	  ruleset mesbg
//	  side Jay
//	  side Rob
//	  round 1 { roll Jay 4, Rob 2; Jay chooses Jay; expect holder Jay }
//	}
//
// # The tree
//
// Parse returns a *File. Every type in the tree is a Node, which says where
// it starts and ends (Pos and End); the parser records both in the Span
// each node embeds. Where a block holds statements of several kinds, the
// kinds share an interface, one for each sort of block (RuleStmt,
// PhaseItem, Criterion, Action, SetupStmt, SideItem, ScenarioStmt,
// RoundStmt, and Decl at the top): each has an unexported method, so the
// types of this package are all there are, and a type switch over one
// lists them all. Walk visits a tree's nodes, parents first, in source
// order.
//
// Where a statement takes one of a fixed set of words (`activation
// alternate`, `order units`, `choice before_after`, `on end of step`), the
// field has a type of its own with a constant for each word, such as
// ActivationMode and Alternate, so that code comparing it with a word
// that does not exist does not compile. Expressions are the exception to
// typing: an Expr keeps its source text, for the runtime to compile.
//
// Parse reports every syntax error it can, as Diagnostics in source order
// that render like a compiler's: "file:line:col: error: message", the
// source line and a caret. After an error in a statement, it sets that
// statement aside and parses on, so independent mistakes are all reported;
// after an error that breaks the block structure (a "{" or "}" missing),
// it sets aside the declaration, and goes on only from the next one. The
// file it returns with errors leaves out every declaration that has one. Input larger than MaxSourceBytes (256 KiB) or
// nested deeper than MaxDepth is refused before parsing, since a
// recursive-descent parser has no other guard against a stack overflow.
//
// The package does no I/O.
package dsl
