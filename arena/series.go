package arena

import (
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/replay"
	"github.com/kaisen-ai/kaisen/series"
)

// Learner is a player that learns across the games of a series
// (Match.Series): the game contract's game.Learner. A player of any game
// is one by implementing both methods (through an adapter too: game.As); a
// player that does not plays every game fresh, as outside a series.
//
// Every game hides the opponent's fleet to the end, so EndGame carries the
// outcome only: what a learner learns of the opponent is what it observed.
type Learner = game.Learner

// seriesOf is the place of game index in its series when the match plays
// series of size games (size 0: none, nil).
func seriesOf(index, size int) *replay.SeriesRef {
	if size <= 0 {
		return nil
	}
	return &replay.SeriesRef{Index: index / size, Game: index % size, Size: size}
}

// keeper keeps, for one table, the players of the series under way that
// are Learners, by role (0: P1, 1: P2). A table plays the games of a series
// one after another (Match.Run gives a whole series to one worker), so the
// kept players only ever see their own series.
type keeper struct {
	kept [2]any // the role's kept player, nil when none
	seat [2]int // the role's seat in the current game
}

// keep returns the factory of role for deal d. Outside a series it is f.
// In the first game of a series it is f, and a Learner it makes is kept;
// in a later game it is the kept Learner, started with NewGame on the
// stream it is given (f again while none is kept: the first game's player
// was no Learner, or panicked before it was made).
func keep[P, A, O any](k *keeper, d Deal, role int, f game.Factory[P, A, O]) game.Factory[P, A, O] {
	k.seat[role] = d.P1Seat
	if role == 1 {
		k.seat[role] = 1 - d.P1Seat
	}
	if d.Series == nil || d.Series.Game == 0 {
		k.kept[role] = nil
	}
	if d.Series == nil {
		return f
	}
	return func(rng *rand.Rand, seat int) game.Player[P, A, O] {
		if p, ok := k.kept[role].(game.Player[P, A, O]); ok {
			l, _ := game.As[Learner](p)
			l.NewGame(rng)
			return p
		}
		p := f(rng, seat)
		if _, ok := game.As[Learner](p); ok {
			k.kept[role] = p
		}
		return p
	}
}

// end tells the kept Learners how the game of deal d ended (res), each
// call guarded: a Learner that panics in EndGame is logged and dropped from
// its series (the next game makes a fresh player).
func (k *keeper) end(t *seatRands, d Deal, res *GameResult) {
	if d.Series == nil {
		return
	}
	for role, p := range k.kept {
		l, ok := game.As[Learner](p)
		if !ok {
			continue
		}
		e := series.End{Game: d.Series.Game, Seat: k.seat[role], First: 0, Winner: res.Winner}
		if msg := t.guard(e.Seat, func() { l.EndGame(e) }); msg != "" {
			t.log.Warn("player panicked at the end of a game of its series; a fresh one plays the next game",
				"game", d.Index, "seat", e.Seat, "panic", msg)
			k.kept[role] = nil
		}
	}
}
