package main

import (
	"context"
	"crypto/rand"
	"errors"
	"os"

	"github.com/turnorder/turnorder/runtime"
)

// askHost leaves every die and decision to the players, to answer.
var askHost = []runtime.BattleOption{runtime.WithDice(runtime.AskHost{}), runtime.WithDecider(runtime.AskHost{})}

// viewOf tells where battle id stands and what it waits for.
func viewOf(id string, b *runtime.Battle) view {
	return view{ID: id, Round: b.Round(), Holder: b.Holder(), Order: b.Order(),
		Activations: b.Activations(), Events: b.Events(), Pending: b.Pending()}
}

// create starts a battle between sides, saved under a new id.
func (s *server) create(sides []runtime.SideSpec) (view, error) {
	b, err := s.prog.NewBattle(sides, askHost...)
	if err != nil {
		return view{}, errors.Join(errBadRequest, err)
	}
	return s.save(rand.Text(), b)
}

// update restores battle id and plays f on it (nil: none), saving it if f
// is taken, to its end or the next input; if not, the file stays as it was.
func (s *server) update(ctx context.Context, id string, f func(*runtime.Battle, context.Context) error) (view, error) {
	data, err := os.ReadFile(s.file(id))
	if err != nil {
		return view{}, err
	}
	b, err := s.prog.Restore(data, askHost...)
	if err != nil {
		return view{}, err
	}
	if f == nil {
		return viewOf(id, b), nil
	}
	waiting := b.Pending() != nil
	if err := f(b, ctx); err != nil && (waiting || !errors.Is(err, runtime.ErrPending)) {
		return view{}, err
	}
	return s.save(id, b)
}

func (s *server) save(id string, b *runtime.Battle) (view, error) {
	data, err := b.Snapshot()
	if err == nil {
		err = s.write(id, data)
	}
	return viewOf(id, b), err
}
