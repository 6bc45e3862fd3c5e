package main

// The file a battle is saved in: the snapshot stamped with the ruleset
// file it is played with, written so that a failed write leaves no half
// battle, and checked when it is resumed.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// playedWith is the ruleset file a battle is saved with. A snapshot
// names its ruleset, but a house rule copied from a bundled ruleset keeps
// the name: without the file and its text, resuming with the other one
// would play on under other rules, unnoticed.
type playedWith struct {
	Bundled string `json:"bundled,omitempty"` // a bundled ruleset's name
	File    string `json:"file,omitempty"`    // or else the .rules file, absolute
	SHA256  string `json:"sha256"`            // of the file's text
}

// rulesetPlayed returns what a save records of the ruleset arg, loaded
// from rs as loadProgram loads it.
func rulesetPlayed(arg string, rs source) playedWith {
	sum := sha256.Sum256(rs.src)
	w := playedWith{SHA256: hex.EncodeToString(sum[:])}
	if !rulesets.IsPath(arg) && isBundled(arg) {
		w.Bundled = arg
		return w
	}
	w.File = rs.filename
	if abs, err := filepath.Abs(rs.filename); err == nil {
		w.File = abs
	}
	return w
}

// String names the ruleset's file for a message, relative to the current
// directory when it is under it.
func (w playedWith) String() string {
	if w.Bundled != "" {
		return "the bundled ruleset " + w.Bundled
	}
	return w.arg()
}

// arg is how to name the ruleset on the command line.
func (w playedWith) arg() string {
	if w.Bundled != "" {
		return w.Bundled
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, w.File); err == nil && filepath.IsLocal(rel) {
			return rel
		}
	}
	return w.File
}

// checkPlayedWith compares the ruleset file a saved battle (data, read from
// the file path) was played with and the one given now. It returns why
// the battle must not be resumed with it, or a warning, or neither. The
// same text is the same rules, wherever it is; the file the battle was
// saved with, changed since, plays on with a warning (a house rule mended
// mid-campaign, or a bundled ruleset by a newer turnorder); another file
// is refused, as is a battle of another ruleset. A save that names no file
// (from an older turnorder) is taken as it is.
func checkPlayedWith(data []byte, path, ruleset string, now playedWith) (refuse, warn string) {
	var saved struct {
		Ruleset string      `json:"ruleset"`
		With    *playedWith `json:"played_with"`
	}
	if json.Unmarshal(data, &saved) != nil {
		return "", ""
	}
	if saved.Ruleset != ruleset {
		// A battle of another ruleset: say which, and with what to resume
		// it, where the save names its file.
		notOf := ruleset
		if now.Bundled == "" {
			notOf += fmt.Sprintf(" (the ruleset %s declares)", now.arg())
		}
		msg := fmt.Sprintf("%s is a battle of ruleset %s, not of %s", path, saved.Ruleset, notOf)
		if saved.With != nil {
			msg += fmt.Sprintf(": it was saved with %s; resume it with `turnorder play %s --resume %s`", *saved.With, shellWord(saved.With.arg()), shellWord(path))
		}
		return msg, ""
	}
	if saved.With == nil || saved.With.SHA256 == now.SHA256 {
		return "", ""
	}
	was := *saved.With
	if was.Bundled == now.Bundled && was.File == now.File {
		return "", fmt.Sprintf("%s has changed since %s was saved; the battle plays on with its rules as they are now", now, path)
	}
	return fmt.Sprintf("%s was saved with %s, not with %s, whose text differs: resume it with `turnorder play %s --resume %s`"+
		" (or, to play it on with %s all the same, delete \"played_with\" and \"fingerprint\" from %s)",
		path, was, now, shellWord(was.arg()), shellWord(path), now.arg(), path), ""
}

// changedRules says why a save that names no ruleset file (a host's, or
// one whose "played_with" was deleted) is refused: its fingerprint is of
// other rules than now's.
func changedRules(path, ruleset string, now playedWith) string {
	return fmt.Sprintf("%s was saved with a different ruleset named %s (its rules differ from those of %s): resume it with the ruleset it was saved with"+
		" (or, to play it on with %s all the same, delete \"fingerprint\" from %s)", path, ruleset, now, now.arg(), path)
}

// stamp adds to a snapshot the ruleset file it is played with, first, so
// that the rest reads as Battle.Snapshot wrote it. Restore passes over it.
func stamp(data []byte, w playedWith) ([]byte, error) {
	return addField(data, "played_with", w)
}

// addField adds a field to a snapshot, first. Restore passes over the
// fields it does not know.
func addField(data []byte, name string, v any) ([]byte, error) {
	rest, ok := bytes.CutPrefix(data, []byte("{\n"))
	if !ok {
		return nil, fmt.Errorf("a snapshot that is not a JSON object: %.20q", data)
	}
	field, err := json.MarshalIndent(v, "  ", "  ")
	if err != nil {
		return nil, err
	}
	out := append([]byte("{\n  "+strconv.Quote(name)+": "), field...)
	out = append(out, ",\n"...)
	return append(out, rest...), nil
}

// savedPlay is play's own part of a save made where the battle waits for
// an input: what the battle does not hold of the question asked there.
type savedPlay struct {
	// Rolled are the dice typed so far of the roll the battle waits for:
	// the battle asks one roll of every subject at once, and play asks
	// the players one die at a time. Resumed, play asks for the next.
	Rolled []int `json:"rolled,omitempty"`
	// Change is the change whose recomputation waits for the input, as
	// play says it once it is done.
	Change *changeRec `json:"change,omitempty"`

	op *opRec // the call the battle waits in, read from its snapshot
}

// readSavedPlay reads play's part of a save, and the call the battle
// restored from it waits in, checked against what it waits for: a file
// edited by hand is refused with the field at fault, as Restore refuses
// one.
func readSavedPlay(data []byte, b *runtime.Battle) (savedPlay, error) {
	var s struct {
		Play *savedPlay `json:"play"`
		Op   *struct {
			Kind  string `json:"kind"`
			Who   string `json:"who"`
			Key   string `json:"key"`
			Value any    `json:"value"`
			On    bool   `json:"on"`
		} `json:"op"`
		Journal []struct {
			Rolls  []int    `json:"rolls"`
			Pick   *int     `json:"pick"`
			Choice []string `json:"choice"`
			Host   bool     `json:"host"`
		} `json:"journal"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		return savedPlay{}, fmt.Errorf("play: %v", err)
	}
	var out savedPlay
	if s.Play != nil {
		out = *s.Play
	}
	p := b.Pending()
	if p == nil || s.Op == nil {
		if s.Play != nil {
			return out, errors.New("play: the battle waits for no input, for play's dice or change to be of")
		}
		return out, nil
	}
	rec := opRec{kind: opOther}
	// The answers the players gave it, which undo takes back (the battle
	// checked them as it restored the save).
	for _, e := range s.Journal {
		if e.Host {
			rec.answers = append(rec.answers, runtime.Answer{Rolls: e.Rolls, Pick: e.Pick, Choice: e.Choice})
		}
	}
	switch s.Op.Kind {
	case "start_round":
		rec.kind = opStart
	case "draw":
		rec.kind = opDraw
	case "step", "activate", "pass":
		rec.kind = opStep
	case "end_round", "advance_round":
		rec.kind = opEnd
	case "set_attr", "set_status", "remove_unit", "make_ready", "set_holder":
		rec.kind = opChange
		rec.change = out.Change
		if rec.change == nil {
			// A host's save: said in the words of the call.
			var msg string
			switch s.Op.Kind {
			case "set_attr":
				msg = fmt.Sprintf("%s of %s is now %v", s.Op.Key, s.Op.Who, s.Op.Value)
			case "set_status":
				msg = fmt.Sprintf("%s is no longer %s", s.Op.Who, s.Op.Key)
				if s.Op.On {
					msg = fmt.Sprintf("%s is now %s", s.Op.Who, s.Op.Key)
				}
			case "remove_unit":
				msg = s.Op.Who + " is removed from the battle"
			case "make_ready":
				msg = s.Op.Who + " is made Ready"
			default:
				msg = s.Op.Who + " holds priority"
			}
			rec.change = &changeRec{Typed: msg, Msg: msg}
		}
		rec.change.asked = -1 // it has asked for what it waits for
	}
	if out.Change != nil && rec.kind != opChange {
		return out, fmt.Errorf("play.change: the battle waits in %s, not in a change", s.Op.Kind)
	}
	if out.Rolled != nil {
		r := p.Roll
		if r == nil {
			return out, fmt.Errorf("play.rolled: the battle waits for %s, not a roll", p)
		}
		if len(out.Rolled) >= len(r.Subjects) {
			return out, fmt.Errorf("play.rolled: %d dice typed of a roll of %d (%s), which would be rolled", len(out.Rolled), len(r.Subjects), strings.Join(r.Subjects, ", "))
		}
		for i, v := range out.Rolled {
			if v < r.Count || v > r.Count*r.Faces {
				return out, fmt.Errorf("play.rolled[%d]: %s cannot have rolled %d on %s (%d-%d)", i, r.Subjects[i], v, diceText(r.Count, r.Faces), r.Count, r.Count*r.Faces)
			}
		}
	}
	out.op = &rec
	return out, nil
}

// saveBattle writes a battle's snapshot, and the ruleset file it is
// played with, to path, through a temporary file so that a failed write
// never leaves half a battle.
func saveBattle(snap []byte, with playedWith, path string) error {
	data, err := stamp(snap, with)
	if err != nil {
		return err
	}
	tmp, err := tempBeside(path)
	if err != nil {
		return err
	}
	_, werr := tmp.Write(append(data, '\n'))
	cerr := tmp.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return writeError(path, werr)
	}
	return nil
}

// canWrite reports whether saveBattle could write path, so that no round
// is played for nothing; it leaves path alone.
func canWrite(path string) error {
	if info, err := os.Stat(path); err == nil && info.IsDir() {
		return fmt.Errorf("cannot write %s: it is a directory", path)
	}
	tmp, err := tempBeside(path)
	if err != nil {
		return err
	}
	tmp.Close()
	if err := os.Remove(tmp.Name()); err != nil {
		return writeError(path, err)
	}
	return nil
}

// tempBeside creates the temporary file a save of path goes through, in
// path's folder (so that renaming it over path is atomic).
func tempBeside(path string) (*os.File, error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return nil, writeError(path, err)
	}
	return tmp, nil
}

// writeError names path, not the temporary file, in an error of a save.
func writeError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot write %s: %v", path, err)
}

// notSnapshot says why data cannot be a saved battle, or returns "" when
// it may be one. Restore's own errors about any other file read as faults
// in a snapshot ("the snapshot is of ruleset , not mesbg"), which is not
// what the player needs to hear about the wrong file.
func notSnapshot(data []byte) string {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		if _, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
			return "it is JSON, but not an object"
		}
		return "it is not JSON: " + err.Error()
	}
	var name string
	if err := json.Unmarshal(fields["ruleset"], &name); err != nil || name == "" {
		return "it names no ruleset"
	}
	return ""
}
