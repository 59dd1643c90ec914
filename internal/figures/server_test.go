package figures

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	bsgame "github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/internal/config"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/server"
	"github.com/kaisen-ai/kaisen/server/servertest"
)

// serverSeriesFigure is docs/battleship.md's "On the server" edge row: a
// 50-game Battleship series on the turn server (seed 7, first player
// alternating) whose house AI is adaptive, then density, against a client
// that places every fleet on the edges (bs-random with placement: edge,
// seeded as kaisen play --seed 11 seeds it), the house's shots of each
// game read from the replays. The same as running
//
//	kaisen serve --game battleship --house H --series 50 --first alternate --seed 7
//	kaisen play --game battleship --player bs-random --weights edge.yaml --seed 11
//
// once for each house (about 40 CPU-s in all).
func serverSeriesFigure() figure {
	return figure{
		name: "serve-battleship-series-edge",
		args: []string{"serve", "--game", "battleship", "--house", "adaptive|density", "--series", "50", "--first", "alternate", "--seed", "7",
			"+", "play", "--game", "battleship", "--player", "bs-random", "--weights", "edge.yaml", "--seed", "11"},
		play: func(t *testing.T) string {
			adaptive := houseShots(t, "adaptive")
			density := houseShots(t, "density")
			var sb strings.Builder
			fmt.Fprintf(&sb, "adaptive house: %s\ndensity house: %s\n", ints(adaptive), ints(density))
			a, d, diff, ci := pairedMeans(adaptive, density)
			fmt.Fprintf(&sb, "adaptive %.2f density %.2f diff %.2f ± %.2f\n", a, d, diff, ci)
			return sb.String()
		},
		quotes: []quote{
			{battleship, func(o *output) string {
				a, d, diff, ci := parseMeans(o.text)
				return fmt.Sprintf("| edge | %s | %s | **%s ± %s** |", a, d, minus(diff), ci)
			}},
			{results, func(o *output) string {
				a, d, diff, ci := parseMeans(o.text)
				return fmt.Sprintf("%s shots a game against %s, **%s ± %s**", a, d, minus(diff), ci)
			}},
		},
	}
}

// houseShots plays the series against house and returns the house's
// shots in each game.
func houseShots(t *testing.T, house string) []int {
	t.Helper()
	s := servertest.Start(t, servertest.Config(t, 7, server.ListenerConfig{
		Game: server.GameBattleship, Opponent: house, Games: 50, First: server.FirstAlternate,
	}))
	rules := bsgame.DefaultRules()
	edge := filepath.Join(t.TempDir(), "edge.yaml")
	require.NoError(t, os.WriteFile(edge, []byte("placement: edge\n"), 0o644))
	factory, err := bsplayers.New("bs-random", rules, config.File(edge))
	require.NoError(t, err)
	conn, err := net.Dial("tcp", s.Addr(0))
	require.NoError(t, err)
	defer conn.Close()
	// kaisen play --seed 11: game k of the first connection draws from PCG(11, k).
	res, err := client.PlayBattleshipSeries(context.Background(), conn, factory,
		func(game int) *rand.Rand { return rand.New(rand.NewPCG(11, uint64(game))) },
		client.BattleshipPlayOptions{Rules: rules, ReadTimeout: time.Minute})
	require.NoError(t, err)
	require.Len(t, res.Games, 50)
	results := s.WaitResults(t, 50)
	shots := make([]int, len(results))
	for i, r := range results {
		require.Equal(t, i+1, r.Round)
		rp, err := bsrecord.ReadFile(filepath.Join(s.Config.ReplayDir, r.Replay))
		require.NoError(t, err)
		require.Equal(t, 1, rp.Result.Winner, "the house sinks the fleet first in game %d", i+1)
		shots[i] = rp.Result.Shots[1]
	}
	return shots
}

// pairedMeans returns the means of a and b and of a − b per game, with the
// 95 % half-interval of the latter (1.96 sample sd / √n).
func pairedMeans(a, b []int) (ma, mb, diff, ci float64) {
	n := float64(len(a))
	var sa, sb, sd, ss float64
	for i := range a {
		d := float64(a[i] - b[i])
		sa, sb, sd, ss = sa+float64(a[i]), sb+float64(b[i]), sd+d, ss+d*d
	}
	diff = sd / n
	return sa / n, sb / n, diff, 1.96 * math.Sqrt((ss-n*diff*diff)/(n-1)) / math.Sqrt(n)
}

// parseMeans reads the last line pairedMeans' figures were printed on.
func parseMeans(text string) (a, d, diff, ci string) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	f := strings.Fields(lines[len(lines)-1]) // adaptive A density D diff X ± C
	return f[1], f[3], f[5], f[7]
}

// minus writes a negative number with the typographic minus the pages use.
func minus(s string) string { return strings.Replace(s, "-", "−", 1) }

func ints(v []int) string {
	s := make([]string, len(v))
	for i, x := range v {
		s[i] = strconv.Itoa(x)
	}
	return strings.Join(s, " ")
}
