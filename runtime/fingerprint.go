package runtime

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"

	"github.com/turnorder/turnorder/dsl"
)

// fingerprint is the SHA-256 of a ruleset's rules in the canonical layout
// of dsl.Format, without comments and quotes: two rulesets share one when
// they play alike, however they are laid out and commented, and a changed
// rule changes it.
func fingerprint(r *dsl.Ruleset) string {
	// A file of the ruleset alone, with no source text: the printer then
	// has no comments to keep and no blank lines to copy.
	text := dsl.Format(&dsl.File{Decls: []dsl.Decl{r}})
	// A quote, which has no effect on play, is a statement of its own
	// line wherever it is, and the formatter writes its text on that line.
	var rules []byte
	for line := range bytes.Lines(text) {
		if !bytes.HasPrefix(bytes.TrimLeft(line, " "), []byte(`quote "`)) {
			rules = append(rules, line...)
		}
	}
	sum := sha256.Sum256(rules)
	return "sha256:" + hex.EncodeToString(sum[:])
}

// Fingerprint identifies the ruleset's rules: the same for the same rules
// in any process, on any platform, and different when a rule differs
// (comments, quotes and layout aside). Battle.Snapshot writes it in the
// save, and Program.Restore refuses a save made with rules whose
// fingerprint differs (see AcceptChangedRules). The Go functions given
// with WithFunction and the Limits are not part of it.
func (p *Program) Fingerprint() string { return p.fingerprint }
