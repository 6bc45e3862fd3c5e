package dsl

import (
	"fmt"
	"testing"
)

// everyNode is a file with a node of every kind a file can hold.
const everyNode = `ruleset r "Title" {
  source "book"
  quote "q"
  sides 2..4
  side attribute m int = 3
  unit attribute agi int
  unit status pinned, hidden
  remember best = round
  phase p each round {
    step "s" once {
      order sides as priority until changed m {
        highest roll d6 + 1
        lowest m
        random
        tie when round == 1: reroll
        tie { award not previous.chooser }
        choice first by winner default self
      }
      ready units unless agi > 3
      hook h
    }
  }
  activation alternate by priority pass allowed when round > 1
  on start of phase p when round > 1 {
    set m of holder = 2
    ready "a"
    holder = "A"
  }
  on hook h { quote "x" }
  example { side A team t m = 1 { unit a * 2 agi = 3 status pinned } }
}

scenario "S" {
  ruleset r
  decide by policy
  seed 1
  side A
  round 1 {
    roll A 4, B 2
    random A
    A chooses A
    set m of A = 2
    a is not pinned
    remove a
    ready a
    activate 2
    expect order A, B
    expect activations a, pass B
    expect ready a
    expect standing priority: A, B
    expect no event placement A = 3 by A
  }
}
`

// TestWalkVisitsEveryKind checks that Walk reaches every kind of node, the
// file first, and that a parsed file's nodes all have a position.
func TestWalkVisitsEveryKind(t *testing.T) {
	f, diags := Parse("every.rules", []byte(everyNode))
	if diags.HasErrors() {
		t.Fatalf("the file does not parse:\n%s", diags.Render(everyNode))
	}
	seen := map[string]bool{}
	var first Node
	Walk(f, func(n Node) {
		if first == nil {
			first = n
		}
		seen[fmt.Sprintf("%T", n)] = true
		if n.Pos().Line == 0 {
			t.Errorf("Walk visited a %T with no position", n)
		}
	})
	if first != Node(f) {
		t.Errorf("Walk visited %T first, not the file", first)
	}
	for _, n := range []Node{
		(*File)(nil), (*Ident)(nil), (*NameAt)(nil), (*Expr)(nil), (*Ruleset)(nil),
		(*SourceStmt)(nil), (*QuoteStmt)(nil), (*SidesStmt)(nil), (*AttrDecl)(nil),
		(*StatusDecl)(nil), (*RememberStmt)(nil), (*PhaseStmt)(nil), (*Scope)(nil),
		(*StepStmt)(nil), (*OrderStmt)(nil), (*ReadyStmt)(nil), (*HookStmt)(nil),
		(*RollCrit)(nil), (*ValueCrit)(nil), (*RandomCrit)(nil), (*RerollCrit)(nil),
		(*AwardCrit)(nil), (*ChoiceCrit)(nil), (*Role)(nil), (*TieRule)(nil),
		(*ActivationStmt)(nil), (*HandlerStmt)(nil), (*SetAction)(nil),
		(*ReadyAction)(nil), (*HolderAction)(nil), (*ExampleStmt)(nil),
		(*SideSetup)(nil), (*Assign)(nil), (*UnitSetup)(nil), (*Literal)(nil),
		(*Scenario)(nil), (*UseRuleset)(nil), (*PolicyStmt)(nil), (*SeedStmt)(nil),
		(*RoundBlock)(nil), (*RollScript)(nil), (*NameInt)(nil), (*RandomScript)(nil),
		(*ChooseScript)(nil), (*SetScript)(nil), (*StatusScript)(nil),
		(*RemoveScript)(nil), (*ReadyScript)(nil), (*ActivateScript)(nil),
		(*Expect)(nil), (*Activation)(nil), (*StandingExpect)(nil),
		(*ReadyExpect)(nil), (*EventExpect)(nil), (*EventValue)(nil),
	} {
		if kind := fmt.Sprintf("%T", n); !seen[kind] {
			t.Errorf("Walk never visited a %s", kind)
		}
	}
}

// TestWalkSkipsNil checks that nil nodes, which only a tree built in code
// has, are skipped rather than visited or dereferenced.
func TestWalkSkipsNil(t *testing.T) {
	f := &File{Decls: []Decl{nil, (*Ruleset)(nil), &Scenario{Body: []ScenarioStmt{(*RoundBlock)(nil)}}}}
	var got []string
	Walk(f, func(n Node) { got = append(got, fmt.Sprintf("%T", n)) })
	if want := "[*dsl.File *dsl.Scenario]"; fmt.Sprint(got) != want {
		t.Errorf("Walk visited %v, want %s", got, want)
	}
}
