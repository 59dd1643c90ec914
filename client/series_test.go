package client_test

import (
	"bufio"
	"context"
	"io"
	"math/rand/v2"
	"net"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/protocol"
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

// TestPlayBattleshipGreetings: PlayBattleship plays one game and refuses a
// series greeting, naming PlayBattleshipSeries; both refuse a line that is
// no greeting; PlayBattleshipSeries ends a series whose server closes
// between games without a trailer, keeping the games played.
func TestPlayBattleshipGreetings(t *testing.T) {
	r := battleship.DefaultRules()
	gridbot, err := bsplayers.New("gridbot", r, nil)
	require.NoError(t, err)
	rngFor := func(game int) *rand.Rand { return rand.New(rand.NewPCG(1, uint64(game))) }
	serve := func(t *testing.T, lines ...string) net.Conn {
		cc, sc := net.Pipe()
		t.Cleanup(func() { _ = cc.Close() })
		go func() {
			defer sc.Close()
			br := bufio.NewReader(sc)
			for _, l := range lines {
				if _, err := io.WriteString(sc, l+"\n"); err != nil {
					return
				}
				if strings.HasSuffix(l, "initial state.") { // read the placement
					if _, err := br.ReadString('\n'); err != nil {
						return
					}
				}
			}
		}()
		return cc
	}
	t.Run("series greeting to PlayBattleship", func(t *testing.T) {
		_, err := client.PlayBattleship(context.Background(), serve(t, protocol.SeriesRound(1)), gridbot(rngFor(0)), client.BattleshipPlayOptions{})
		var pe *protocol.ProtocolError
		require.ErrorAs(t, err, &pe)
		require.ErrorContains(t, err, "PlayBattleshipSeries")
	})
	t.Run("no greeting", func(t *testing.T) {
		_, err := client.PlayBattleshipSeries(context.Background(), serve(t, "hello"), gridbot, rngFor, client.BattleshipPlayOptions{})
		require.ErrorIs(t, err, protocol.ErrUnexpected)
	})
	t.Run("series cut without a trailer", func(t *testing.T) {
		// Game 1: the server says the client lost at once (a forfeit by
		// the server's reckoning), then closes instead of "round2.".
		res, err := client.PlayBattleshipSeries(context.Background(), serve(t, protocol.SeriesRound(1), protocol.Classic.EndLine(protocol.EndLose, false)), gridbot, rngFor, client.BattleshipPlayOptions{})
		require.NoError(t, err)
		require.True(t, res.Series)
		require.Len(t, res.Games, 1)
		require.Equal(t, protocol.EndLose, res.Games[0].End)
		require.Nil(t, res.Tally)
	})
}
