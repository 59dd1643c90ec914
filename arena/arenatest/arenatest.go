// Package arenatest builds, for tests, the arena families of the games
// that play on the generic arena.Game, from their AIs' own factories: the
// family the games registry builds (games.Define), with factories a test
// writes (scripted players, learners, explainers) instead of named AIs.
package arenatest

import (
	"io"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
)

// BattleshipFamily is the arena family of a Battleship match.
type BattleshipFamily = arena.Game[*battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]

// Battleship is the Battleship family of p1 (named n1) and p2 (n2) under
// r: the AIs adapted to the contract (bsplayers.Adapt), replays by
// bsrecord.Recorder, seat 0 shooting first.
func Battleship(r *battleship.Rules, n1 string, f1 bsplayers.Factory, n2 string, f2 bsplayers.Factory) *BattleshipFamily {
	type entrant = arena.Entrant[battleship.Placement, grid.Cell, battleship.Event]
	return &BattleshipFamily{Name: battleship.Name, Rules: r,
		P1: entrant{Name: n1, Factory: bsplayers.Adapt(f1)}, P2: entrant{Name: n2, Factory: bsplayers.Adapt(f2)},
		Record: func(w io.Writer, h arena.RecordHeader) arena.Recorder[battleship.Placement, grid.Cell, battleship.Step] {
			return bsrecord.NewRecorder(w, r, h)
		}}
}

// AbilitiesFamily is the arena family of an abilities match.
type AbilitiesFamily = arena.Game[*abilities.Game, battleship.Placement, abilities.Action, abilities.Step, abilities.Told]

// Abilities is the abilities family of p1 (named n1) and p2 (n2) under r:
// the AIs adapted to the contract (abplayers.Adapt), replays by
// abrecord.Recorder and, with alternate (a match config's
// alternate_first), seat 1 acting first in games 2, 3, 6, 7, ...
// (index/2 odd), else seat 0.
func Abilities(r *abilities.Rules, alternate bool, n1 string, f1 abplayers.Factory, n2 string, f2 abplayers.Factory) *AbilitiesFamily {
	type entrant = arena.Entrant[battleship.Placement, abilities.Action, abilities.Told]
	fam := &AbilitiesFamily{Name: abilities.Name, Rules: r,
		P1: entrant{Name: n1, Factory: abplayers.Adapt(f1)}, P2: entrant{Name: n2, Factory: abplayers.Adapt(f2)},
		Record: func(w io.Writer, h arena.RecordHeader) arena.Recorder[battleship.Placement, abilities.Action, abilities.Step] {
			return abrecord.NewRecorder(w, r, h)
		}}
	if alternate {
		fam.First = func(index int) int { return index / 2 % 2 }
	}
	return fam
}
