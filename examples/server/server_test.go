package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

// gangs are three Necromunda gangs, as a client sends them.
const gangs = `[
  {"name": "Goliaths", "units": [{"name": "Krug"}, {"name": "Grath"}, {"name": "Volk"}]},
  {"name": "Eschers", "units": [{"name": "Mira"}, {"name": "Sable"}, {"name": "Vex"}]},
  {"name": "Orlocks", "units": [{"name": "Dax"}, {"name": "Rook"}]}
]`

// table is the client's side of the server: every request goes to a
// server started for it alone, with a Program of its own, and stopped
// after it, so that nothing but the directory outlives a request.
type table struct {
	t        *testing.T
	dir      string
	requests int
}

// do sends a request and decodes the reply into out (if not nil),
// returning the reply's status.
func (tb *table) do(method, path, body string, out any) int {
	tb.t.Helper()
	prog, err := rulesets.Load("necromunda")
	if err != nil {
		tb.t.Fatal(err)
	}
	srv := httptest.NewServer(handler(prog, tb.dir))
	tb.requests++
	defer srv.Close()
	req, err := http.NewRequest(method, srv.URL+path, bytes.NewBufferString(body))
	if err != nil {
		tb.t.Fatal(err)
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		tb.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		tb.t.Fatal(err)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		tb.t.Errorf("%s %s: Content-Type %q", method, path, ct)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			tb.t.Fatalf("%s %s: %v in %s", method, path, err, data)
		}
	}
	return resp.StatusCode
}

// must sends a request that must succeed with code, and returns the
// view replied.
func (tb *table) must(code int, method, path, body string) view {
	tb.t.Helper()
	var reply json.RawMessage
	if got := tb.do(method, path, body, &reply); got != code {
		tb.t.Fatalf("%s %s %s: status %d, want %d: %s", method, path, body, got, code, reply)
	}
	var v view
	if err := json.Unmarshal(reply, &v); err != nil {
		tb.t.Fatal(err)
	}
	return v
}

// refused sends an answer (or a round) that the battle must refuse with
// code, and checks that the battle's file is left byte for byte as it
// was.
func (tb *table) refused(code int, id, path string, body any) {
	tb.t.Helper()
	before, was := tb.file(id), tb.stat(id)
	data, err := json.Marshal(body)
	if err != nil {
		tb.t.Fatal(err)
	}
	var e struct{ Error string }
	if got := tb.do(http.MethodPost, "/battles/"+id+path, string(data), &e); got != code || e.Error == "" {
		tb.t.Errorf("%s %s: status %d, error %q; want %d and an error", path, data, got, e.Error, code)
	}
	if after := tb.file(id); !bytes.Equal(before, after) {
		tb.t.Errorf("%s %s: the battle's file changed:\n%s", path, data, cmp.Diff(string(before), string(after)))
	}
	if !os.SameFile(was, tb.stat(id)) {
		tb.t.Errorf("%s %s: the battle's file was written again", path, data)
	}
}

func (tb *table) stat(id string) os.FileInfo {
	tb.t.Helper()
	fi, err := os.Stat(filepath.Join(tb.dir, id+".json"))
	if err != nil {
		tb.t.Fatal(err)
	}
	return fi
}

func (tb *table) file(id string) []byte {
	tb.t.Helper()
	data, err := os.ReadFile(filepath.Join(tb.dir, id+".json"))
	if err != nil {
		tb.t.Fatal(err)
	}
	return data
}

// choose is a player at the table: a valid answer to r, at random.
func choose(rng *rand.Rand, r *runtime.Request) runtime.Answer {
	switch r.Kind {
	case runtime.RollInput:
		a := runtime.Answer{}
		for range r.Roll.Subjects {
			a.Rolls = append(a.Rolls, r.Roll.Count+rng.IntN(r.Roll.Count*(r.Roll.Faces-1)+1))
		}
		return a
	case runtime.PickInput:
		return runtime.PickAnswer(rng.IntN(len(r.Pick.Options)))
	}
	d := r.Decision
	options := slices.DeleteFunc(slices.Clone(d.Options), func(o string) bool { return o == "pass" })
	rng.Shuffle(len(options), func(i, j int) { options[i], options[j] = options[j], options[i] })
	if d.Kind != runtime.ChooseOrder {
		options = options[:1]
	}
	return runtime.Answer{Choice: options, By: d.By}
}

// The test plays three rounds, its players' dice and decisions drawn
// from a source with this seed.
const (
	rounds = 3
	seed   = 2026
)

// TestThreeRoundsOverHTTP plays three rounds of Necromunda with three
// gangs over HTTP, the players typing every die and decision and the
// server restarted for each request, and checks that the battle ends
// where the same battle played straight through in one process with the
// same answers ends: the same rounds, transcripts, and save.
func TestThreeRoundsOverHTTP(t *testing.T) {
	tb := &table{t: t, dir: t.TempDir()}
	rng := rand.New(rand.NewPCG(seed, seed))

	b := tb.must(http.StatusCreated, http.MethodPost, "/battles", gangs)
	id := b.ID
	if b.Round != 0 || b.Pending != nil {
		t.Fatalf("a new battle: %+v", b)
	}
	if diff := cmp.Diff(jsonOf(t, b), jsonOf(t, tb.must(http.StatusOK, http.MethodGet, "/battles/"+id, ""))); diff != "" {
		t.Errorf("GET says another battle than POST did (-POST +GET):\n%s", diff)
	}
	tb.refused(http.StatusBadRequest, id, "/answer", runtime.RollAnswer(3, 4, 5)) // nothing pending

	var (
		asked   []json.RawMessage // every request, as the server sent it
		answers []runtime.Answer
		ended   []view // each round, once it ended
	)
	for round := 1; round <= rounds; round++ {
		v := tb.must(http.StatusOK, http.MethodPost, "/battles/"+id+"/round", "")
		for v.Pending != nil {
			if diff := cmp.Diff(jsonOf(t, v), jsonOf(t, tb.must(http.StatusOK, http.MethodGet, "/battles/"+id, ""))); diff != "" {
				t.Fatalf("GET says another battle than the last reply (-reply +GET):\n%s", diff)
			}
			if round == 1 {
				tryRefused(tb, id, v.Pending)
			}
			req, err := json.Marshal(v.Pending)
			if err != nil {
				t.Fatal(err)
			}
			a := choose(rng, v.Pending)
			asked, answers = append(asked, req), append(answers, a)
			body, err := json.Marshal(a)
			if err != nil {
				t.Fatal(err)
			}
			v = tb.must(http.StatusOK, http.MethodPost, "/battles/"+id+"/answer", string(body))
		}
		if v.Round != round || v.Holder == "" || len(v.Order) != 3 {
			t.Fatalf("round %d ended as %+v", round, v)
		}
		// Every fighter activated once; a gang without one left passed.
		var units []string
		for _, a := range v.Activations {
			if !a.Pass {
				units = append(units, a.Unit)
			}
		}
		slices.Sort(units)
		if want := []string{"Dax", "Grath", "Krug", "Mira", "Rook", "Sable", "Vex", "Volk"}; !slices.Equal(units, want) {
			t.Errorf("round %d: activated %v, want %v", round, units, want)
		}
		ended = append(ended, v)
	}
	kinds := map[string]int{}
	for _, r := range asked {
		var k struct {
			Kind     string
			Roll     *struct{ Attempt int }
			Decision *struct{ Kind string }
		}
		if err := json.Unmarshal(r, &k); err != nil {
			t.Fatal(err)
		}
		switch {
		case k.Roll != nil && k.Roll.Attempt > 0:
			k.Kind = "reroll"
		case k.Decision != nil:
			k.Kind += " " + k.Decision.Kind
		}
		kinds[k.Kind]++
	}
	t.Logf("%d requests over HTTP; answered: %v", tb.requests, kinds)
	if kinds["decision activate"] == 0 || kinds["roll"] != rounds {
		t.Errorf("answered %v: want a priority roll a round, and decisions of which fighter activates", kinds)
	}
	if entries, err := os.ReadDir(tb.dir); err != nil || len(entries) != 1 {
		t.Errorf("the directory holds %v (%v), want the battle's file alone", entries, err)
	}

	// The same battle, played straight through in one process: a round's
	// phases, then the activation loop a turn at a time, then its end,
	// with the answers given over HTTP.
	p, err := rulesets.Load("necromunda")
	if err != nil {
		t.Fatal(err)
	}
	var sides []runtime.SideSpec
	if err := json.Unmarshal([]byte(gangs), &sides); err != nil {
		t.Fatal(err)
	}
	players := &script{answers: answers}
	battle, err := p.NewBattle(sides, runtime.WithDice(players), runtime.WithDecider(players))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	var want []view
	for range rounds {
		if err := battle.StartRound(ctx); err != nil {
			t.Fatal(err)
		}
		for done := false; !done; {
			if done, err = battle.Step(ctx); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := battle.EndRound(ctx); err != nil {
			t.Fatal(err)
		}
		want = append(want, viewOf(id, battle))
	}
	if len(players.answers) > 0 {
		t.Errorf("%d answers given over HTTP were never asked for in one process", len(players.answers))
	}
	if diff := cmp.Diff(jsonOf(t, players.asked), jsonOf(t, asked)); diff != "" {
		t.Errorf("requests (-one process +HTTP):\n%s", diff)
	}
	if diff := cmp.Diff(jsonOf(t, want), jsonOf(t, ended)); diff != "" {
		t.Errorf("rounds (-one process +HTTP):\n%s", diff)
	}
	save, err := battle.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(jsonOf(t, json.RawMessage(save)), jsonOf(t, json.RawMessage(tb.file(id)))); diff != "" {
		t.Errorf("saves (-one process +HTTP):\n%s", diff)
	}
}

// tryRefused gives the pending request r answers that the battle must
// refuse, and a round it must refuse while r is pending.
func tryRefused(tb *table, id string, r *runtime.Request) {
	tb.refused(http.StatusConflict, id, "/round", nil)
	switch r.Kind {
	case runtime.RollInput:
		rolls := make([]int, len(r.Roll.Subjects))
		for i := range rolls {
			rolls[i] = r.Roll.Faces
		}
		rolls[0] = r.Roll.Count*r.Roll.Faces + 1 // 7 on a D6
		tb.refused(http.StatusBadRequest, id, "/answer", runtime.RollAnswer(rolls...))
		tb.refused(http.StatusBadRequest, id, "/answer", runtime.RollAnswer(rolls[1:]...))
	case runtime.DecisionInput:
		d := r.Decision
		tb.refused(http.StatusBadRequest, id, "/answer", runtime.Answer{Choice: []string{"Nobody"}, By: d.By})
		for _, u := range []string{"Krug", "Mira", "Dax"} { // another gang's fighter
			if !slices.Contains(d.Options, u) {
				tb.refused(http.StatusBadRequest, id, "/answer", runtime.ChoiceAnswer(u))
				break
			}
		}
		other := "Goliaths"
		if d.By == other {
			other = "Eschers"
		}
		tb.refused(http.StatusBadRequest, id, "/answer", runtime.Answer{Choice: d.Options[:1], By: other})
	}
	tb.refused(http.StatusBadRequest, id, "/answer", map[string]any{"roll": 4}) // not an Answer
}

// script is the players in one process: the answers given over HTTP,
// in order, and the requests they answer.
type script struct {
	answers []runtime.Answer
	asked   []runtime.Request
}

func (s *script) next(r runtime.Request) (runtime.Answer, error) {
	s.asked = append(s.asked, r)
	if len(s.answers) == 0 {
		return runtime.Answer{}, errors.New("no answer left for " + r.String())
	}
	a := s.answers[0]
	s.answers = s.answers[1:]
	return a, nil
}

func (s *script) Roll(_ context.Context, r runtime.RollRequest) ([]int, error) {
	a, err := s.next(runtime.Request{Kind: runtime.RollInput, Roll: &r})
	return a.Rolls, err
}

func (s *script) Pick(_ context.Context, r runtime.PickRequest) (int, error) {
	a, err := s.next(runtime.Request{Kind: runtime.PickInput, Pick: &r})
	if err != nil || a.Pick == nil {
		return 0, errors.Join(err, errors.New("not a pick"))
	}
	return *a.Pick, nil
}

func (s *script) Decide(_ context.Context, d runtime.Decision) ([]string, error) {
	a, err := s.next(runtime.Request{Kind: runtime.DecisionInput, Decision: &d})
	return a.Choice, err
}

// jsonOf is v as JSON decodes it without types, to compare what the
// server sent with what a battle in this process says.
func jsonOf(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestNotFound: a battle the directory does not hold, whatever its id.
func TestNotFound(t *testing.T) {
	tb := &table{t: t, dir: t.TempDir()}
	for _, id := range []string{"NOSUCHBATTLE", "..%2F..%2Fetc%2Fpasswd"} {
		var e struct{ Error string }
		if got := tb.do(http.MethodGet, "/battles/"+id, "", &e); got != http.StatusNotFound {
			t.Errorf("GET /battles/%s: status %d (%s), want 404", id, got, e.Error)
		}
	}
}

// TestBadSides: sides the ruleset cannot play are the client's mistake,
// and a server that refused them goes on serving.
func TestBadSides(t *testing.T) {
	prog, err := rulesets.Load("necromunda")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	srv := httptest.NewServer(handler(prog, dir))
	defer srv.Close()
	post := func(body string) (int, string) {
		resp, err := srv.Client().Post(srv.URL+"/battles", "application/json", bytes.NewBufferString(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, string(data)
	}
	for _, body := range []string{``, `{"sides": []}`, `[{"name": "Goliaths"}]`, `[{"name": "A"}, {"name": "A"}]`, `[{"name": "A", "units": [{"name": "a", "hp": 3}]}]`} {
		if got, reply := post(body); got != http.StatusBadRequest || !strings.Contains(reply, `"error"`) {
			t.Errorf("POST /battles %s: status %d, %s; want 400 and an error", body, got, reply)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the directory holds %v, want nothing", entries)
	}
	if got, reply := post(gangs); got != http.StatusCreated {
		t.Errorf("POST /battles after the refusals: status %d, %s; want 201", got, reply)
	}
}
