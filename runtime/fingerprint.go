package runtime

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/turnorder/turnorder/dsl"
)

// fingerprint is the SHA-256 of a ruleset's rules in the canonical layout
// of dsl.Format, without comments and quotes: two rulesets share one when
// they play alike, wherever and however they are written, and a changed
// rule changes it. The layout is the formatter's own, which the ruleset's
// file and blank lines do not touch; the file's position of each rule is
// left out with the comments.
func fingerprint(r *dsl.Ruleset) string {
	bare := *r
	bare.Body = make([]dsl.RuleStmt, 0, len(r.Body))
	for _, st := range r.Body {
		if _, quote := st.(*dsl.QuoteStmt); !quote {
			bare.Body = append(bare.Body, st)
		}
	}
	// A file of the ruleset alone, with no source text: the printer then
	// has no comments to keep and no blank lines to copy.
	sum := sha256.Sum256(dsl.Format(&dsl.File{Decls: []dsl.Decl{&bare}}))
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Fingerprint identifies the ruleset's rules: the same for the same rules
// in any process, on any platform, and different when a rule differs
// (comments, quotes and layout aside). Battle.Snapshot writes it in the
// save, and Program.Restore refuses a save made with rules whose
// fingerprint differs (see AcceptChangedRules). The Go functions given
// with WithFunction and the Limits are not part of it.
func (p *Program) Fingerprint() string { return p.fingerprint }
