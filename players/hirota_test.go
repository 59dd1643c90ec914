package players

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// recorder logs the actions of the player it wraps.
type recorder struct {
	Player
	log *[]submarine.Action
}

func (r recorder) Act() submarine.Action {
	a := r.Player.Act()
	*r.log = append(*r.log, a)
	return a
}

// recordedGame plays game seed between the factories (seat 0 = f0, seat 1
// moves first on odd seeds) and returns the result and every action.
func recordedGame(r *submarine.Rules, f0, f1 Factory, seed uint64) (gameResult, []submarine.Action, [2]Player) {
	var log []submarine.Action
	ps := [2]Player{f0(rand.New(rand.NewPCG(seed, 1))), f1(rand.New(rand.NewPCG(seed, 2)))}
	res := playGame(r, recorder{ps[0], &log}, recorder{ps[1], &log}, int(seed%2))
	return res, log, ps
}

func mustFactory(t *testing.T, name string, r *submarine.Rules, cfg string) Factory {
	t.Helper()
	f, err := New(name, r, config.File(cfg))
	require.NoError(t, err)
	return f
}

func TestHirotaRegistered(t *testing.T) {
	for _, name := range []string{"hirota", "joint-greedy"} {
		e, err := Lookup(name)
		require.NoError(t, err)
		require.NotEmpty(t, e.Config)
	}
	_, err := New("hirota", submarine.DefaultRules(), config.File("../configs/joint-greedy.yaml"))
	require.NoError(t, err, "hirota takes the family's weights")
	big := &submarine.Rules{Board: grid.MustBoard(16, 16, nil), Fleet: submarine.DefaultFleet(), DrawLimit: 100}
	_, err = New("hirota", big, nil)
	require.ErrorContains(t, err, "placements")
}

// TestHirotaIsAPointOfJointGreedy: joint-greedy with configs/hirota.yaml
// plays the same games as hirota, action for action.
func TestHirotaIsAPointOfJointGreedy(t *testing.T) {
	r := submarine.DefaultRules()
	hirota := mustFactory(t, "hirota", r, "")
	point := mustFactory(t, "joint-greedy", r, "../configs/hirota.yaml")
	family := mustFactory(t, "joint-greedy", r, "")
	sp2 := mustFactory(t, "stateplayer2", r, "")
	differ := 0
	for seed := range uint64(6) {
		res1, log1, _ := recordedGame(r, hirota, sp2, seed)
		res2, log2, _ := recordedGame(r, point, sp2, seed)
		require.NoError(t, res1.err)
		require.Equal(t, res1, res2, "seed %d", seed)
		require.Equal(t, log1, log2, "seed %d", seed)
		_, log3, _ := recordedGame(r, family, sp2, seed)
		if fmt.Sprint(log3) != fmt.Sprint(log1) {
			differ++
		}
	}
	require.Positive(t, differ, "the family's defaults are another point")
}

func TestHirotaDeterministicBySeed(t *testing.T) {
	r := submarine.DefaultRules()
	hirota := mustFactory(t, "hirota", r, "")
	random := mustFactory(t, "random", r, "")
	_, a, _ := recordedGame(r, hirota, random, 11)
	_, b, _ := recordedGame(r, hirota, random, 11)
	_, c, _ := recordedGame(r, hirota, random, 12)
	require.Equal(t, a, b)
	require.NotEqual(t, a, c)
}

// TestJointGreedyPlaysLegalGamesFullSize: hirota and corners of the family play
// whole games without an illegal action and with beliefs that explain every
// observation, on the default board and on others.
func TestJointGreedyPlaysLegalGamesFullSize(t *testing.T) {
	race.SkipFullSize(t)
	rounded, err := grid.Rounded(5, 5)
	require.NoError(t, err)
	boards := map[string]*submarine.Rules{
		"5x5":         submarine.DefaultRules(),
		"rounded 5x5": {Board: rounded, Fleet: submarine.DefaultFleet(), DrawLimit: 2000},
		"6x4":         {Board: grid.MustBoard(6, 4, nil), Fleet: submarine.DefaultFleet(), DrawLimit: 2000},
	}
	camper := DefaultJointGreedyConfig()
	camper.Flee.Rate, camper.Approach.Ahead = 0, 7
	chaser := DefaultJointGreedyConfig()
	chaser.Approach.Ahead, chaser.Approach.HPEdge, chaser.Idle.Move = -7, 1, 0.5
	chaser.Attack.Info, chaser.Attack.HPExponent, chaser.Placement.Edge = 0.3, 2, -1
	chaser.Flee.Located, chaser.Flee.Reach, chaser.Flee.Safe, chaser.Flee.Rate = 0.5, 0.6, 0.3, 0.7
	reach := DefaultHirotaConfig()
	reach.Approach.Target = JGApproachReach
	cfgs := map[string]JointGreedyConfig{"hirota": DefaultHirotaConfig(), "camper": camper, "chaser": chaser, "hirota@8a6b3cb": reach}
	for bname, r := range boards {
		for cname, cfg := range cfgs {
			t.Run(bname+"/"+cname, func(t *testing.T) {
				sh, err := newJGShared(r, cfg)
				require.NoError(t, err)
				jg := func(rng *rand.Rand) Player { return newJointGreedy(sh, rng) }
				for _, opp := range []string{"random", "stateplayer2"} {
					of := mustFactory(t, opp, r, "")
					for seed := range uint64(4) {
						res, log, ps := recordedGame(r, jg, of, seed)
						require.NoError(t, res.err, "%s seed %d", opp, seed)
						require.NotEqual(t, game.Running, res.outcome)
						require.NotEmpty(t, log)
						p := ps[0].(*JointGreedy)
						require.Zero(t, p.Broken(), "beliefs explain every observation")
						d := p.Explain()
						require.NotEmpty(t, d.State)
						require.NotEmpty(t, d.Reason)
					}
				}
			})
		}
	}
}

// TestHirotaAgainstStatePlayer2 is a small version of the measured profile
// (docs/hirota.md: 266 wins, 133 draws, 1 loss in 400): hirota wins most
// games against stateplayer2 and almost never loses (these 12 seeds: 8 wins,
// 3 draws, 1 loss, a game where stateplayer2 hits the battleship twice
// before any refuge is surely out of its reach).
func TestHirotaAgainstStatePlayer2(t *testing.T) {
	if testing.Short() {
		t.Skip("plays games")
	}
	r := submarine.DefaultRules()
	hirota := mustFactory(t, "hirota", r, "")
	sp2 := mustFactory(t, "stateplayer2", r, "")
	var got [3]int // wins, draws, losses of hirota
	for seed := range uint64(12) {
		h, o, hSeat := hirota, sp2, 0
		if seed%4 >= 2 {
			h, o, hSeat = sp2, hirota, 1
		}
		res, _, _ := recordedGame(r, h, o, seed)
		require.NoError(t, res.err)
		switch {
		case res.outcome == game.Drawn:
			got[1]++
		case res.winner == hSeat:
			got[0]++
		default:
			got[2]++
		}
	}
	require.Equal(t, [3]int{8, 3, 1}, got, "the figure quoted in docs/hirota.md")
}

func ExampleNewHirota() {
	r := submarine.DefaultRules()
	p, err := NewHirota(r, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		panic(err)
	}
	pl := p.Place()
	apart := true
	for i := range pl {
		for j := i + 1; j < len(pl); j++ {
			apart = apart && r.Board.Chebyshev(pl[i], pl[j]) >= 3
		}
	}
	fmt.Println("ships pairwise 3 apart:", apart)
	fmt.Println("first action:", p.Act().Kind, "-", p.Explain().State)
	// Output:
	// ships pairwise 3 apart: true
	// first action: attack - attack
}
