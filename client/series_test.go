package client_test

import (
	"context"
	"math/rand/v2"
	"net"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/series"
)

// scriptLearner plays the scripted games of a series as one player: NewGame
// takes the next game's script.
type scriptLearner struct {
	players.Player
	next players.Factory
	ends []series.End
}

func (l *scriptLearner) NewGame(rng *rand.Rand) { l.Player = l.next(rng) }
func (l *scriptLearner) EndGame(e series.End)   { l.ends = append(l.ends, e) }

// TestPlaySeriesKeepsALearner: in a series a learner is made once, started
// anew for the next game and told every game's end from its side (seat 0
// moved first).
func TestPlaySeriesKeepsALearner(t *testing.T) {
	tr, rules, games := loadGolden(t, filepath.Join(goldenDir, "classic-series.golden"))
	cc, sc := net.Pipe()
	done := make(chan error, 1)
	go func() { done <- playback(sc, tr.Side(2), rules) }()
	var (
		made     []*scriptedPlayer
		learners []*scriptLearner
	)
	scripts := scriptFactory(t, games, 2, &made)
	build := func(r *submarine.Rules) (players.Factory, error) {
		next, err := scripts(r)
		if err != nil {
			return nil, err
		}
		return func(rng *rand.Rand) players.Player {
			l := &scriptLearner{Player: next(rng), next: next}
			learners = append(learners, l)
			return l
		}, nil
	}
	res, err := client.PlaySubmarine(context.Background(), cc, build, seeded, client.SubmarinePlayOptions{})
	require.NoError(t, err)
	require.NoError(t, <-done)
	require.Len(t, res.Games, 2)
	require.Len(t, made, 2, "both scripts played")
	require.Len(t, learners, 1, "one learner for the series")
	require.Equal(t, []series.End{
		{Game: 0, Seat: 1, First: 0, Winner: 0}, // lost, moving second
		{Game: 1, Seat: 0, First: 0, Winner: 0}, // won, moving first
	}, learners[0].ends)
}
