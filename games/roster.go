package games

import (
	"fmt"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/internal/roster"
)

// aiRoster is what a game's AI package offers the registry: the roster
// functions every players package exports (Entries, Lookup, New). One value
// per game fills the Game hooks that only list, check and build its AIs, so
// a new game does not write them again.
type aiRoster[R, F any] struct {
	entries func() []roster.Entry[R, F]
	lookup  func(name string) (roster.Entry[R, F], error)
	build   func(name string, rules R, load roster.Loader) (F, error)
}

// players lists the AIs in roster order (Game.Players).
func (a aiRoster[R, F]) players() []Player {
	var out []Player
	for _, e := range a.entries() {
		out = append(out, Player{Name: e.Name, Summary: e.Summary, Config: e.Config})
	}
	return out
}

// check refuses a name the roster does not list (Game.CheckPlayer).
func (a aiRoster[R, F]) check(name string) error {
	_, err := a.lookup(name)
	return err
}

// pair builds the factories of a match's two entrants for rules; an error
// names the flag of the entrant that failed (--p1 or --p2).
func (a aiRoster[R, F]) pair(rules R, p1, p2 Entrant) (f1, f2 F, err error) {
	if f1, err = a.build(p1.Name, rules, p1.Load); err != nil {
		return f1, f2, fmt.Errorf("--p1: %w", err)
	}
	if f2, err = a.build(p2.Name, rules, p2.Load); err != nil {
		return f1, f2, fmt.Errorf("--p2: %w", err)
	}
	return f1, f2, nil
}

// family is the Family hook of a game whose rules come from a match
// config by rules and whose arena family mk makes from the rules and the
// two entrants with their factories; an error names the entrant's flag.
func (a aiRoster[R, F]) family(rules func(arena.Config) (R, error), mk func(cfg arena.Config, r R, p1, p2 Entrant, f1, f2 F) arena.Family) func(arena.Config, Entrant, Entrant) (arena.Family, error) {
	return func(cfg arena.Config, p1, p2 Entrant) (arena.Family, error) {
		r, err := rules(cfg)
		if err != nil {
			return nil, err
		}
		f1, f2, err := a.pair(r, p1, p2)
		if err != nil {
			return nil, err
		}
		return mk(cfg, r, p1, p2, f1, f2), nil
	}
}

// openReplay is the OpenReplay hook of a game whose replay files read
// reads and wrap makes a Replay of.
func openReplay[T any](read func(path string) (T, error), wrap func(T) Replay) func(string) (Replay, error) {
	return func(path string) (Replay, error) {
		rp, err := read(path)
		if err != nil {
			return nil, err
		}
		return wrap(rp), nil
	}
}
