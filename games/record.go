package games

import (
	"fmt"
	"io"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game"
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
		return jsonReplay[G, P, A, S]{name: d.Name, rp: rp, rules: rules}, nil
	}
	return record, open
}

// jsonReplay is a read file of package jsonrecord (Replay).
type jsonReplay[G game.State[A, S], P, A, S any] struct {
	name  string
	rp    *jsonrecord.Replay
	rules jsonrecord.Rules[G, P, A, S]
}

func (j jsonReplay[G, P, A, S]) Verify() error   { return jsonrecord.Verify(j.rp, j.rules) }
func (j jsonReplay[G, P, A, S]) Summary() string { return jsonrecord.Summary(j.rp) }
func (j jsonReplay[G, P, A, S]) Moves() int      { return len(j.rp.Actions) }
func (j jsonReplay[G, P, A, S]) Move() string    { return "action" }

func (j jsonReplay[G, P, A, S]) Render(w io.Writer, opt RenderOptions) error {
	return jsonrecord.Render(w, j.rp, j.rules, opt.From, opt.To)
}

func (j jsonReplay[G, P, A, S]) HTML(io.Writer) error {
	return fmt.Errorf("%w: %s has no HTML replay page (its replays are package jsonrecord's JSON lines; kaisen replay draws them as text)", ErrNoHost, j.name)
}
