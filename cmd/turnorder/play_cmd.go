package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/turnorder/turnorder/internal/wording"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

func playCommand() *command {
	c := &command{
		name:  "play",
		args:  "RULESET [--sides A,B,...] [--setup FILE] [--save FILE] [--resume FILE] [--rounds N]",
		short: "a table companion: enter physical dice and decisions, see each round's order",
		long: `
Play is a companion for a battle at the table. It asks for every die the
players roll (type the result shown on the physical die) and for every
decision the rules give a player: who goes first, before or after, an
arrangement, which unit to activate. After each round it shows the order,
who holds priority, who chose, and the activations.

Answers are checked: a 7 on a D6 is refused ("7 is not a result of d6
(1-6)") and the question is asked again. A decision lists its options
numbered; answer with the number or the name. An arrangement is a list of
names or numbers, first to last, separated by commas; the last one can be
left out. A pressed Enter takes the default shown in [brackets]. Where the
ruleset allows it, "pass" is one of the activation options (with "pass
allowed when CONDITION", only while the condition holds for the side whose
turn it is). When the rules call for a random pick, pick at the table
(roll off, draw lots) and enter the name or number of who comes next. With
"activation draw" (a dice bag), play asks each turn whose colour came out
of the bag, listing each side with its dice left: draw a die at the table
and enter the side; that side then chooses which of its units activates.

After each round play asks "another round? [Y/n/save]". There you can also
answer (naming units and sides in any case):

  save FILE                 save the battle to FILE; "save" alone saves to
                            the --save file, or else to the --resume file
                            (with neither, play asks for a file)
  quit                      stop, once the battle as it stands is in a file:
                            play says which, and how to resume it (without
                            one, quit is refused; n stops all the same)
  n                         stop; where no file holds the battle as it
                            stands, play first asks for a file to save it
                            to (Enter stops without saving it)
  remove UNIT               a model falls: it leaves the battle
  set ATTR of NAME = VALUE  an attribute changes during the battle (say, an
                            AGI buff)
  UNIT is STATUS            give a unit a status the ruleset declares (such
  UNIT is not STATUS        as Necromunda's out_of_action), or take it away;
                            "set STATUS of UNIT = true" (or false) does too

A set, or a status, recomputes at once the standings kept until it changes
(play asks for the dice and decisions that needs, after the tie that calls
for them) and says what that did to the order, and why. "help" at any
prompt says what can be typed there.

In a round, remove, set and is can be typed too, between two turns: at the
prompt that asks which unit activates, and, in activation draw, at the one
that asks whose colour came out of the bag (in Necromunda, a fighter taken
Out of Action during the round is removed there, and does not activate
later in it). Play makes the change, says what it did (a removed unit that
was Ready no longer activates; a unit given a status keeps its Ready
marker, as statuses count when a round places the markers; an order
recomputed goes on from there, the turn keeping its place in it, so that a
new order can give the turn to another side: play says whose it is now),
and asks the question again. Where an order is being made (a die, a random
pick, the choice of an order, or a change's own recomputation), no change
can be made, and play says why.

A battle can be saved in the middle of a round too (in Necromunda, one
round's activations are the whole game turn): answer "save" or "save FILE"
at the prompt that asks which unit activates (where "pass" is answered
too), and --resume continues the round there, at the same prompt, with the
same Ready markers (play shows them, and the round's order and activations
so far). In activation draw the prompt that asks whose colour came out of
the bag takes save and quit too: the die is not drawn yet, and --resume
asks for it again. "quit" there stops, once the battle as it stands is in
a file (saved there, by --save, or the --resume file before anything is
played): play says which file holds it and the command that resumes it
(with --save, and with --rounds for the rounds left, if the session had
them), with exit status 0; without a save, quit is refused. "save" and
"quit" are commands there, not the start of a unit's name (type a
saveguard's whole name, or its number). At the other prompts of a round (a
die, a random pick, the choice of an order) the battle cannot be saved,
nor play stop, and "save" and "quit" say so.

With --rounds N play plays N rounds and does not ask; after --resume, that
is N more rounds, not up to round N (a round resumed in its middle is the
first of them). Without --save, play then says that no file holds the
battle as it stands, and how to keep one.

--save FILE writes the battle to FILE (the JSON of Battle.Snapshot, and
the ruleset file it is played with) after every round and after every
activation, and when a round reaches its first activation prompt, with the
round's opening dice and decisions, and at an activation prompt that
follows a draw from the bag in activation draw, with the die drawn
(quietly: only the round's end says "saved to FILE"), and after every
change (remove, set, is) made between rounds or in a round, so that a
battle cut short loses at most the activation under way, or a roll-off not
over. --resume FILE continues a saved battle, with the sides it was saved
with. A battle saved between rounds first shows how its last round ended
(the order, holder, chooser and activations, and the order now, where a
change made after it has changed it), then asks "another round?" (with
--rounds, it plays on); one saved in a round goes on at the prompt it was
saved at. Another ruleset file that declares a ruleset of the same name (a
house rule copied from a bundled one) is refused; the file it was saved
with, changed since, plays on with a warning. RULESET and the sides are
given as for turnorder run, and the ruleset's warnings are printed to
standard error as run prints them.

Play reads answers line by line, so it works in a terminal and with piped
input. When the input ends in a round, or while a change is asking for
dice, play stops with "input ended" on standard error and exit status 1.
When it ends at "another round?", or at the prompt that asks which unit
activates (or whose colour came out of the bag) where quit would stop (a
file holds the battle as it stands), that is a normal end: the message
goes to standard error too, with exit status 0 (and, where a file holds
the battle as it stands, the command that resumes it; where none does, how
to keep a battle next time). Either message says which file holds the
battle, as it was when: only a file written in this session, or else the
--resume file.`,
		example: `
turnorder play mesbg --sides Jay,Rob
turnorder play morturi --setup schools.rules --save battle.json
turnorder play morturi --resume battle.json --save battle.json
printf '4\n2\n1\n' | turnorder play mesbg --rounds 1`,
		flags: newFlags("play"),
	}
	fs := c.flags
	sides, setup := sideFlags(fs)
	save := nonEmpty(fs, "save", "save the battle to `FILE` after every round, at each round's first activation, after every activation and every change", "name a file")
	resume := nonEmpty(fs, "resume", "continue the battle saved in `FILE`", "name a saved battle's file")
	rounds := 0
	fs.Var(&intFlag{&rounds}, "rounds", fmt.Sprintf("play `N` rounds without asking, from 0 to %d (0: ask after each round); with --resume, N more rounds", maxRounds))
	c.run = func(e *env, args []string) int {
		if !rulesetArgs(e, args, 1) {
			return exitUsage
		}
		if rounds < 0 || rounds > maxRounds {
			fmt.Fprintf(e.stderr, "turnorder play: --rounds must be between 0 and %d (got %d)\n", maxRounds, rounds)
			return exitError
		}
		if *resume != "" && (*sides != "" || *setup != "") {
			fmt.Fprintln(e.stderr, "turnorder play: --resume continues a saved battle with its own sides; leave out --sides and --setup")
			return exitUsage
		}
		o := playOptions{ruleset: args[0], sides: *sides, setup: *setup, save: *save, resume: *resume, rounds: rounds}
		return playBattle(e, o)
	}
	return c
}

type playOptions struct {
	ruleset, sides, setup string
	save, resume          string
	rounds                int // 0: ask after each round
}

// errInputEnded is what every question returns once the input has ended.
var errInputEnded = errors.New("input ended")

// table is the dialogue with the players: it asks the questions, checks the
// answers, and shows what the battle does as it happens.
type table struct {
	out  io.Writer
	in   *bufio.Reader
	echo bool // the input is not a terminal: echo each answer after its prompt
	eof  bool

	b          *runtime.Battle
	shownRound int // the round whose events have been shown up to shown
	shown      int
	asked      int // dice, picks and decisions asked for so far

	// What this session has saved, so that play can say truthfully which
	// file holds the battle when it stops.
	saveTo         string // --save: written after every round, every activation and every change at the prompt
	resumed        string // --resume: the file the battle came from
	resumedAt      string // how it was resumed: "after round 1", "in round 2, at A's activation"
	written        string // the file written last in this session ("": none)
	writtenAt      string // where the battle was when it was written, as position says
	writtenChanges bool   // it holds changes made at the prompt after the round it was written after
	changed        bool   // changes were made at the prompt since the last round ended
	lost           bool   // changes were made at the prompt since the last write
	writtenData    []byte // the snapshot written last, to tell whether it is the battle as it stands
	resumedData    []byte // the battle as it was resumed, to tell whether the --resume file still holds it

	// changing is set while a change typed at a prompt is made: the dice
	// and decisions its recomputation asks for cannot save the battle,
	// stop play, or take another change.
	changing bool
	// drawing is set while the players are asked which colour came out of
	// the bag, inside Step, where Battle.Snapshot refuses; nothing of the
	// turn is played before the die is drawn, so the battle stands as it
	// did before Step: undrawn, taken then, is its snapshot.
	drawing    bool
	undrawn    []byte
	undrawnErr error

	decl declarations // for set and is at the prompt
	with playedWith   // the ruleset's file, for every save to name
	// told counts the battle's pending events (those of changes made
	// between rounds, which open the next round's transcript) that the
	// prompt has shown already, so that the next round does not repeat them.
	told int
}

func newTable(e *env) *table {
	return &table{out: e.stdout, in: bufio.NewReader(e.stdin), echo: !isTerminal(e.stdin)}
}

// isTerminal reports whether r is a terminal (a character device), where
// the player's typing already shows their answers.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// ask prints a prompt and reads one line, trimmed. "help" (or "?") calls
// help, which says what can be typed there, and asks again.
func (t *table) ask(prompt string, help func()) (string, error) {
	for {
		if t.eof {
			return "", errInputEnded
		}
		fmt.Fprint(t.out, prompt)
		line, err := t.in.ReadString('\n')
		if err != nil && line == "" {
			t.eof = true
			fmt.Fprintln(t.out)
			return "", errInputEnded
		}
		line = strings.TrimSpace(line)
		if t.echo {
			fmt.Fprintln(t.out, line)
		}
		if help != nil && isHelp(line) {
			help()
			continue
		}
		return line, nil
	}
}

func isHelp(ans string) bool { return strings.EqualFold(ans, "help") || ans == "?" }

// say prints a line of the dialogue, such as why an answer was refused.
func (t *table) say(format string, args ...any) {
	fmt.Fprintf(t.out, "  "+format+"\n", args...)
}

// flush shows the events of the round that have not been shown yet, or,
// between rounds, those of the change under way: what its recomputation
// did before the question it asks (a tie), as a round shows them.
func (t *table) flush() {
	if t.b == nil {
		return
	}
	if !t.b.InRound() {
		evs := t.b.PendingEvents()
		t.told = min(t.told, len(evs))
		t.show(evs[t.told:])
		t.told = len(evs)
		return
	}
	evs := t.b.Events()
	if t.b.Round() != t.shownRound {
		// The new round opens with the events of the changes made at the
		// prompt before it, which the prompt has shown.
		t.shownRound, t.shown, t.told = t.b.Round(), t.told, 0
	}
	t.shown = min(t.shown, len(evs))
	t.show(evs[t.shown:])
	t.shown = len(evs)
}

// show prints events as the transcript of play: the players' own rolls and
// decisions are not repeated.
func (t *table) show(evs []runtime.Event) {
	printEvents(t.out, evs, func(i int) bool {
		switch evs[i].Kind {
		case runtime.EvRoundStart, runtime.EvRoundEnd, runtime.EvRoll, runtime.EvDecision, runtime.EvRandom:
			return true
		}
		return false
	})
}

// markShown treats every event so far as shown (after a resume): those of
// the last round, and those of the changes made after it, which the session
// that saved the battle showed.
func (t *table) markShown() {
	t.shownRound, t.shown, t.told = t.b.Round(), len(t.b.Events()), len(t.b.PendingEvents())
}

func diceText(count, faces int) string {
	if count == 1 {
		return fmt.Sprintf("d%d", faces)
	}
	return fmt.Sprintf("%dd%d", count, faces)
}

// die asks for one subject's roll: the natural total of its dice.
func (t *table) die(ctx context.Context, req runtime.RollRequest, subject string) (int, error) {
	t.flush()
	t.question()
	dice := diceText(req.Count, req.Faces)
	lo, hi := req.Count, req.Count*req.Faces
	what := dice
	if req.Attempt > 0 {
		what += " again"
	}
	if i := slices.Index(req.Subjects, subject); i >= 0 && i < len(req.Modifiers) && req.Modifiers[i] != 0 {
		what += fmt.Sprintf(" (%+d is added)", req.Modifiers[i])
	}
	prompt := fmt.Sprintf("Round %d, %s: %s rolls %s: ", req.Round, req.Standing, subject, what)
	help := func() {
		if req.Count == 1 {
			t.say("type the result the %s shows, %d to %d", dice, lo, hi)
		} else {
			t.say("type the total the %s show, %d to %d", dice, lo, hi)
		}
		if strings.Contains(what, "is added") {
			t.say("type the dice as rolled: play adds the modifier")
		}
	}
	for {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		ans, err := t.ask(prompt, help)
		if err != nil {
			return 0, err
		}
		v, err := strconv.Atoi(ans)
		switch {
		case isSave(ans):
			t.cannotSave("in the middle of a roll")
		case isQuit(ans):
			t.cannotStop("in the middle of a roll")
		case looksLikeChange(ans):
			t.cannotChange("in the middle of a roll")
		case ans == "":
			t.say("enter the result of %s (%d-%d)", dice, lo, hi)
		case err != nil:
			t.say("%q is not a number: enter the result of %s (%d-%d)", ans, dice, lo, hi)
		case v < lo || v > hi:
			t.say("%d is not a result of %s (%d-%d)", v, dice, lo, hi)
		default:
			return v, nil
		}
	}
}

// pickRandom asks the players to make a random pick at the table.
func (t *table) pickRandom(ctx context.Context, req runtime.PickRequest) (int, error) {
	t.flush()
	t.question()
	if req.Draw {
		return t.drawDie(ctx, req)
	}
	fmt.Fprintf(t.out, "Round %d, %s: pick at random who comes next (roll off, or draw lots):\n", req.Round, req.Standing)
	ans, err := t.choose(ctx, req.Options, "", "random pick: ", t.noSaveIn("in the middle of a random pick"), nil, "pick at random at the table (roll off, or draw lots), then type who was picked", "")
	if err != nil {
		return 0, err
	}
	return slices.Index(req.Options, ans), nil
}

// drawDie asks which colour came out of the bag of activation draw: the
// options name one side per die, and the players answer with the side.
func (t *table) drawDie(ctx context.Context, req runtime.PickRequest) (int, error) {
	sides, dice := req.Bag()
	counts := make([]string, len(sides))
	for i, side := range sides {
		counts[i] = fmt.Sprintf("%s %d", side, dice[i])
	}
	fmt.Fprintf(t.out, "Round %d: draw a die from the bag (%s): whose colour is it?\n", req.Round, strings.Join(counts, ", "))
	refuse := func(ans string) string {
		if u := t.unitNamed(ans); u != nil {
			return fmt.Sprintf("%s is a unit: type the side whose colour came out of the bag (%s); it then chooses which unit activates", u.Name, strings.Join(sides, " or "))
		}
		return ""
	}
	// Nothing of the turn is played before the die is drawn: the battle
	// stands as it did before Step (see drawing), and is saved so.
	t.drawing = true
	defer func() { t.drawing = false }()
	ans, err := t.betweenTurns(ctx, sides, "", "drawn: ", refuse, "draw a die from the bag at the table, then type whose it is", "")
	if err != nil {
		return 0, err
	}
	return slices.Index(req.Options, ans), nil
}

// betweenTurns asks a question that Step asks between two turns of the
// activation loop, before anything of the turn is played: which unit
// activates, or, in activation draw, which colour came out of the bag.
// There the battle can be saved (save), play can stop once it is in a file
// (quit), and the changes of "another round?" can be made: they leave
// Step (see pendingChange), which then asks again. An input that ends
// there, where quit would stop, stops as quit does. help says first, what
// can be typed there, and extra; then the options and the changes.
func (t *table) betweenTurns(ctx context.Context, options []string, def, prompt string, refuse func(string) string, first, extra string) (string, error) {
	command := func(ans string) (bool, error) {
		p, isChange := t.unitStatus(ans) // before save and quit, for a unit called save
		switch {
		case isChange:
		case isSave(ans):
			_, path, _ := strings.Cut(ans, " ")
			err := t.saveAt(path) // the input ended at "save to which file?"
			return err == nil, err
		case isQuit(ans):
			file, at := t.holder()
			if file == "" {
				t.say("the battle is not saved as it stands: type save FILE first, then quit (or end the input to stop without saving it)")
				return true, nil
			}
			return false, &stopError{file: file, at: at}
		default:
			if _, ok := resolveOption(ans, options); ok && !strings.Contains(ans, " ") {
				return false, nil // a start of a name: "set" for settler
			}
			p, isChange = t.parseChange(ans)
		}
		switch {
		case !isChange:
			return false, nil
		case p == nil:
			return true, nil // refused, saying why
		}
		return false, p
	}
	note := "save [FILE]: save the battle as it stands, to resume it here with --resume (" + t.bareSave() + ")" +
		"\n  quit: stop here, once the battle as it stands is saved (play says how to resume it)"
	if first != "" {
		note = first + "\n  " + note
	}
	note += extra
	more := "or make a change at the table (then this question is asked again):"
	for _, c := range t.changeCommands() {
		more += fmt.Sprintf("\n  %-25s %s", c[0], c[1])
	}
	ans, err := t.choose(ctx, options, def, prompt, command, refuse, note, more)
	if file, at := t.holder(); errors.Is(err, errInputEnded) && file != "" {
		// The input ended where quit would stop: a file holds the
		// battle as it stands (a save typed here, --save's own write,
		// or the --resume file before anything is played), so the
		// players who closed it lose nothing.
		err = &stopError{eof: true, file: file, at: at}
	}
	return ans, err
}

// choose lists options numbered and asks for one, by number or name. An
// empty answer takes def, if there is one. command, if set, may take an
// answer that is not an option's name (such as save) as a command of the
// prompt, and reports whether it did; then the question is asked again,
// unless it returns an error (quit), which choose returns. Only an
// option's whole name, in any case, wins over a command: "save" is the
// command, not the start of saveguard. refuse, if set, may explain why an
// answer that is not an option is refused. help says note before the
// options, and more after them.
func (t *table) choose(ctx context.Context, options []string, def, prompt string, command func(string) (bool, error), refuse func(string) string, note, more string) (string, error) {
	list := func() {
		for i, o := range options {
			fmt.Fprintf(t.out, "  %d. %s\n", i+1, o)
		}
	}
	list()
	if def != "" {
		prompt = strings.TrimSuffix(prompt, ": ") + " [" + def + "]: "
	}
	help := func() {
		if note != "" {
			t.say("%s", note)
		}
		t.say("type the number or the name of one of these:")
		list()
		if def != "" {
			t.say("Enter takes %s", def)
		}
		if more != "" {
			t.say("%s", more)
		}
	}
	if slices.ContainsFunc(options, isHelp) {
		help = nil // "help" is an option's name
	}
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		ans, err := t.ask(prompt, help)
		if err != nil {
			return "", err
		}
		if ans == "" && def != "" {
			return def, nil
		}
		named := slices.ContainsFunc(options, func(o string) bool { return strings.EqualFold(o, ans) })
		if command != nil && !named {
			took, err := command(ans)
			if err != nil {
				return "", err
			}
			if took {
				continue
			}
		}
		if o, ok := resolveOption(ans, options); ok {
			return o, nil
		}
		if refuse != nil {
			if why := refuse(ans); why != "" {
				t.say("%s", why)
				continue
			}
		}
		if m := matching(ans, options); len(m) > 1 {
			t.say("%q may be %s: type more of the name, or its number", ans, strings.Join(m, " or "))
			continue
		}
		t.say("%s: enter a number from 1 to %d, or a name", notAnOption(ans), len(options))
	}
}

func notAnOption(ans string) string {
	if ans == "" {
		return "no answer"
	}
	return fmt.Sprintf("%q is not one of the options", ans)
}

// resolveOption reads an answer as an option's number or name: exactly,
// or else case-insensitively, or else as the start of one name only
// ("ludi" for "Ludi Aeternum"), whichever is unambiguous first.
func resolveOption(ans string, options []string) (string, bool) {
	if n, err := strconv.Atoi(ans); err == nil {
		if n >= 1 && n <= len(options) {
			return options[n-1], true
		}
		if !slices.Contains(options, ans) {
			return "", false
		}
	}
	if m := matching(ans, options); len(m) == 1 {
		return m[0], true
	}
	return "", false
}

// matching returns the options a name answer may mean: the one it is, or
// else those it is in another case, or else those it is the start of.
func matching(ans string, options []string) []string {
	if slices.Contains(options, ans) {
		return []string{ans}
	}
	for _, match := range []func(o string) bool{
		func(o string) bool { return strings.EqualFold(o, ans) },
		func(o string) bool { return ans != "" && strings.HasPrefix(strings.ToLower(o), strings.ToLower(ans)) },
	} {
		var found []string
		for _, o := range options {
			if match(o) {
				found = append(found, o)
			}
		}
		if len(found) > 0 {
			return found
		}
	}
	return nil
}

// parseArrangement reads an arrangement of every option, first to last:
// names or numbers separated by commas (or by spaces, when no name has
// one). The last option may be left out.
func parseArrangement(ans string, options []string) ([]string, string) {
	var parts []string
	switch {
	case strings.Contains(ans, ","):
		parts = strings.Split(ans, ",")
	default:
		if _, ok := resolveOption(ans, options); ok {
			parts = []string{ans}
		} else {
			parts = strings.Fields(ans)
		}
	}
	var out []string
	for _, p := range parts {
		p = strings.TrimSpace(p)
		o, ok := resolveOption(p, options)
		if !ok {
			return nil, fmt.Sprintf("%s: name them by number or name, first to last, separated by commas", notAnOption(p))
		}
		if slices.Contains(out, o) {
			return nil, fmt.Sprintf("%s is named twice", o)
		}
		out = append(out, o)
	}
	if len(out) == len(options)-1 {
		for _, o := range options {
			if !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	if len(out) != len(options) {
		return nil, fmt.Sprintf("arrange all %d, first to last, separated by commas (such as 2, 1)", len(options))
	}
	return out, ""
}

// unitNamed returns the unit an answer names, in any case, or nil.
func (t *table) unitNamed(ans string) *runtime.Unit {
	if t.b == nil || ans == "" {
		return nil
	}
	if u := t.b.Unit(ans); u != nil {
		return u
	}
	for _, u := range t.b.Units() {
		if strings.EqualFold(u.Name, ans) {
			return u
		}
	}
	return nil
}

func unitNames(units []*runtime.Unit) []string {
	names := make([]string, len(units))
	for i, u := range units {
		names[i] = u.Name
	}
	return names
}

// named returns the name of the unit or side an answer at "another round?"
// names: as typed, or else the one unit or side whose name it is in
// another case, as the prompts in a round take names ("mira" for Mira).
// Anything else is returned as typed, for the change to refuse.
func (t *table) named(name string) string {
	if t.b.Unit(name) != nil || t.b.Side(name) != nil {
		return name
	}
	var found []string
	for _, u := range t.b.Units() {
		if strings.EqualFold(u.Name, name) {
			found = append(found, u.Name)
		}
	}
	for _, s := range t.b.Sides() {
		if strings.EqualFold(s.Name, name) {
			found = append(found, s.Name)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return name
}

// decide asks a player for a decision.
func (t *table) decide(ctx context.Context, d runtime.Decision) ([]string, error) {
	t.flush()
	t.question()
	def := ""
	if len(d.Default) == 1 {
		def = d.Default[0]
	}
	switch d.Kind {
	case runtime.ChooseFirst:
		fmt.Fprintf(t.out, "Round %d, %s: %s chooses who goes first:\n", d.Round, d.Standing, d.By)
		ans, err := t.choose(ctx, d.Options, def, d.By+" chooses: ", t.noSaveIn("while "+d.By+" chooses who goes first"), nil, "", "")
		return []string{ans}, err
	case runtime.ChooseBeforeAfter:
		// Before or after whom, and who goes, where a side chooses for
		// its unit.
		what := fmt.Sprintf("%s chooses to go before or after the others it is tied with", d.By)
		switch {
		case len(d.Others) > 0 && d.Self == d.By:
			what = fmt.Sprintf("%s chooses to go before or after %s", d.By, wording.AndList(d.Others))
		case len(d.Others) > 0:
			what = fmt.Sprintf("%s chooses whether %s goes before or after %s", d.By, d.Self, wording.AndList(d.Others))
		}
		fmt.Fprintf(t.out, "Round %d, %s: %s:\n", d.Round, d.Standing, what)
		ans, err := t.choose(ctx, d.Options, def, d.By+" chooses: ", t.noSaveIn("while "+d.By+" chooses before or after"), nil, "", "")
		return []string{ans}, err
	case runtime.ChooseActivation:
		fmt.Fprintf(t.out, "Round %d: %s activates:\n", d.Round, d.By)
		// Every refusal says why, then what to type instead, in one
		// wording whatever the reason.
		own := slices.DeleteFunc(slices.Clone(d.Options), func(o string) bool { return o == "pass" })
		instead := fmt.Sprintf("%s activates one of its own ready units (%s)", d.By, strings.Join(own, ", "))
		refuse := func(ans string) string {
			// A unit that is not to be had here, in the words the
			// runtime refuses it in.
			name := ans
			if u := t.unitNamed(ans); u != nil {
				name = u.Name
			} else if removed := t.removedThisRound(ans); removed != "" {
				name = removed
			}
			if why := t.b.WhyNotActivate(d.By, name); why != "" && !slices.Contains(d.Options, name) {
				return why + ": " + instead
			}
			switch {
			case !strings.EqualFold(ans, "pass"):
			case d.Drawn:
				return fmt.Sprintf("%s may not pass, as it was drawn from the bag: %s", d.By, instead)
			case d.PassWhen != "":
				return fmt.Sprintf("%s may not pass now: it may pass only when `%s`, and that is false for it; %s", d.By, d.PassWhen, instead)
			default:
				return fmt.Sprintf("%s may not pass while it has a ready unit: %s", d.By, instead)
			}
			return ""
		}
		// The battle can be saved here: Step has played nothing of the
		// turn yet, and the battle restored from the save asks it again.
		// And play can stop here, once it is saved.
		t.atActivationPrompt()
		extra := ""
		// A unit's whole name wins over save and quit; its start does not.
		if slices.ContainsFunc(d.Options, func(o string) bool {
			o = strings.ToLower(o)
			return o != "save" && o != "quit" && (strings.HasPrefix(o, "save") || strings.HasPrefix(o, "quit"))
		}) {
			extra += "\n  a unit whose name starts with save or quit: type its whole name, or its number (save and quit alone are the prompt's)"
		}
		for _, o := range d.Options {
			switch strings.ToLower(o) {
			case "save":
				extra += "\n  save alone picks the unit " + o + " here: type save FILE to save the battle"
			case "quit":
				extra += "\n  quit picks the unit " + o + " here: play can stop at the next prompt that asks which unit activates"
			}
		}
		ans, err := t.betweenTurns(ctx, d.Options, def, d.By+" activates: ", refuse, "", extra)
		return []string{ans}, err
	case runtime.ChooseOrder:
		fmt.Fprintf(t.out, "Round %d, %s: %s arranges %s, first to last:\n", d.Round, d.Standing, d.By, wording.AndList(d.Options))
		for i, o := range d.Options {
			fmt.Fprintf(t.out, "  %d. %s\n", i+1, o)
		}
		prompt := d.By + " arranges: "
		if len(d.Default) > 0 {
			prompt = fmt.Sprintf("%s arranges [%s]: ", d.By, strings.Join(d.Default, ", "))
		}
		help := func() {
			t.say("type all %d, first to last, by number or name, separated by commas (such as 2, 1); the last one can be left out", len(d.Options))
			for i, o := range d.Options {
				fmt.Fprintf(t.out, "  %d. %s\n", i+1, o)
			}
			if len(d.Default) > 0 {
				t.say("Enter takes %s", strings.Join(d.Default, ", "))
			}
		}
		if slices.ContainsFunc(d.Options, isHelp) {
			help = nil
		}
		for {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			ans, err := t.ask(prompt, help)
			if err != nil {
				return nil, err
			}
			if ans == "" && len(d.Default) > 0 {
				return d.Default, nil
			}
			order, why := parseArrangement(ans, d.Options)
			if why == "" {
				return order, nil
			}
			if isSave(ans) {
				t.cannotSave("while " + d.By + " arranges them")
				continue
			}
			if isQuit(ans) {
				t.cannotStop("while " + d.By + " arranges them")
				continue
			}
			if looksLikeChange(ans) {
				t.cannotChange("while " + d.By + " arranges them")
				continue
			}
			t.say("%s", why)
		}
	}
	return nil, &runtime.RoundError{Round: d.Round, Err: fmt.Errorf("a decision of an unknown kind %q: %s", d.Kind, d)}
}

// removedThisRound returns the name of the unit ans names, in any case,
// if it was removed from the battle in the round under way: the battle
// no longer has the unit to match the answer's case against, but the
// round's events name it.
func (t *table) removedThisRound(ans string) string {
	if !t.b.InRound() || t.unitNamed(ans) != nil {
		return ""
	}
	for _, ev := range t.b.Events() {
		if ev.Kind == runtime.EvRemoved && strings.EqualFold(ev.Subject, ans) {
			return ev.Subject
		}
	}
	return ""
}

// playRound plays the next round (or finishes one restored in mid-round).
// With --save, it saves the battle when the round's activation loop begins
// (with the round's opening dice and decisions, such as the priority
// roll-off) and after each activation, so that the file is never more than
// one activation behind. A change typed where Step asks which unit
// activates (or, in activation draw, which colour came out of the bag) is
// made between the two turns, and Step asks again.
func (t *table) playRound(ctx context.Context) (*runtime.RoundResult, error) {
	if !t.b.InRound() {
		fmt.Fprintf(t.out, "\nRound %d\n", t.b.Round()+1)
		if err := t.b.StartRound(ctx); err != nil {
			return nil, err
		}
		t.activated() // the earliest the round can be saved: at its first activation
		// As run says them: before the round's transcript, where the
		// order would have been made.
		for _, line := range keptStandings(t.b, t.b.Round()) {
			fmt.Fprintf(t.out, "  %s\n", line)
		}
	}
	t.flush()
	for {
		if turn := t.b.Next(); turn != nil && turn.Undrawn {
			// Step draws from the bag first: the battle as it stands
			// there, where it cannot be saved from (see drawing).
			t.undrawn, t.undrawnErr = t.b.Snapshot()
		}
		done, err := t.b.Step(ctx)
		if p, ok := errors.AsType[*pendingChange](err); ok {
			if err := t.change(ctx, p); err != nil {
				return nil, err
			}
			continue
		}
		if err != nil {
			return nil, err
		}
		t.flush()
		if done {
			break
		}
		t.activated()
	}
	res, err := t.b.EndRound(ctx)
	if err != nil {
		return nil, err
	}
	t.flush()
	return res, nil
}

// showResult prints what a round settled.
func (t *table) showResult(res *runtime.RoundResult) {
	fmt.Fprintf(t.out, "  → %s\n", standing(res))
	if len(res.Activations) > 0 {
		fmt.Fprintf(t.out, "  → activations: %s\n", activations(res.Activations))
	}
}

// standing says a round's order, holder and chooser.
func standing(res *runtime.RoundResult) string {
	chooser := res.Chooser
	if chooser == "" {
		chooser = "none"
	}
	return fmt.Sprintf("order: %s   holder: %s   chooser: %s", strings.Join(res.Order, ", "), res.Holder, chooser)
}

// activations says a round's turns: "Jay: j1; Rob passes".
func activations(recs []runtime.ActivationRecord) string {
	acts := make([]string, len(recs))
	for i, a := range recs {
		if a.Pass {
			acts[i] = a.Side + " passes"
		} else {
			acts[i] = a.Side + ": " + a.Unit
		}
	}
	return strings.Join(acts, "; ")
}

// showStanding shows where a battle resumed between rounds stands: its last
// round as that round's end showed it, and the order the next round starts
// from, where a change made after that round has changed it.
func (t *table) showStanding() {
	res := t.b.Result()
	if res == nil {
		return
	}
	t.showResult(res)
	if now := t.b.Order(); len(now) > 0 && !slices.Equal(now, res.Order) {
		t.say("the order is now %s, after the changes made since", strings.Join(now, ", "))
	}
}

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
		" (or, to play it on with %s all the same, delete \"played_with\" from %s)",
		path, was, now, shellWord(was.arg()), shellWord(path), now.arg(), path), ""
}

// stamp adds to a snapshot the ruleset file it is played with, first, so
// that the rest reads as Battle.Snapshot wrote it. Restore passes over it.
func stamp(data []byte, w playedWith) ([]byte, error) {
	rest, ok := bytes.CutPrefix(data, []byte("{\n"))
	if !ok {
		return nil, fmt.Errorf("a snapshot that is not a JSON object: %.20q", data)
	}
	field, err := json.MarshalIndent(w, "  ", "  ")
	if err != nil {
		return nil, err
	}
	out := append([]byte("{\n  \"played_with\": "), field...)
	out = append(out, ",\n"...)
	return append(out, rest...), nil
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

// write saves the battle to path and notes what the file now holds.
func (t *table) write(path string) error {
	data, err := t.snapshot()
	if err != nil {
		return err
	}
	if err := saveBattle(data, t.with, path); err != nil {
		return err
	}
	t.writtenData = data
	// In a round, the file holds the changes made before it as the round
	// itself does.
	t.written, t.writtenAt, t.writtenChanges, t.lost = path, t.position(), t.changed && !t.b.InRound(), false
	return nil
}

// madeChange notes a change made at the prompt and, with --save, saves it
// at once: stopping, or an input that ends in the next round, loses
// nothing.
func (t *table) madeChange() {
	t.changed, t.lost = true, true
	if t.saveTo == "" {
		return
	}
	if err := t.write(t.saveTo); err != nil {
		t.say("not saved: %v", err)
		return
	}
	t.say("saved to %s", t.saveTo)
}

// activated saves, with --save, the battle in a round whose activations
// are not over (begun, or after an activation): quietly, as the round's
// end says it saved. A failed save is said, and the round goes on.
func (t *table) activated() {
	if t.saveTo == "" || t.b.Next() == nil {
		return
	}
	if err := t.write(t.saveTo); err != nil {
		t.say("not saved: %v", err)
	}
}

// atActivationPrompt saves, with --save, the battle at the prompt that
// asks which unit activates, when it has changed since the last save:
// in activation draw a die has come out of the bag since the activation
// before, and the file is to hold it, for quit to stop here and the
// battle to resume with the same die drawn. Elsewhere the file already
// holds the battle as it stands here (see activated), and is not written
// again.
func (t *table) atActivationPrompt() {
	if t.saveTo == "" {
		return
	}
	if data, err := t.snapshot(); err == nil && bytes.Equal(data, t.writtenData) {
		return
	}
	if err := t.write(t.saveTo); err != nil {
		t.say("not saved: %v", err)
	}
}

// roundEnded notes a round played to its end and, with --save, saves it.
func (t *table) roundEnded() error {
	t.changed = false
	if t.saveTo == "" {
		return nil
	}
	if err := t.write(t.saveTo); err != nil {
		return err
	}
	t.say("saved to %s", t.saveTo)
	return nil
}

// whereSaved says which file holds the battle, and as it was when, for the
// message play stops with.
func (t *table) whereSaved() string {
	if t.written == "" {
		if t.resumed != "" {
			return fmt.Sprintf("nothing was saved; %s still holds the battle as it was %s", t.resumed, t.resumedAt)
		}
		return "nothing was saved"
	}
	s := fmt.Sprintf("%s holds the battle as it was %s", t.written, t.writtenAt)
	if t.writtenChanges {
		s += " and the changes made after it"
	}
	if t.lost {
		s += ", without the changes made since"
	}
	return s
}

// keepChanges saves, as play stops, the changes made at the prompt that
// --save could not save when they were made. It returns why it could not.
func (t *table) keepChanges() string {
	if t.saveTo == "" || !t.lost {
		return ""
	}
	if err := t.write(t.saveTo); err != nil {
		return fmt.Sprintf("--save: %v (%s)", err, t.whereSaved())
	}
	t.say("saved to %s", t.saveTo)
	return ""
}

// cutError is the end of the input while a change made at the prompt was
// still asking for the dice or decisions it needs.
type cutError struct{ change string }

func (e *cutError) Error() string { return "input ended during " + e.change }
func (e *cutError) Unwrap() error { return errInputEnded }

var (
	setRE = regexp.MustCompile(`^set\s+(\w+)\s+of\s+(.+?)\s*=\s*(.+)$`)
	isRE  = regexp.MustCompile(`^(.+?)\s+is\s+(not\s+)?(\w+)$`)
)

// question notes a question asked.
func (t *table) question() { t.asked++ }

// snapshot is the battle as it stands, as a save writes it (see drawing).
func (t *table) snapshot() ([]byte, error) {
	if t.drawing {
		return t.undrawn, t.undrawnErr
	}
	return t.b.Snapshot()
}

// holder returns the file that holds the battle as it stands, and where it
// stands: the file written last in this session, or else the --resume
// file; or "" when neither does.
func (t *table) holder() (file, at string) {
	if t.lost {
		return "", ""
	}
	data, err := t.snapshot()
	switch {
	case err != nil:
	case t.written != "":
		if bytes.Equal(data, t.writtenData) {
			return t.written, t.writtenAt
		}
	case t.resumed != "" && t.resumedData != nil:
		if bytes.Equal(data, t.resumedData) {
			return t.resumed, t.resumedAt
		}
	}
	return "", ""
}

// stopError stops play cleanly where a file holds the battle as it
// stands: the players typed quit at the prompt that asks which unit
// activates, or at "another round?", or the input ended at the first.
type stopError struct {
	eof      bool   // the input ended
	file, at string // the file that holds the battle, and where it stands
}

func (e *stopError) Error() string { return "stopped" }

// stopped is the message play stops with after a stopError. The command
// it gives continues the battle as the session would have: with its --save
// file, and, after --rounds N, with the rounds left of the N (with
// --resume, --rounds counts the round resumed in its middle as the first).
func (t *table) stopped(e *stopError, saveTo string, rounds, left int) string {
	resume := t.resumeWith(e.file, saveTo, left)
	if left > 0 {
		resume += fmt.Sprintf(" (the rounds left of --rounds %d: %s)", rounds, roundsLeft(t.b.Round(), left))
	}
	if e.eof {
		return fmt.Sprintf("input ended %s, where the battle was saved: %s holds it as it stands; %s", e.at, e.file, resume)
	}
	return fmt.Sprintf("stopped %s: %s holds the battle as it stands; %s", e.at, e.file, resume)
}

// resumeWith says how to resume the battle file holds: "resume it with
// `turnorder play RULESET --resume FILE`", with --save saveTo, and
// --rounds left when it is not 0.
func (t *table) resumeWith(file, saveTo string, left int) string {
	resume := "turnorder play " + shellWord(t.with.arg()) + " --resume " + shellWord(file)
	if saveTo != "" {
		resume += " --save " + shellWord(saveTo)
	}
	if left > 0 {
		resume += " --rounds " + strconv.Itoa(left)
	}
	return "resume it with `" + resume + "`"
}

// roundsLeft names the rounds left to play from the middle of round r,
// left of them in all, r included: "the rest of round 2, and round 3".
func roundsLeft(r, left int) string {
	switch left {
	case 1:
		return fmt.Sprintf("the rest of round %d", r)
	case 2:
		return fmt.Sprintf("the rest of round %d, and round %d", r, r+1)
	case 3:
		return fmt.Sprintf("the rest of round %d, and rounds %d and %d", r, r+1, r+2)
	}
	return fmt.Sprintf("the rest of round %d, and rounds %d to %d", r, r+1, r+left-1)
}

// shellWord quotes s for a shell command line, if it needs it.
func shellWord(s string) string {
	if s != "" && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./+,:@%=", r))
	}) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// isOneOf reports whether an answer is one of words, in any case.
func isOneOf(ans string, words ...string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.EqualFold(ans, w) })
}

// isQuit reports whether an answer is "quit".
func isQuit(ans string) bool { return strings.EqualFold(ans, "quit") }

// isSave reports whether an answer is "save" or "save FILE".
func isSave(ans string) bool {
	w, _, _ := strings.Cut(ans, " ")
	return strings.EqualFold(w, "save")
}

// bareSave says where a save without FILE writes.
func (t *table) bareSave() string {
	switch {
	case t.saveTo != "":
		return "without FILE, to " + t.saveTo
	case t.resumed != "":
		return "without FILE, to " + t.resumed
	}
	return "without FILE, play asks for one"
}

// saveAt saves the battle where the players typed save [FILE]: to path,
// or else to the --save file, or else to the --resume file, or else to the
// file it asks for. It says what it did; the error is only that of the
// input, which ended at "save to which file?".
func (t *table) saveAt(path string) error {
	path = strings.TrimSpace(path)
	if path == "" {
		path = t.saveTo
	}
	if path == "" {
		path = t.resumed
	}
	if path == "" {
		var err error
		for {
			path, err = t.ask("save to which file? ", func() {
				t.say("type the name of a file to save the battle to, such as battle.json; Enter saves nothing")
			})
			if err != nil {
				return err
			}
			// "save battle.json" here, as at the other prompt, names
			// battle.json.
			if w, p, _ := strings.Cut(path, " "); strings.EqualFold(w, "save") {
				path = strings.TrimSpace(p) // a bare "save" names no file
			}
			// A player who changed their mind, or said yes, has not named
			// a file called n or y.
			if isOneOf(path, "n", "no", "q", "quit") {
				path = ""
			}
			if !isOneOf(path, "y", "yes") {
				break
			}
			t.say("type the name of the file, such as battle.json (or Enter to save nothing)")
		}
	}
	if path == "" {
		t.say("not saved: name a file, as in: save battle.json")
		return nil
	}
	if err := t.write(path); err != nil {
		t.say("not saved: %v", err)
		return nil
	}
	t.say("saved to %s", path)
	return nil
}

// noSaveIn returns the command of a prompt where the battle cannot be
// saved (the runtime saves no roll, draw or order's choice half made):
// save there says why not, and when it can.
func (t *table) noSaveIn(where string) func(string) (bool, error) {
	return func(ans string) (bool, error) {
		switch {
		case isSave(ans):
			t.cannotSave(where)
		case isQuit(ans):
			t.cannotStop(where)
		case looksLikeChange(ans):
			t.cannotChange(where)
		default:
			return false, nil
		}
		return true, nil
	}
}

// activates reports whether the ruleset has an activation loop: where
// it has none (mesbg) there is no prompt that asks which unit activates
// to point the players to.
func (t *table) activates() bool {
	return slices.Contains(t.b.Program().Decisions(), runtime.ChooseActivation)
}

// cannotStop says why play cannot stop where the players typed quit, and
// where it can.
func (t *table) cannotStop(where string) {
	if t.changing && !t.b.InRound() {
		t.say("play cannot stop %s: it can stop once the change is done, at \"another round?\"", where)
		return
	}
	if !t.activates() {
		t.say("play cannot stop %s: it can stop once the round is over, at \"another round?\"", where)
		return
	}
	if t.changing {
		t.say("play cannot stop %s: it can stop once the change is done, when a unit is to be activated and the battle is saved there", where)
		return
	}
	t.say("play cannot stop %s: it can stop when a unit is to be activated, once the battle is saved there, or at \"another round?\"", where)
}

// cannotSave says why the battle cannot be saved where the players typed
// save, and when it can.
func (t *table) cannotSave(where string) {
	// A change is asking for what its recomputation needs.
	if t.changing && !t.b.InRound() {
		t.say("the battle cannot be saved %s: it can be saved once the change is done, at \"another round?\"", where)
		return
	}
	if !t.activates() {
		t.say("the battle cannot be saved %s: it can be saved between rounds, at \"another round?\"", where)
		return
	}
	if t.changing {
		t.say("the battle cannot be saved %s: it can be saved once the change is done, when a unit is to be activated", where)
		return
	}
	t.say("the battle cannot be saved %s: a battle can be saved between rounds, or when a unit is to be activated", where)
}

// cannotChange says why no change can be made where the players typed
// one, and where it can. The question is the runtime's, asked while it
// makes an order (a roll, a random pick, a choice): a unit removed or a
// value set then would change what that order is made of half way
// through. A change's own recomputation is such an order too.
func (t *table) cannotChange(where string) {
	switch {
	case t.changing:
		t.say("no other change can be made %s: this one is not done until its order is made again (make the next one after it)", where)
	case !t.activates():
		t.say("no change can be made %s: an order is being made, and a change would alter what it is made of half way through; make it at \"another round?\"", where)
	default:
		t.say("no change can be made %s: an order is being made, and a change would alter what it is made of half way through; make it when a unit is to be activated, or at \"another round?\"", where)
	}
}

// position says where the battle stands, for a save: "after round 2"
// between rounds, or in a round's activation loop "in round 3, at Jay's
// activation" (or "at the next draw from the bag", in activation draw).
func (t *table) position() string {
	b := t.b
	if !b.InRound() {
		return fmt.Sprintf("after round %d", b.Round())
	}
	switch turn := b.Next(); {
	case turn == nil:
		return fmt.Sprintf("in round %d, after its activations", b.Round())
	case turn.Undrawn:
		return fmt.Sprintf("in round %d, at the next draw from the bag", b.Round())
	default:
		return fmt.Sprintf("in round %d, at %s activation", b.Round(), wording.Possessive(turn.Side))
	}
}

// betweenHelp says what can be typed at "another round?".
func (t *table) betweenHelp() {
	save := "to FILE (" + t.bareSave() + ")"
	t.say("y, or Enter               play another round")
	t.say("n                         stop (where the battle is not saved as it stands, play asks for a file first)")
	t.say("quit                      stop, once the battle as it stands is saved (play says how to resume it)")
	t.say("save [FILE]               save the battle %s", save)
	for _, c := range t.changeCommands() {
		t.say("%-25s %s", c[0], c[1])
	}
}

// changeCommands are the changes that can be typed between rounds and
// where a unit is to be activated, each with what it does, for the help
// of both prompts.
func (t *table) changeCommands() [][2]string {
	statuses := "this ruleset declares none"
	if len(t.decl.statuses) > 0 {
		statuses = strings.Join(t.decl.statuses, ", ")
	}
	return [][2]string{
		{"set ATTR of NAME = VALUE", "change an attribute of a side or unit (" + t.setExample() + ")"},
		{"UNIT is [not] STATUS", "give a unit a status, or take it away (statuses: " + statuses + ")"},
		{"remove UNIT", "take a fallen model out of the battle"},
	}
}

// setExample shows set with one of the ruleset's own attributes, of one
// of the battle's units or sides: "as in: set agi of Aria = 6".
func (t *table) setExample() string {
	example := func(a runtime.Attr, name string) string {
		value := "6"
		switch a.Type {
		case runtime.BoolAttr:
			value = "true"
		case runtime.StringAttr:
			value = `"text"`
		}
		return fmt.Sprintf("as in: set %s of %s = %s", a.Name, name, value)
	}
	prog := t.b.Program()
	if attrs, units := prog.UnitAttrs(), t.b.Units(); len(attrs) > 0 && len(units) > 0 {
		return example(attrs[0], units[0].Name)
	}
	if attrs, sides := prog.SideAttrs(), t.b.Sides(); len(attrs) > 0 && len(sides) > 0 {
		return example(attrs[0], sides[0].Name)
	}
	if statuses, units := prog.Statuses(), t.b.Units(); len(statuses) > 0 && len(units) > 0 {
		return example(runtime.Attr{Name: statuses[0], Type: runtime.BoolAttr}, units[0].Name)
	}
	return "this ruleset declares no attributes"
}

// pendingChange is a change typed at a prompt (remove, set, is), checked,
// and not made yet. Between rounds play makes it at once. In a round it is
// typed where Step asks which unit activates, or which colour came out of
// the bag: the decider or the dice return it as their error, so that Step
// plays nothing of the turn, and playRound makes it between the two turns,
// outside Step. Made from inside Step, it would leave Step's question with
// options the change has taken away (a unit removed), and the battle put
// back if it fails (see change) would not be the one Step plays; its own
// recomputation may ask for dice and decisions too. Step then asks again,
// of the battle as the change left it.
type pendingChange struct {
	ans       string // as typed
	msg, same string // what change says it did, or that it changed nothing
	do        func(ctx context.Context) (bool, error)
}

func (p *pendingChange) Error() string { return "a change to make between two turns: " + p.ans }

// unitStatus reads "UNIT is [not] STATUS" naming a unit of the battle: a
// prompt takes it before its own words, for a unit called y, or save.
func (t *table) unitStatus(ans string) (*pendingChange, bool) {
	m := isRE.FindStringSubmatch(ans)
	if m == nil {
		return nil, false
	}
	unit := t.named(strings.Trim(m[1], `"`))
	if t.b.Unit(unit) == nil {
		return nil, false
	}
	return t.statusChange(ans, unit, m[3], m[2] == ""), true
}

// parseChange reads a change typed at a prompt: "remove UNIT", "set ATTR
// of NAME = VALUE", "UNIT is [not] STATUS". It reports whether ans is one;
// one that cannot be made as it is (no such unit, a status the ruleset
// does not declare) is refused here, saying why, and is nil.
func (t *table) parseChange(ans string) (*pendingChange, bool) {
	if p, ok := t.unitStatus(ans); ok {
		return p, true
	}
	word, rest, _ := strings.Cut(ans, " ")
	switch strings.ToLower(word) {
	case "set":
		m := setRE.FindStringSubmatch(ans)
		if m == nil {
			t.say("write: set ATTRIBUTE of NAME = VALUE (%s)", t.setExample())
			return nil, true
		}
		attr, name, value := m[1], t.named(strings.Trim(m[2], `"`)), strings.TrimSpace(m[3])
		if slices.Contains(t.decl.statuses, attr) {
			if value != "true" && value != "false" {
				t.say("%s is a status: set it to true or false, or write: %s is %s, %s is not %s", attr, name, attr, name, attr)
				return nil, true
			}
			return t.statusChange(ans, name, attr, value == "true"), true
		}
		if why := t.decl.noAttr(t.b, name, attr); why != "" {
			t.say("%s", why)
			return nil, true
		}
		return &pendingChange{
			ans:  ans,
			msg:  fmt.Sprintf("%s of %s is now %s", attr, name, value),
			same: fmt.Sprintf("%s of %s is already %s", attr, name, value),
			do: func(ctx context.Context) (bool, error) {
				old, _ := t.attr(name, attr)
				err := t.b.SetAttr(ctx, name, attr, attrValue(value, isIntAttr(t.b, name, attr)))
				now, _ := t.attr(name, attr)
				return now != old, err
			},
		}, true
	case "remove":
		name := t.named(strings.Trim(strings.TrimSpace(rest), `"`))
		if s := t.b.Side(name); s != nil && t.b.Unit(name) == nil {
			t.say("%s is a side: remove takes a unit (%s units: %s)", name, wording.Possessive(name), wording.OrNone(unitNames(s.Units)))
			return nil, true
		}
		if name == "" {
			t.say("write: remove UNIT (the battle's units: %s)", wording.OrNone(unitNames(t.b.Units())))
			return nil, true
		}
		msg := name + " is removed from the battle"
		if u := t.b.Unit(name); u != nil && u.Ready && t.b.InRound() {
			// What the players most need to know in a round.
			msg += "; it was Ready, and no longer activates this round"
		}
		return &pendingChange{ans: ans, msg: msg, do: func(ctx context.Context) (bool, error) {
			known := t.b.Unit(name) != nil // or RemoveUnit refuses, changing nothing
			return known, t.b.RemoveUnit(ctx, name)
		}}, true
	}
	if m := isRE.FindStringSubmatch(ans); m != nil {
		return t.statusChange(ans, t.named(strings.Trim(m[1], `"`)), m[3], m[2] == ""), true
	}
	return nil, false
}

// looksLikeChange reports whether ans has the shape of a change (remove
// UNIT, set ..., UNIT is STATUS), for the prompts that take none.
func looksLikeChange(ans string) bool {
	word, rest, _ := strings.Cut(ans, " ")
	switch strings.ToLower(word) {
	case "set", "remove":
		return strings.TrimSpace(rest) != ""
	}
	return isRE.MatchString(ans)
}

// change makes a change typed at a prompt and says what it did: p.msg,
// what the recomputation it started did to the order, and why (the events
// after the change's own, which the rest of the round, or the next one,
// does not show again). The change may ask for dice and decisions (it
// recomputes the orders kept until what it changes changes); an input
// that ends then is a *cutError. Any other failure (a rule that fails in
// the recomputation) is said, the change is undone, and the battle goes
// on. p.do reports whether anything changed: if not, there is no event,
// and p.same is said instead of p.msg, or the error that refused the
// change as it is.
func (t *table) change(ctx context.Context, p *pendingChange) error {
	before, asked := t.b.Order(), t.asked
	inRound := t.b.InRound()
	turn := t.turnSide()
	pending, shown := len(t.b.PendingEvents()), t.shown
	backup := t.b.Clone() // the same dice and decider: the table's
	// The change's own event comes first, and msg says it: a question the
	// recomputation asks shows the events after it (see flush). Between
	// rounds the change's events wait for the next round; in a round they
	// are the round's.
	if inRound {
		t.shown = len(t.b.Events()) + 1
	} else {
		t.told = pending + 1
	}
	t.changing = true
	changed, err := p.do(ctx)
	t.changing = false
	if (!changed || err != nil) && inRound {
		t.shown = shown
	} else if !changed || err != nil {
		t.told = pending
	}
	if err != nil {
		if errors.Is(err, errInputEnded) {
			return &cutError{p.ans}
		}
		t.b = backup
		if !changed {
			t.say("%v", err) // refused before anything changed
			return nil
		}
		t.say("%v: the change is undone", err)
		return nil
	}
	if !changed {
		t.say("%s", p.same)
		return nil
	}
	// The orders kept until the value changes are already recomputed:
	// say what that did to the order, which the next round (or, in a
	// round, the turns left) starts from.
	msg := p.msg
	switch after := t.b.Order(); {
	case !slices.Equal(before, after):
		msg += "; the order is now " + strings.Join(after, ", ")
	case t.asked > asked:
		msg += "; the order is recomputed and stays " + strings.Join(after, ", ")
	}
	t.say("%s", msg)
	// What the recomputation did, and why, that no question has shown;
	// the change's own event (the first) is msg.
	t.flush()
	if now := t.turnSide(); inRound && turn != "" && now != "" && now != turn {
		// Once turns have begun the runtime keeps the turn with its
		// side; before the first, it stays at its place in the order
		// (the new first side, the new holder), and a side with no
		// ready unit is passed over. Either way the players, who were
		// waiting for turn's move, must be told.
		why := ""
		// Said only where it is so: the place the turn was at is now's.
		if after := t.b.Order(); !slices.Equal(before, after) {
			if i := slices.Index(before, turn); i >= 0 && i < len(after) && after[i] == now {
				why = fmt.Sprintf(": the turn stays at #%d in the order, which is %s place now", i+1, wording.Possessive(now))
			}
		}
		t.say("it is %s turn now, not %s%s", wording.Possessive(now), wording.Possessive(turn), why)
	}
	t.madeChange()
	return nil
}

// turnSide is the side whose turn it is in the activation loop, or "" when
// there is none, or it is still to be drawn from the bag.
func (t *table) turnSide() string {
	if !t.b.InRound() {
		return ""
	}
	if turn := t.b.Next(); turn != nil && !turn.Undrawn {
		return turn.Side
	}
	return ""
}

// attr is the value of a side's or unit's attribute.
func (t *table) attr(name, attr string) (any, bool) {
	if u := t.b.Unit(name); u != nil {
		v, ok := u.Attrs[attr]
		return v, ok
	}
	if s := t.b.Side(name); s != nil {
		v, ok := s.Attrs[attr]
		return v, ok
	}
	return nil, false
}

// statusChange is the change that gives a unit a status, or takes it
// away: "a1 is pinned", "a1 is not pinned", as scenarios write it. One
// that cannot be is refused, saying why, and is nil.
func (t *table) statusChange(ans, unit, status string, on bool) *pendingChange {
	u := t.b.Unit(unit)
	switch {
	case u == nil && t.b.Side(unit) != nil:
		t.say("%s is a side: statuses are units'", unit)
		return nil
	case u == nil:
		t.say("no unit is called %s", unit)
		return nil
	case !slices.Contains(t.decl.statuses, status):
		t.say("%s is not a status (unit statuses: %s)", status, wording.OrNone(t.decl.statuses))
		return nil
	case u.Status[status] == on && on:
		t.say("%s is already %s", unit, status)
		return nil
	case u.Status[status] == on:
		t.say("%s is already not %s", unit, status)
		return nil
	}
	msg := unit + " is now " + status
	if !on {
		msg = unit + " is no longer " + status
	}
	if on && u.Ready && t.b.InRound() {
		// A ready rule reads statuses when the round places its markers:
		// a status given since takes none away. A model out of the fight
		// is removed.
		msg += fmt.Sprintf(", and keeps its Ready marker this round (statuses count when a round places Ready markers); if %s is out of the battle, type: remove %s", unit, unit)
	}
	return &pendingChange{ans: ans, msg: msg, do: func(ctx context.Context) (bool, error) {
		return true, t.b.SetStatus(ctx, unit, status, on) // the cases above change nothing
	}}
}

// declarations are the names a ruleset declares for sides and units, for
// the prompt's set and is.
type declarations struct {
	sideAttrs, unitAttrs, statuses []string
}

// declared reads the declarations of the program's ruleset.
func declared(p *runtime.Program) declarations {
	names := func(attrs []runtime.Attr) []string {
		out := make([]string, len(attrs))
		for i, a := range attrs {
			out[i] = a.Name
		}
		return out
	}
	return declarations{sideAttrs: names(p.SideAttrs()), unitAttrs: names(p.UnitAttrs()), statuses: p.Statuses()}
}

// noAttr says why "set ATTR of NAME" cannot be, or returns "" to leave it
// to Battle.SetAttr, which also says where to set an attribute of the
// other kind (a unit's set of a side).
func (d declarations) noAttr(b *runtime.Battle, name, attr string) string {
	switch {
	case b.Unit(name) != nil && !slices.Contains(d.unitAttrs, attr) && !slices.Contains(d.sideAttrs, attr):
		why := fmt.Sprintf("%s has no attribute %s (unit attributes: %s", name, attr, wording.OrNone(d.unitAttrs))
		if len(d.statuses) > 0 {
			why += "; unit statuses: " + strings.Join(d.statuses, ", ")
		}
		return why + ")"
	case b.Unit(name) == nil && b.Side(name) != nil && !slices.Contains(d.sideAttrs, attr) && !slices.Contains(d.unitAttrs, attr):
		return fmt.Sprintf("%s has no attribute %s (side attributes: %s)", name, attr, wording.OrNone(d.sideAttrs))
	}
	return ""
}

// between asks whether to play another round, handling save and the
// changes on the way. It returns false when the players are done.
func (t *table) between(ctx context.Context) (bool, error) {
	for {
		ans, err := t.ask("another round? [Y/n/save] ", t.betweenHelp)
		if err != nil {
			return false, err
		}
		// "UNIT is STATUS" first, for a unit called y, n or save.
		p, isChange := t.unitStatus(ans)
		word, rest, _ := strings.Cut(ans, " ")
		switch w := strings.ToLower(word); {
		case isChange:
		case rest == "" && slices.Contains([]string{"", "y", "yes"}, w):
			return true, nil
		case rest == "" && slices.Contains([]string{"n", "no"}, w):
			return false, nil
		case rest == "" && slices.Contains([]string{"q", "quit"}, w):
			// As at the prompt that asks which unit activates: quit
			// stops once the battle is in a file, and says how to resume
			// it; n stops all the same.
			file, at := t.holder()
			if file == "" {
				t.say("the battle is not saved as it stands: type save FILE first, then quit (or n, to stop with or without saving it)")
				continue
			}
			return false, &stopError{file: file, at: at}
		case w == "save":
			if err := t.saveAt(rest); err != nil {
				return false, err
			}
			continue
		default:
			p, isChange = t.parseChange(ans)
		}
		if !isChange {
			t.say("answer y (another round), n (stop), quit, save [FILE], set ATTRIBUTE of NAME = VALUE, UNIT is [not] STATUS, remove UNIT, or help")
			continue
		}
		if p == nil {
			continue // refused, saying why
		}
		if err := t.change(ctx, p); err != nil {
			return false, err
		}
	}
}

// attrValue reads a typed value: a whole number, true or false, or text.
// For an int attribute, a number that is not an int (2.5, 1e300,
// 99999999999999999999) is handed over as a number, as JSON would send
// it, so that SetAttr says it is not whole, or out of range, not that
// it is a string.
func attrValue(s string, isInt bool) any {
	s = strings.TrimSpace(s)
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	if _, err := strconv.ParseFloat(s, 64); isInt && json.Valid([]byte(s)) && (err == nil || errors.Is(err, strconv.ErrRange)) {
		return json.Number(s)
	}
	switch s {
	case "true":
		return true
	case "false":
		return false
	}
	if u, err := strconv.Unquote(s); err == nil {
		return u
	}
	return s
}

// isIntAttr reports whether attr is an int attribute of the side or unit
// called name.
func isIntAttr(b *runtime.Battle, name, attr string) bool {
	decl := b.Program().UnitAttrs()
	if b.Side(name) != nil {
		decl = b.Program().SideAttrs()
	}
	i := slices.IndexFunc(decl, func(a runtime.Attr) bool { return a.Name == attr })
	return i >= 0 && decl[i].Type == runtime.IntAttr
}

func playBattle(e *env, o playOptions) int {
	fail := func(format string, args ...any) int {
		fmt.Fprintf(e.stderr, e.prefix()+format+"\n", args...)
		return exitError
	}
	var s setup
	var msg string
	s.prog, s.rs, msg = loadProgram(e, o.ruleset)
	if s.prog == nil {
		if msg != "" {
			return fail("%s", msg)
		}
		return exitError
	}
	prog := s.prog
	if o.save != "" {
		if err := canWrite(o.save); err != nil {
			return fail("--save: %v", err)
		}
	}

	t := newTable(e)
	dice := runtime.FuncDice{Die: t.die, PickOne: t.pickRandom}
	opts := []runtime.BattleOption{runtime.WithDice(dice), runtime.WithDecider(runtime.DeciderFunc(t.decide))}
	var b *runtime.Battle
	var err error
	if o.resume != "" {
		data, rerr := os.ReadFile(o.resume)
		if rerr != nil {
			return fail("--resume: %s", pathError(rerr))
		}
		if why := notSnapshot(data); why != "" {
			return fail("%s is not a saved battle (%s)", o.resume, why)
		}
		refuse, warn := checkPlayedWith(data, o.resume, prog.Name(), rulesetPlayed(o.ruleset, s.rs))
		if refuse != "" {
			return fail("%s", refuse)
		}
		if warn != "" {
			fmt.Fprintf(e.stderr, "%swarning: %s\n", e.prefix(), warn)
		}
		b, err = prog.Restore(data, opts...)
		if err != nil {
			return fail("cannot resume %s: %v", o.resume, err)
		}
	} else {
		var ok bool
		s.specs, s.from, msg = battleSides(e, prog, s.rs, runOptions{sides: o.sides, setup: o.setup})
		if s.specs == nil {
			if msg != "" {
				return fail("%s", msg)
			}
			return exitError
		}
		if b, ok = s.battle(e, opts...); !ok {
			return exitError
		}
	}
	// From here on the battle is t.b, not b: a change undone at "another
	// round?" puts a copy of the battle in its place.
	t.b = b
	t.markShown()
	t.decl = declared(prog)
	t.with = rulesetPlayed(o.ruleset, s.rs)
	t.saveTo = o.save
	if o.resume != "" {
		t.resumed, t.resumedAt = o.resume, t.position()
		t.resumedData, _ = t.b.Snapshot() // nil if it cannot be: quit then asks for a save
	}
	t.header(prog, o)
	// A battle resumed between rounds (the header shows where it stands)
	// is asked "another round?", as after any round: the players may have
	// resumed to look, to save elsewhere, or to make a change first.
	resumedBetween := o.resume != "" && !t.b.InRound() && t.b.Round() > 0

	ctx := context.Background()
	for n := 0; ; n++ {
		if o.rounds > 0 && n == o.rounds {
			t.endRounds()
			return exitOK
		}
		if o.rounds == 0 && (n > 0 || resumedBetween) {
			more, err := t.between(ctx)
			var cut *cutError
			if stop, ok := errors.AsType[*stopError](err); ok {
				fmt.Fprintf(e.stderr, "%s%s\n", e.prefix(), t.stopped(stop, o.save, 0, 0))
				return exitOK
			}
			switch {
			case errors.As(err, &cut):
				return fail("input ended during %s, before it was done: the change is not saved (%s)", cut.change, t.whereSaved())
			case errors.Is(err, errInputEnded) || t.eof:
				if msg := t.keepChanges(); msg != "" {
					return fail("%s", msg)
				}
				// The end of the input where play asks for another round is
				// a normal end: said where play says the input ended in a
				// round, but with exit status 0.
				fmt.Fprintf(e.stderr, "%s%s\n", e.prefix(), t.endedBetween(o.save))
				return exitOK
			case err != nil:
				return fail("%v", err)
			case !more:
				if msg := t.keepChanges(); msg != "" {
					return fail("%s", msg)
				}
				if file, _ := t.holder(); file != "" {
					return exitOK
				}
				// Rounds or changes no file holds: n does not lose them
				// unasked.
				stop, err := t.offerSave()
				switch {
				case stop != nil:
					fmt.Fprintf(e.stderr, "%s%s\n", e.prefix(), t.stopped(stop, o.save, 0, 0))
				case err != nil:
					fmt.Fprintf(e.stderr, "%s%s\n", e.prefix(), t.endedBetween(o.save))
				}
				return exitOK
			}
		}
		res, err := t.playRound(ctx)
		if stop, ok := errors.AsType[*stopError](err); ok {
			left := 0 // with --rounds, the rounds left to play, this one included
			if o.rounds > 0 {
				left = o.rounds - n
			}
			fmt.Fprintf(e.stderr, "%s%s\n", e.prefix(), t.stopped(stop, o.save, o.rounds, left))
			return exitOK
		}
		if err != nil {
			if cut, ok := errors.AsType[*cutError](err); ok {
				return fail("input ended during %s, in round %d, before it was done: the change is not saved (%s)", cut.change, t.b.Round(), t.whereSaved())
			}
			if errors.Is(err, errInputEnded) || t.eof {
				return fail("input ended in round %d, before the round was over (%s)", t.b.Round(), t.whereSaved())
			}
			s.report(e, runtime.InRound(t.b.Round(), err))
			return exitError
		}
		t.showResult(res)
		if err := t.roundEnded(); err != nil {
			return fail("--save: %v", err)
		}
	}
}

// endedBetween is the message play stops with when the input ends between
// rounds: which file holds the battle, and how to resume it, or, where none
// holds it as it stands, how to keep a battle next time.
func (t *table) endedBetween(saveTo string) string {
	msg := fmt.Sprintf("input ended after round %d (%s)", t.b.Round(), t.whereSaved())
	if file, _ := t.holder(); file != "" {
		return msg + "; " + t.resumeWith(file, saveTo, 0)
	}
	return msg + "; " + keepNextTime
}

// endRounds ends the rounds of --rounds. With --save, the last round has
// said "saved to FILE"; where no file holds the battle as they left it,
// play says so in its place, and how to keep one, as the end of the input
// between rounds does (but without "another round?", which --rounds does
// not ask).
func (t *table) endRounds() {
	if file, _ := t.holder(); file != "" {
		return
	}
	t.say("%s; to keep a battle, %s", t.notSaved(), keepWithSave)
}

// keepNextTime says how not to lose a battle, where one was.
const keepNextTime = `to keep a battle, type save FILE at "another round?" before stopping, or ` + keepWithSave

// keepWithSave is the way to keep a battle that every session has.
const keepWithSave = "play with --save FILE, which saves it after every round"

// notSaved says that no file holds the battle as it stands, and which
// holds it as it was, if one does.
func (t *table) notSaved() string {
	// Where the battle is, after the sentence: inside it, whereSaved's
	// "nothing was saved; ..." read as the battle's subject.
	what := fmt.Sprintf("the battle after round %d is not saved as it stands", t.b.Round())
	if t.written != "" || t.resumed != "" {
		what += " (" + t.whereSaved() + ")"
	}
	return what
}

// offerSave asks, as play stops at n, whether to save the battle that no
// file holds as it stands. A file named there is saved, and the stopError
// says how to resume it; Enter (or n) stops without it, saying so. The
// error is only that of the input, which ended there.
func (t *table) offerSave() (*stopError, error) {
	t.say("%s", t.notSaved())
	prompt := "save it to which file? (Enter: stop without saving) "
	if t.resumed != "" && t.saveTo == "" {
		prompt = fmt.Sprintf("save it to which file? (save: to %s; Enter: stop without saving) ", t.resumed)
	}
	help := func() {
		t.say("type a file to save the battle to, such as battle.json, to resume it later with --resume")
		if t.resumed != "" {
			t.say("save                      save it to %s, the file it was resumed from", t.resumed)
		}
		t.say("Enter, n or quit          stop without saving it")
	}
	for {
		ans, err := t.ask(prompt, help)
		if err != nil {
			return nil, err
		}
		w, rest, _ := strings.Cut(ans, " ")
		switch {
		case ans == "" || isOneOf(ans, "n", "no", "q", "quit"):
			t.say("not saved; %s", keepNextTime)
			return nil, nil
		case isOneOf(ans, "y", "yes"):
			// Not a file called y: the answer to "save it?".
			t.say("type the name of the file to save it to, such as battle.json (or Enter to stop without saving)")
			continue
		case strings.EqualFold(w, "save"):
			ans = strings.TrimSpace(rest)
			if ans == "" && t.resumed == "" {
				t.say("name a file, as in: save battle.json (or Enter to stop without saving)")
				continue
			}
			if ans == "" {
				ans = t.resumed
			}
		}
		if err := t.write(ans); err != nil {
			t.say("not saved: %v", err)
			continue
		}
		t.say("saved to %s", ans)
		return &stopError{file: ans, at: t.writtenAt}, nil
	}
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

// header opens the session. A resumed battle says where it stands: between
// rounds, how the last round ended; in mid-round, where in the round it is,
// which units still have a Ready marker, as the table should have them,
// and the round's order and activations so far.
func (t *table) header(p *runtime.Program, o playOptions) {
	b := t.b
	printHeader(t.out, p, b)
	if o.resume != "" {
		fmt.Fprintf(t.out, "resumed from %s %s\n", o.resume, t.resumedAt)
	}
	switch {
	case o.resume != "" && b.InRound():
		var ready []string
		for _, u := range b.Units() {
			if u.Ready {
				ready = append(ready, u.Name)
			}
		}
		fmt.Fprintf(t.out, "  Ready: %s\n", wording.OrNone(ready))
		// The round so far, as its end will show it.
		if res := b.Result(); res != nil {
			fmt.Fprintf(t.out, "  %s\n", standing(res))
			if len(res.Activations) > 0 {
				fmt.Fprintf(t.out, "  activations so far: %s\n", activations(res.Activations))
			}
		}
	case o.resume != "":
		t.showStanding()
	}
	fmt.Fprintln(t.out, "Enter each die as it is rolled, and each decision by number or name.")
}
