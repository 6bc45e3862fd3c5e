package dsl

// Walk calls fn for every node under n, n itself first: parents before
// children, and children in source order. Nodes held by value (the Ident
// of `by NAME`, the NameAts of `expect order`) are visited as pointers
// into their parent. An *Expr is a leaf: its parts are the package's own.
// File.Comments are not visited: they sit beside the tree, not in it. A nil
// node is skipped, with whatever would have been under it.
func Walk(n Node, fn func(Node)) {
	switch n := n.(type) {
	case nil:
	case *File:
		if visit(n, fn) {
			walkList(n.Decls, fn)
		}
	case *Ruleset:
		if visit(n, fn) {
			walkList(n.Body, fn)
		}
	case *AttrDecl:
		if visit(n, fn) {
			Walk(&n.Type, fn)
			Walk(n.Range, fn)
			Walk(n.Default, fn)
		}
	case *DecideStmt:
		if visit(n, fn) {
			Walk(&n.Name, fn)
			Walk(n.Type, fn)
			Walk(n.By, fn)
			Walk(n.Default, fn)
		}
	case *TypeSpec:
		if visit(n, fn) {
			walkValues(n.Options, fn)
			Walk(n.Name, fn)
			Walk(n.Range, fn)
		}
	case *IntRange:
		visit(n, fn)
	case *RememberStmt:
		if visit(n, fn) {
			Walk(n.Expr, fn)
		}
	case *PhaseStmt:
		if visit(n, fn) {
			Walk(n.Scope, fn)
			walkList(n.Body, fn)
		}
	case *Scope:
		if visit(n, fn) {
			walkValues(n.Changed, fn)
		}
	case *StepStmt:
		if visit(n, fn) {
			Walk(n.Scope, fn)
			walkList(n.Body, fn)
		}
	case *OrderStmt:
		if visit(n, fn) {
			Walk(n.Scope, fn)
			walkList(n.Chain, fn)
		}
	case *ReadyStmt:
		if visit(n, fn) {
			Walk(n.Cond, fn)
		}
	case *RollCrit:
		if visit(n, fn) {
			Walk(n.Modifier, fn)
		}
	case *ValueCrit:
		if visit(n, fn) {
			Walk(n.Expr, fn)
		}
	case *AwardCrit:
		if visit(n, fn) {
			Walk(n.Expr, fn)
		}
	case *ChoiceCrit:
		if visit(n, fn) {
			Walk(n.By, fn)
			Walk(n.Default, fn)
		}
	case *TieRule:
		if visit(n, fn) {
			Walk(n.When, fn)
			Walk(n.Action, fn)
			walkList(n.Block, fn)
		}
	case *ActivationStmt:
		if visit(n, fn) {
			Walk(n.By, fn)
			Walk(n.DefaultFirst, fn)
			Walk(n.PassWhen, fn)
			Walk(n.Default, fn)
		}
	case *HandlerStmt:
		if visit(n, fn) {
			Walk(n.Target, fn)
			Walk(n.Hook, fn)
			Walk(n.When, fn)
			walkList(n.Body, fn)
		}
	case *SetAction:
		if visit(n, fn) {
			Walk(n.Target, fn)
			Walk(n.Value, fn)
		}
	case *ReadyAction:
		if visit(n, fn) {
			Walk(n.Expr, fn)
		}
	case *HolderAction:
		if visit(n, fn) {
			Walk(n.Expr, fn)
		}
	case *FirstAction:
		if visit(n, fn) {
			Walk(n.Expr, fn)
		}
	case *ExampleStmt:
		if visit(n, fn) {
			walkList(n.Setup, fn)
		}
	case *SideSetup:
		if visit(n, fn) {
			walkList(n.Attrs, fn)
			walkList(n.Body, fn)
		}
	case *Assign:
		if visit(n, fn) {
			Walk(n.Value, fn)
		}
	case *UnitSetup:
		if visit(n, fn) {
			walkList(n.Attrs, fn)
			walkValues(n.Status, fn)
		}
	case *Scenario:
		if visit(n, fn) {
			walkList(n.Body, fn)
		}
	case *UseRuleset:
		if visit(n, fn) {
			Walk(&n.Name, fn)
		}
	case *RoundBlock:
		if visit(n, fn) {
			walkList(n.Body, fn)
		}
	case *RollScript:
		if visit(n, fn) {
			walkList(n.Rolls, fn)
		}
	case *DrawScript:
		if visit(n, fn) {
			walkList(n.Draws, fn)
		}
	case *RandomizerDecl:
		if visit(n, fn) {
			Walk(&n.Name, fn)
			walkList(n.Faces, fn)
		}
	case *DrawCrit:
		if visit(n, fn) {
			Walk(&n.Deck, fn)
		}
	case *ReshuffleAction:
		if visit(n, fn) {
			Walk(&n.Deck, fn)
		}
	case *SetScript:
		if visit(n, fn) {
			Walk(n.Value, fn)
		}
	case *Expect:
		if visit(n, fn) {
			walkValues(n.Order, fn)
			Walk(n.Holder, fn)
			Walk(n.Chooser, fn)
			walkList(n.Activations, fn)
			Walk(n.Ready, fn)
			Walk(n.Standing, fn)
			Walk(n.Events, fn)
			Walk(n.Event, fn)
		}
	case *EventsExpect:
		if visit(n, fn) {
			walkList(n.Lines, fn)
		}
	case *EventLine:
		if visit(n, fn) {
			Walk(n.Value, fn)
			Walk(n.By, fn)
		}
	case *AddScript:
		if visit(n, fn) {
			Walk(&n.Side, fn)
			walkList(n.Attrs, fn)
			walkValues(n.Status, fn)
		}
	case *StandingExpect:
		if visit(n, fn) {
			walkValues(n.Order, fn)
		}
	case *ReadyExpect:
		if visit(n, fn) {
			walkValues(n.Units, fn)
		}
	case *EventExpect:
		if visit(n, fn) {
			Walk(n.Value, fn)
			Walk(n.By, fn)
		}

	// Leaves.
	case *Comment:
		visit(n, fn)
	case *Ident:
		visit(n, fn)
	case *NameAt:
		visit(n, fn)
	case *Expr:
		visit(n, fn)
	case *SourceStmt:
		visit(n, fn)
	case *QuoteStmt:
		visit(n, fn)
	case *SidesStmt:
		visit(n, fn)
	case *StatusDecl:
		visit(n, fn)
	case *HookStmt:
		visit(n, fn)
	case *RandomCrit:
		visit(n, fn)
	case *RerollCrit:
		visit(n, fn)
	case *Role:
		visit(n, fn)
	case *Literal:
		visit(n, fn)
	case *PolicyStmt:
		visit(n, fn)
	case *SeedStmt:
		visit(n, fn)
	case *NameInt:
		visit(n, fn)
	case *RandomScript:
		visit(n, fn)
	case *ChooseScript:
		visit(n, fn)
	case *StatusScript:
		visit(n, fn)
	case *RemoveScript:
		visit(n, fn)
	case *ReadyScript:
		visit(n, fn)
	case *ActivateScript:
		visit(n, fn)
	case *Activation:
		visit(n, fn)
	case *EventValue:
		visit(n, fn)
	case *FaceSpec:
		visit(n, fn)

	default:
		// A Node of another package's making: it is visited, but what is
		// under it is not known here.
		fn(n)
	}
}

// visit calls fn for n unless n is a nil pointer, and says whether it did.
// It is generic so that the nil check is of the pointer, not of an
// interface holding one.
func visit[P interface {
	*N
	Node
}, N any](n P, fn func(Node)) bool {
	if n == nil {
		return false
	}
	fn(n)
	return true
}

func walkList[T Node](ns []T, fn func(Node)) {
	for _, n := range ns {
		Walk(n, fn)
	}
}

// walkValues walks nodes held by value in a slice, as pointers to them.
func walkValues[N any, P interface {
	*N
	Node
}](ns []N, fn func(Node)) {
	for i := range ns {
		Walk(P(&ns[i]), fn)
	}
}
