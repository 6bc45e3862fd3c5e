// Command server plays battles of a bundled ruleset over HTTP, leaving
// every die and decision to the players. It keeps no battle in memory:
// each is a file, its snapshot, restored for every request.
//
// POST /battles with the sides (runtime.SideSpecs) starts a battle, and
// POST /battles/{id}/round plays its next round until it needs an input:
// the reply's "pending" says which (a roll, a random pick, or a decision
// with its options and who makes it). POST /battles/{id}/answer with a
// runtime.Answer ({"rolls": [4, 2]}, {"pick": 1}, {"choice": ["Krug"]})
// gives it and plays on. GET /battles/{id} tells where the battle stands.
//
// A save is the battle as the reply shows it, mid-round too, waiting for
// the same input; it replaces the old file whole (written, then renamed),
// so a restart goes on from the last reply. A refused answer or round (a
// die the dice cannot show, an option not offered, another player's
// answer, a round while an input waits) leaves the file as it was.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"

	"github.com/turnorder/turnorder/rulesets"
	"github.com/turnorder/turnorder/runtime"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "loopback address to listen on")
	dir := flag.String("dir", "battles", "directory of the battles' files")
	name := flag.String("ruleset", "necromunda", "bundled ruleset to play")
	flag.Parse()
	if host, _, _ := net.SplitHostPort(*addr); !net.ParseIP(host).IsLoopback() {
		log.Fatalf("-addr %s: not a loopback address", *addr)
	}
	prog, err := rulesets.Load(*name)
	if err = errors.Join(err, os.MkdirAll(*dir, 0o755)); err != nil {
		log.Fatal(err)
	}
	log.Fatal(http.ListenAndServe(*addr, handler(prog, *dir)))
}

var errBadRequest = errors.New("bad request") // marks a request the server cannot use

// server serves the battles of prog saved in dir, one request at a time.
type server struct {
	prog *runtime.Program
	dir  string
	mu   sync.Mutex
}

// handler returns the server's routes.
func handler(prog *runtime.Program, dir string) http.Handler {
	s := &server{prog: prog, dir: dir}
	mux := http.NewServeMux()
	mux.Handle("POST /battles", route(s, http.StatusCreated, func(_ *http.Request, b []runtime.SideSpec) (view, error) { return s.create(b) }))
	play := func(f func(*runtime.Battle, context.Context) error) http.Handler {
		return route(s, http.StatusOK, func(r *http.Request, _ struct{}) (view, error) { return s.update(r.Context(), r.PathValue("id"), f) })
	}
	mux.Handle("GET /battles/{id}", play(nil))
	mux.Handle("POST /battles/{id}/round", play((*runtime.Battle).AdvanceRound))
	mux.Handle("POST /battles/{id}/answer", route(s, http.StatusOK, func(r *http.Request, a runtime.Answer) (view, error) {
		return s.update(r.Context(), r.PathValue("id"), func(b *runtime.Battle, ctx context.Context) error { return b.Answer(ctx, a) })
	}))
	return mux
}

// view is where a battle stands, and the input it waits for (null: none).
type view struct {
	ID          string                     `json:"id"`
	Round       int                        `json:"round"`
	Holder      string                     `json:"holder,omitempty"`
	Order       []string                   `json:"order,omitempty"`
	Activations []runtime.ActivationRecord `json:"activations,omitempty"`
	Events      []runtime.Event            `json:"events,omitempty"`
	Pending     *runtime.Request           `json:"pending"`
}

// route serves requests whose JSON body, if any, is a T with do, and
// replies do's view with code, or its error as {"error": "..."}.
func route[T any](s *server, code int, do func(*http.Request, T) (view, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var body T
		d := json.NewDecoder(http.MaxBytesReader(w, r.Body, 1<<20))
		d.DisallowUnknownFields()
		var v any
		c, err := code, d.Decode(&body)
		if err == nil || err == io.EOF {
			s.mu.Lock()
			v, err = do(r, body)
			s.mu.Unlock()
		} else {
			err = errors.Join(errBadRequest, err)
		}
		if err != nil {
			c, v = status(err), map[string]string{"error": err.Error()}
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(c)
		json.NewEncoder(w).Encode(v)
	}
}

// status is the HTTP status of an error: the client's are 4xx.
func status(err error) int {
	is := func(target error) bool { return errors.Is(err, target) }
	switch {
	case is(fs.ErrNotExist):
		return http.StatusNotFound
	case is(errBadRequest) || is(runtime.ErrInvalidAnswer) || is(runtime.ErrWrongPlayer) ||
		is(runtime.ErrNothingPending) || is(runtime.ErrNotAllowed) || is(runtime.ErrInvalidChange):
		return http.StatusBadRequest
	case is(runtime.ErrPending) || is(runtime.ErrRoundUnderWay):
		return http.StatusConflict
	}
	return http.StatusInternalServerError
}

// file is battle id's file: always in dir, whatever id is.
func (s *server) file(id string) string { return filepath.Join(s.dir, filepath.Base(id)+".json") }

// write replaces battle id's file whole: written beside it, then renamed.
func (s *server) write(id string, data []byte) error {
	f, err := os.CreateTemp(s.dir, "*.tmp")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name()) // fails once renamed
	_, err = f.Write(data)
	if err = errors.Join(err, f.Sync(), f.Close()); err != nil {
		return err
	}
	return os.Rename(f.Name(), s.file(id))
}
