package games

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/series"
)

// seriesAI is an AI of humanSeries' tests: it records the games it was
// started on and the ends it was told. learningAI is one that is an
// game.Learner.
type seriesAI struct {
	made     int // its number among the AIs made
	newGames int
	ends     []series.End
}

func (*seriesAI) Place() int  { return 0 }
func (*seriesAI) Act() int    { return 0 }
func (*seriesAI) Observe(int) {}

type learningAI struct{ *seriesAI }

type aiPlayer = game.Player[int, int, int]

// alternate is humanSeries' default seats: the person in seat k%2, seat 0
// first.
func alternate(k int) (int, int) { return k % 2, 0 }

func (l learningAI) NewGame(*rand.Rand)   { l.newGames++ }
func (l learningAI) EndGame(e series.End) { l.ends = append(l.ends, e) }

// TestHumanSeries: a learning AI is made once for the series, started anew
// for every later game and told every game's end from its seat (the person
// acts first in even games); another AI is made for every game; the tally
// counts the person's results.
func TestHumanSeries(t *testing.T) {
	winners := []int{0, 0, -1, 1} // by game: the winning seat
	t.Run("learner", func(t *testing.T) {
		var made []learningAI
		var seats []int
		var out strings.Builder
		humanSeries(&out, "ai", 5, 4, func(*rand.Rand, int) aiPlayer {
			l := learningAI{&seriesAI{made: len(made)}}
			made = append(made, l)
			return l
		}, alternate, func(ai aiPlayer, _ *rand.Rand, seat, _ int) (int, string) {
			seats = append(seats, seat)
			return winners[len(seats)-1], ""
		})
		require.Len(t, made, 1)
		require.Equal(t, []int{0, 1, 0, 1}, seats)
		require.Equal(t, 3, made[0].newGames)
		require.Equal(t, []series.End{
			{Game: 0, Seat: 1, First: 0, Winner: 0}, // the person (seat 0) won
			{Game: 1, Seat: 0, First: 0, Winner: 0}, // the AI (seat 0) won
			{Game: 2, Seat: 1, First: 0, Winner: -1},
			{Game: 3, Seat: 0, First: 0, Winner: 1}, // the person (seat 1) won
		}, made[0].ends)
		require.Contains(t, out.String(), "== game 4 of 4")
		require.Contains(t, out.String(), "you against ai, 4 games: won 2, drew 1, lost 1")
	})
	t.Run("not a learner", func(t *testing.T) {
		made := 0
		var out strings.Builder
		humanSeries(&out, "ai", 5, 3, func(*rand.Rand, int) aiPlayer { made++; return &seriesAI{} }, alternate,
			func(aiPlayer, *rand.Rand, int, int) (int, string) { return -1, "" })
		require.Equal(t, 3, made, "a fresh AI every game")
		require.Contains(t, out.String(), "3 games: won 0, drew 3, lost 0")
	})
	t.Run("one game", func(t *testing.T) {
		var out strings.Builder
		humanSeries(&out, "ai", 5, 1, func(*rand.Rand, int) aiPlayer { return learningAI{&seriesAI{}} }, alternate,
			func(aiPlayer, *rand.Rand, int, int) (int, string) { return 0, "" })
		require.Empty(t, out.String(), "one game prints no series frame")
	})
	t.Run("one seat, first alternates", func(t *testing.T) {
		var l learningAI
		var aiSeats []int
		var out strings.Builder
		humanSeries(&out, "ai", 5, 2, func(_ *rand.Rand, seat int) aiPlayer {
			aiSeats = append(aiSeats, seat)
			l = learningAI{&seriesAI{}}
			return l
		}, func(k int) (int, int) { return 1, 1 - k%2 }, func(aiPlayer, *rand.Rand, int, int) (int, string) { return 1, "" })
		require.Equal(t, []int{0}, aiSeats, "the AI is made once, for the seat the person does not take")
		require.Equal(t, []series.End{{Game: 0, Seat: 0, First: 1, Winner: 1}, {Game: 1, Seat: 0, First: 0, Winner: 1}}, l.ends)
		require.Contains(t, out.String(), "2 games: won 2, drew 0, lost 0")
	})
	t.Run("the person stops the series", func(t *testing.T) {
		played := 0
		var out strings.Builder
		humanSeries(&out, "ai", 5, 10, func(*rand.Rand, int) aiPlayer { return &seriesAI{} }, alternate,
			func(aiPlayer, *rand.Rand, int, int) (int, string) {
				played++
				if played == 2 {
					return 1, "you resigned"
				}
				return 0, ""
			})
		require.Equal(t, 2, played, "no game after the person stops")
		require.Contains(t, out.String(), "the series stops after game 2 of 10: you resigned")
		require.Contains(t, out.String(), "you against ai, 2 games: won 2, drew 0, lost 0")
	})
}
