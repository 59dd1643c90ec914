package server

import (
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// hiddenView shows a step (a bool: whether it is public) when it is.
type hiddenView struct{}

func (hiddenView) Public() game.Public                      { return game.Public{} }
func (hiddenView) See(st *bool, _ error, _ *game.Seen) bool { return *st }
func (hiddenView) Fleets() [2][]grid.Cell                   { return [2][]grid.Cell{} }

// turnLog is a Turner that lists the turns it is told.
type turnLog struct{ seats []int }

func (*turnLog) Started(string, game.Public, [2]Peer, int) {}
func (*turnLog) Step(string, int, *game.Seen)              {}
func (*turnLog) Finished(Result)                           {}
func (l *turnLog) ToAct(_ string, seat int, _ time.Time)   { l.seats = append(l.seats, seat) }

// TestFeedTellsTurnsOfPublicSteps: a turn is told once per public step; a
// turn after a step the public view does not show (a hidden move that
// keeps the turn, a shot the defender is asked about) is not, so whose
// turn it is never says that a hidden action happened.
func TestFeedTellsTurnsOfPublicSteps(t *testing.T) {
	l := &turnLog{}
	f := NewFeed[bool](l, "g", hiddenView{}, [2]Peer{}, 0)
	public, hidden := true, false
	f.ToAct(0, time.Time{}) // the first turn
	f.Step(1, &hidden, nil) // seat 0 moves, unseen
	f.ToAct(0, time.Time{}) // seat 0 again: not told
	f.Step(2, &hidden, nil) // seat 0 shoots; the defender is asked
	f.ToAct(1, time.Time{}) // the defender answers: not told
	f.Step(3, &public, nil) // the volley is public
	f.ToAct(1, time.Time{})
	f.Step(4, &public, nil)
	f.ToAct(0, time.Time{})
	require.Equal(t, []int{0, 1, 0}, l.seats)
}
