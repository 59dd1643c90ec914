package games

import (
	"fmt"
	"io"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/replay/jsonrecord"
)

// jsonRecord is the record of a game whose Def has none of its own
// (neither Record nor OpenReplay): package jsonrecord's, the game's own
// types as JSON lines, read back and verified under the game's default
// rules.
func jsonRecord[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O]) (
	record func(R, io.Writer, arena.RecordHeader) arena.Recorder[P, A, S], open func(string) (Replay, error)) {
	record = func(rules R, w io.Writer, h arena.RecordHeader) arena.Recorder[P, A, S] {
		return jsonrecord.NewRecorder[P, A, S](w, d.Name, rules, h)
	}
	open = func(path string) (Replay, error) {
		rp, err := jsonrecord.ReadFile(path)
		if err != nil {
			return nil, err
		}
		if rp.Header.Game != d.Name {
			return nil, fmt.Errorf("%s: a replay of %q, not of %s", path, rp.Header.Game, d.Name)
		}
		rules, err := defaultRules(d)
		if err != nil {
			return nil, err
		}
		return jsonReplay[G, P, A, S]{name: d.Name, rp: rp, rules: rules, view: d.View}, nil
	}
	return record, open
}

// jsonReplay is a read file of package jsonrecord (Replay).
type jsonReplay[G game.State[A, S], P, A, S any] struct {
	name  string
	rp    *jsonrecord.Replay
	rules jsonrecord.Rules[G, P, A, S]
	view  func(G) game.View[S] // the game's public view (nil: no HTML page)
}

func (j jsonReplay[G, P, A, S]) Verify() error   { return jsonrecord.Verify(j.rp, j.rules) }
func (j jsonReplay[G, P, A, S]) Summary() string { return jsonrecord.Summary(j.rp) }
func (j jsonReplay[G, P, A, S]) Moves() int      { return len(j.rp.Actions) }
func (j jsonReplay[G, P, A, S]) Move() string    { return "action" }

func (j jsonReplay[G, P, A, S]) Render(w io.Writer, opt RenderOptions) error {
	return jsonrecord.Render(w, j.rp, j.rules, opt.From, opt.To)
}

// HTML draws the page from the game's public view (Def.View), as its
// spectators see the game, both fleets shown.
func (j jsonReplay[G, P, A, S]) HTML(w io.Writer) error {
	if j.view == nil {
		return fmt.Errorf("%w: %s has no HTML replay page (its Def has no public view; kaisen replay draws it as text)", ErrNoHost, j.name)
	}
	d, err := jsonrecord.HTML(j.rp, j.rules, j.view)
	if err != nil {
		return err
	}
	return replay.WriteHTML(w, d)
}
