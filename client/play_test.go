package client_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bswire "github.com/kaisen-ai/kaisen/game/battleship/wire"
	"github.com/kaisen-ai/kaisen/game/grid"
)

const battleshipGolden = "../game/battleship/wire/testdata/battleship-small.txt"

// bsScript is one seat of the golden battleship game, played back: the
// placement and shots it sent, and what it is told.
type bsScript struct {
	place battleship.Placement
	shots []grid.Cell
	seen  []battleship.Event
}

func (s *bsScript) Place() battleship.Placement { return s.place }
func (s *bsScript) Act() grid.Cell {
	at := s.shots[0]
	s.shots = s.shots[1:]
	return at
}
func (s *bsScript) Observe(ev battleship.Event) { s.seen = append(s.seen, ev) }

// TestPlayBattleshipTranscript: Play with the battleship codec sends
// exactly the golden game's client lines of either seat when a fake server
// sends that seat's server lines, and tells the player every shot as the
// rules tell it (Repeat and Again included).
func TestPlayBattleshipTranscript(t *testing.T) {
	r, err := battleship.NewRules(grid.MustBoard(6, 6, nil), []int{3, 2, 1})
	require.NoError(t, err)
	b, err := os.ReadFile(battleshipGolden)
	require.NoError(t, err)
	var lines []abLine
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		f := strings.SplitN(l, "  ", 3)
		require.Len(t, f, 3, l)
		lines = append(lines, abLine{seat: int(f[0][1] - '1'), toServer: f[1] == "C>S", text: f[2]})
	}
	// The rules' account of the game, from both seats' lines.
	var (
		script [2]bsScript
		want   [2][]battleship.Event
		g      *battleship.Game
	)
	for _, l := range lines {
		switch {
		case !l.toServer:
		case strings.HasPrefix(l.text, `{"ships"`):
			script[l.seat].place, err = bswire.DecodeShips([]byte(l.text), r)
			require.NoError(t, err)
		default:
			if g == nil {
				g, err = battleship.NewGame(r, script[0].place, script[1].place, l.seat)
				require.NoError(t, err)
			}
			at, err := bswire.DecodeShoot([]byte(l.text), r)
			require.NoError(t, err)
			script[l.seat].shots = append(script[l.seat].shots, at)
			st, err := g.Apply(at)
			require.NoError(t, err)
			want[l.seat] = append(want[l.seat], st.Shooter)
			want[1-l.seat] = append(want[1-l.seat], st.Defender)
		}
	}
	for seat := range 2 {
		t.Run(fmt.Sprintf("seat %d", seat), func(t *testing.T) {
			c, s := net.Pipe()
			errs := make(chan error, 1)
			go func() { errs <- abFakeServer(s, lines, seat) }()
			p := script[seat]
			build := func(*battleship.Rules) (game.Factory[battleship.Placement, grid.Cell, battleship.Event], error) {
				return func(*rand.Rand, int) game.Player[battleship.Placement, grid.Cell, battleship.Event] { return &p }, nil
			}
			res, err := client.Play(context.Background(), c, battleship.Name, bswire.NewClient(r), build,
				func(int) *rand.Rand { return nil }, client.Options{ReadTimeout: 10 * time.Second})
			require.NoError(t, err)
			require.NoError(t, <-errs)
			require.False(t, res.Series)
			require.Len(t, res.Games, 1)
			got := res.Games[0]
			require.Equal(t, seat == 0, got.First)
			require.Equal(t, []string{"you win", "you lose"}[seat], got.Line)
			require.Equal(t, len(want[seat]), got.Told)
			require.Equal(t, want[seat], p.seen)
			require.Empty(t, p.shots, "every scripted shot was sent")
		})
	}
}
