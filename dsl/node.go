package dsl

// Node is a node of the AST: every type in the tree below File
// implements it, and a parsed file's nodes all know where they start and
// end.
type Node interface {
	// Pos returns where the node starts: its first token.
	Pos() Pos
	// End returns where the node ends: just past its last token. A node
	// built in code, not parsed, may have neither.
	End() Pos
}

// Span is where a node starts and ends. Every node embeds one for the
// parser to fill in: participle sets the fields named Pos and EndPos of
// the struct it builds, those of an embedded struct included. Code that
// reads a node's position calls its Pos and End methods.
type Span struct {
	Pos    Pos
	EndPos Pos
}

func (f *File) Pos() Pos           { return f.Span.Pos }
func (f *File) End() Pos           { return f.Span.EndPos }
func (c *Comment) Pos() Pos        { return c.Span.Pos }
func (c *Comment) End() Pos        { return c.Span.EndPos }
func (i Ident) Pos() Pos           { return i.Span.Pos }
func (i Ident) End() Pos           { return i.Span.EndPos }
func (n NameAt) Pos() Pos          { return n.Span.Pos }
func (n NameAt) End() Pos          { return n.Span.EndPos }
func (e *Expr) Pos() Pos           { return e.Span.Pos }
func (e *Expr) End() Pos           { return e.Span.EndPos }
func (r *Ruleset) Pos() Pos        { return r.Span.Pos }
func (r *Ruleset) End() Pos        { return r.Span.EndPos }
func (s *SourceStmt) Pos() Pos     { return s.Span.Pos }
func (s *SourceStmt) End() Pos     { return s.Span.EndPos }
func (q *QuoteStmt) Pos() Pos      { return q.Span.Pos }
func (q *QuoteStmt) End() Pos      { return q.Span.EndPos }
func (s *SidesStmt) Pos() Pos      { return s.Span.Pos }
func (s *SidesStmt) End() Pos      { return s.Span.EndPos }
func (a *AttrDecl) Pos() Pos       { return a.Span.Pos }
func (a *AttrDecl) End() Pos       { return a.Span.EndPos }
func (s *StatusDecl) Pos() Pos     { return s.Span.Pos }
func (s *StatusDecl) End() Pos     { return s.Span.EndPos }
func (r *RememberStmt) Pos() Pos   { return r.Span.Pos }
func (r *RememberStmt) End() Pos   { return r.Span.EndPos }
func (p *PhaseStmt) Pos() Pos      { return p.Span.Pos }
func (p *PhaseStmt) End() Pos      { return p.Span.EndPos }
func (s *Scope) Pos() Pos          { return s.Span.Pos }
func (s *Scope) End() Pos          { return s.Span.EndPos }
func (s *StepStmt) Pos() Pos       { return s.Span.Pos }
func (s *StepStmt) End() Pos       { return s.Span.EndPos }
func (o *OrderStmt) Pos() Pos      { return o.Span.Pos }
func (o *OrderStmt) End() Pos      { return o.Span.EndPos }
func (r *ReadyStmt) Pos() Pos      { return r.Span.Pos }
func (r *ReadyStmt) End() Pos      { return r.Span.EndPos }
func (h *HookStmt) Pos() Pos       { return h.Span.Pos }
func (h *HookStmt) End() Pos       { return h.Span.EndPos }
func (r *RollCrit) Pos() Pos       { return r.Span.Pos }
func (r *RollCrit) End() Pos       { return r.Span.EndPos }
func (v *ValueCrit) Pos() Pos      { return v.Span.Pos }
func (v *ValueCrit) End() Pos      { return v.Span.EndPos }
func (r *RandomCrit) Pos() Pos     { return r.Span.Pos }
func (r *RandomCrit) End() Pos     { return r.Span.EndPos }
func (r *RerollCrit) Pos() Pos     { return r.Span.Pos }
func (r *RerollCrit) End() Pos     { return r.Span.EndPos }
func (a *AwardCrit) Pos() Pos      { return a.Span.Pos }
func (a *AwardCrit) End() Pos      { return a.Span.EndPos }
func (c *ChoiceCrit) Pos() Pos     { return c.Span.Pos }
func (c *ChoiceCrit) End() Pos     { return c.Span.EndPos }
func (r *Role) Pos() Pos           { return r.Span.Pos }
func (r *Role) End() Pos           { return r.Span.EndPos }
func (t *TieRule) Pos() Pos        { return t.Span.Pos }
func (t *TieRule) End() Pos        { return t.Span.EndPos }
func (a *ActivationStmt) Pos() Pos { return a.Span.Pos }
func (a *ActivationStmt) End() Pos { return a.Span.EndPos }
func (h *HandlerStmt) Pos() Pos    { return h.Span.Pos }
func (h *HandlerStmt) End() Pos    { return h.Span.EndPos }
func (s *SetAction) Pos() Pos      { return s.Span.Pos }
func (s *SetAction) End() Pos      { return s.Span.EndPos }
func (r *ReadyAction) Pos() Pos    { return r.Span.Pos }
func (r *ReadyAction) End() Pos    { return r.Span.EndPos }
func (h *HolderAction) Pos() Pos   { return h.Span.Pos }
func (h *HolderAction) End() Pos   { return h.Span.EndPos }
func (f *FirstAction) Pos() Pos    { return f.Span.Pos }
func (f *FirstAction) End() Pos    { return f.Span.EndPos }
func (e *ExampleStmt) Pos() Pos    { return e.Span.Pos }
func (e *ExampleStmt) End() Pos    { return e.Span.EndPos }
func (s *SideSetup) Pos() Pos      { return s.Span.Pos }
func (s *SideSetup) End() Pos      { return s.Span.EndPos }
func (a *Assign) Pos() Pos         { return a.Span.Pos }
func (a *Assign) End() Pos         { return a.Span.EndPos }
func (u *UnitSetup) Pos() Pos      { return u.Span.Pos }
func (u *UnitSetup) End() Pos      { return u.Span.EndPos }
func (l *Literal) Pos() Pos        { return l.Span.Pos }
func (l *Literal) End() Pos        { return l.Span.EndPos }
func (s *Scenario) Pos() Pos       { return s.Span.Pos }
func (s *Scenario) End() Pos       { return s.Span.EndPos }
func (u *UseRuleset) Pos() Pos     { return u.Span.Pos }
func (u *UseRuleset) End() Pos     { return u.Span.EndPos }
func (p *PolicyStmt) Pos() Pos     { return p.Span.Pos }
func (p *PolicyStmt) End() Pos     { return p.Span.EndPos }
func (s *SeedStmt) Pos() Pos       { return s.Span.Pos }
func (s *SeedStmt) End() Pos       { return s.Span.EndPos }
func (r *RoundBlock) Pos() Pos     { return r.Span.Pos }
func (r *RoundBlock) End() Pos     { return r.Span.EndPos }
func (r *RollScript) Pos() Pos     { return r.Span.Pos }
func (r *RollScript) End() Pos     { return r.Span.EndPos }
func (n *NameInt) Pos() Pos        { return n.Span.Pos }
func (n *NameInt) End() Pos        { return n.Span.EndPos }
func (r *RandomScript) Pos() Pos   { return r.Span.Pos }
func (r *RandomScript) End() Pos   { return r.Span.EndPos }
func (c *ChooseScript) Pos() Pos   { return c.Span.Pos }
func (c *ChooseScript) End() Pos   { return c.Span.EndPos }
func (s *SetScript) Pos() Pos      { return s.Span.Pos }
func (s *SetScript) End() Pos      { return s.Span.EndPos }
func (s *StatusScript) Pos() Pos   { return s.Span.Pos }
func (s *StatusScript) End() Pos   { return s.Span.EndPos }
func (r *RemoveScript) Pos() Pos   { return r.Span.Pos }
func (r *RemoveScript) End() Pos   { return r.Span.EndPos }
func (r *ReadyScript) Pos() Pos    { return r.Span.Pos }
func (r *ReadyScript) End() Pos    { return r.Span.EndPos }
func (a *ActivateScript) Pos() Pos { return a.Span.Pos }
func (a *ActivateScript) End() Pos { return a.Span.EndPos }
func (e *Expect) Pos() Pos         { return e.Span.Pos }
func (e *Expect) End() Pos         { return e.Span.EndPos }
func (a *Activation) Pos() Pos     { return a.Span.Pos }
func (a *Activation) End() Pos     { return a.Span.EndPos }
func (s *StandingExpect) Pos() Pos { return s.Span.Pos }
func (s *StandingExpect) End() Pos { return s.Span.EndPos }
func (r *ReadyExpect) Pos() Pos    { return r.Span.Pos }
func (r *ReadyExpect) End() Pos    { return r.Span.EndPos }
func (e *EventExpect) Pos() Pos    { return e.Span.Pos }
func (e *EventExpect) End() Pos    { return e.Span.EndPos }
func (e *EventValue) Pos() Pos     { return e.Span.Pos }
func (e *EventValue) End() Pos     { return e.Span.EndPos }

// Every node type is a Node.
var (
	_ Node = (*File)(nil)
	_ Node = (*Comment)(nil)
	_ Node = (*Ident)(nil)
	_ Node = (*NameAt)(nil)
	_ Node = (*Expr)(nil)
	_ Node = (*Ruleset)(nil)
	_ Node = (*SourceStmt)(nil)
	_ Node = (*QuoteStmt)(nil)
	_ Node = (*SidesStmt)(nil)
	_ Node = (*AttrDecl)(nil)
	_ Node = (*StatusDecl)(nil)
	_ Node = (*RememberStmt)(nil)
	_ Node = (*PhaseStmt)(nil)
	_ Node = (*Scope)(nil)
	_ Node = (*StepStmt)(nil)
	_ Node = (*OrderStmt)(nil)
	_ Node = (*ReadyStmt)(nil)
	_ Node = (*HookStmt)(nil)
	_ Node = (*RollCrit)(nil)
	_ Node = (*ValueCrit)(nil)
	_ Node = (*RandomCrit)(nil)
	_ Node = (*RerollCrit)(nil)
	_ Node = (*AwardCrit)(nil)
	_ Node = (*ChoiceCrit)(nil)
	_ Node = (*Role)(nil)
	_ Node = (*TieRule)(nil)
	_ Node = (*ActivationStmt)(nil)
	_ Node = (*HandlerStmt)(nil)
	_ Node = (*SetAction)(nil)
	_ Node = (*ReadyAction)(nil)
	_ Node = (*HolderAction)(nil)
	_ Node = (*FirstAction)(nil)
	_ Node = (*ExampleStmt)(nil)
	_ Node = (*SideSetup)(nil)
	_ Node = (*Assign)(nil)
	_ Node = (*UnitSetup)(nil)
	_ Node = (*Literal)(nil)
	_ Node = (*Scenario)(nil)
	_ Node = (*UseRuleset)(nil)
	_ Node = (*PolicyStmt)(nil)
	_ Node = (*SeedStmt)(nil)
	_ Node = (*RoundBlock)(nil)
	_ Node = (*RollScript)(nil)
	_ Node = (*NameInt)(nil)
	_ Node = (*RandomScript)(nil)
	_ Node = (*ChooseScript)(nil)
	_ Node = (*SetScript)(nil)
	_ Node = (*StatusScript)(nil)
	_ Node = (*RemoveScript)(nil)
	_ Node = (*ReadyScript)(nil)
	_ Node = (*ActivateScript)(nil)
	_ Node = (*Expect)(nil)
	_ Node = (*Activation)(nil)
	_ Node = (*StandingExpect)(nil)
	_ Node = (*ReadyExpect)(nil)
	_ Node = (*EventExpect)(nil)
	_ Node = (*EventValue)(nil)
)
