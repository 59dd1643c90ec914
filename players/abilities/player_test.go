package abplayers

import (
	"math/rand/v2"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/race"
)

func TestConfigFilesEqualDefaults(t *testing.T) {
	for file, want := range map[string]BotConfig{"abilities-density.yaml": DefaultBotConfig(), "abilities-plain.yaml": DefaultPlainConfig(), "abilities-belief.yaml": DefaultBeliefConfig()} {
		c := BotConfig{WorkPerMS: 1, Samples: 1} // pass Validate only if the file sets them
		require.NoError(t, config.Load(filepath.Join("..", "..", "configs", file), &c), file)
		require.Equal(t, want, c, file)
	}
	c := DefaultBotConfig()
	require.ErrorContains(t, config.LoadString("x", "samples: 0\n", &c), "samples 0")
	c = DefaultBotConfig()
	require.ErrorIs(t, config.LoadString("x", "salvo: 1\n", &c), config.ErrUnknownKey)
}

func TestRegistry(t *testing.T) {
	require.Equal(t, []string{"ab-random", "ab-density", "ab-belief", "ab-plain"}, Names())
	_, err := Lookup("deepblue")
	require.ErrorIs(t, err, ErrUnknownPlayer)
	_, err = New("ab-random", abilities.DefaultRules(), func(any) error { return nil })
	require.Error(t, err)
}

// TestEveryPairPlaysCleanlyFullSize plays every pair of AIs on every pairing of
// sides (small boards, few games): no forfeit, every game decided.
// fewSamples keeps ab-belief cheap in the tests that only check that games
// end cleanly (its estimates are the slow part, 7x7 boards the worst).
func fewSamples(name string) Loader {
	if name != "ab-belief" {
		return nil
	}
	return func(c any) error {
		c.(*BotConfig).Samples = 40
		return nil
	}
}

func TestEveryPairPlaysCleanlyFullSize(t *testing.T) {
	race.SkipFullSize(t)
	const games = 2
	base, err := battleship.NewRules(grid.MustBoard(7, 7, nil), []int{4, 3, 2, 2, 1, 1})
	require.NoError(t, err)
	for _, sides := range [][2]abilities.Side{{abilities.AI, abilities.Humans}, {abilities.Humans, abilities.AI}, {abilities.AI, abilities.AI}, {abilities.Humans, abilities.Humans}} {
		for _, opt := range []abilities.Options{{}, {SalvoShootsAgain: true, FalseMissAnyHit: true, MoveMayTouch: true, HideMoves: true, ScanAfloatOnly: true, SuppressPassive: true}} {
			r, err := abilities.NewRules(base, sides[0], sides[1], opt)
			require.NoError(t, err)
			for _, n0 := range Names() {
				for _, n1 := range Names() {
					f0, err := New(n0, r, fewSamples(n0))
					require.NoError(t, err)
					f1, err := New(n1, r, fewSamples(n1))
					require.NoError(t, err)
					for i := range games {
						rng := rand.New(rand.NewPCG(uint64(i), 9))
						res := PlayGame(r, f0(rng, 0), f1(rng, 1), i)
						require.NoError(t, res.Err, "%s vs %s, %v %+v", n0, n1, sides, opt)
						require.Equal(t, game.Won, res.Status, "%s vs %s, %v %+v", n0, n1, sides, opt)
						require.Equal(t, -1, res.Forfeit)
					}
				}
			}
		}
	}
}

// TestBotDefends: as the defender the bot reveals water first, spends the
// false miss on the first hit of its 4-deck, and air defence on a shot
// that would hit the 4-deck but not on one next to it.
func TestBotDefends(t *testing.T) {
	r := abilities.DefaultRules()
	f, err := New("ab-density", r, nil)
	require.NoError(t, err)
	p := f(rand.New(rand.NewPCG(1, 1)), 1).(*Bot)
	layout := p.Place()
	four := layout.Normalize()[0]
	require.Len(t, four, 4)
	require.True(t, p.Act(&abilities.Question{Ask: abilities.AskFalseMiss, Seat: 1, At: four[1]}).Use)
	require.True(t, p.Act(&abilities.Question{Ask: abilities.AskAirDefence, Seat: 1, At: four[0]}).Use)
	var near grid.Cell = -1
	for c := range r.Base.Board.Around(four[0]).All() {
		if p.own.shipAt(c) < 0 {
			near = c
		}
	}
	require.False(t, p.Act(&abilities.Question{Ask: abilities.AskAirDefence, Seat: 1, At: near}).Use)
	// a 3x3 around a 4-deck cell: the 3 cells named are water when it can
	cells := r.Base.Board.Around(four[1])
	a := p.Act(&abilities.Question{Ask: abilities.AskReveal, Seat: 1, At: four[1], Cells: cells, Count: 3})
	require.Len(t, a.Cells, 3)
	for _, c := range a.Cells {
		require.Negative(t, p.own.shipAt(c), "revealed a ship cell %d", c)
	}
	// after the first hit on the 4-deck it no longer lies
	p.Observe(abilities.Event{Seat: 0, Kind: abilities.Shoot, Cells: []abilities.CellResult{{At: four[1], Outcome: battleship.Hit}}, Scan: -1, Next: 0})
	require.False(t, p.Act(&abilities.Question{Ask: abilities.AskFalseMiss, Seat: 1, At: four[2]}).Use)
}

// TestPlainBotUsesNoAbility: with abilities off the bot only shoots,
// without the 3-deck, declines every defence and still reveals water first.
func TestPlainBotUsesNoAbility(t *testing.T) {
	r := abilities.DefaultRules()
	r.Sides = [2]abilities.Side{abilities.AI, abilities.Humans}
	f, err := New("ab-plain", r, nil)
	require.NoError(t, err)
	g, err := New("ab-random", r, nil)
	require.NoError(t, err)
	rng := rand.New(rand.NewPCG(5, 5))
	plain := &recorder{Player: f(rng, 0)}
	res := PlayGame(r, plain, g(rng, 1), 0)
	require.NoError(t, res.Err)
	require.NotEmpty(t, plain.acts)
	reveals := 0
	for k, a := range plain.acts {
		switch a.Kind {
		case abilities.Shoot:
			require.False(t, a.Special)
		case abilities.Defend:
			require.False(t, a.Use)
		case abilities.Reveal:
			reveals++
			water := 0
			for c := range plain.asks[k].Cells.All() {
				if plain.Player.(*Bot).own.shipAt(c) < 0 {
					water++
				}
			}
			ships := 0
			for _, c := range a.Cells {
				if plain.Player.(*Bot).own.shipAt(c) >= 0 {
					ships++
				}
			}
			require.Equal(t, max(0, len(a.Cells)-water), ships, "a ship cell revealed while water was left")
		default:
			t.Fatalf("plain bot played %s", a)
		}
	}
	require.Positive(t, reveals, "the game should have made it reveal")
}

type recorder struct {
	Player
	acts []abilities.Action
	asks []*abilities.Question
}

func (r *recorder) Act(q *abilities.Question) abilities.Action {
	a := r.Player.Act(q)
	r.acts = append(r.acts, a)
	r.asks = append(r.asks, q)
	return a
}

// TestBotUsesItsAbilities: over a few games against ab-random, on each
// side, ab-density moves 1-decks, salvoes and uses its 3-deck, all of it
// legal (a refused action would end the game with an error).
func TestBotUsesItsAbilities(t *testing.T) {
	for _, side := range []abilities.Side{abilities.AI, abilities.Humans} {
		r := abilities.DefaultRules()
		r.Sides = [2]abilities.Side{side, 1 - side}
		f, err := New("ab-density", r, nil)
		require.NoError(t, err)
		g, err := New("ab-random", r, nil)
		require.NoError(t, err)
		kinds := map[abilities.Kind]int{}
		specials := 0
		for i := range 4 {
			rng := rand.New(rand.NewPCG(uint64(i), 77))
			bot := &recorder{Player: f(rng, 0)}
			res := PlayGame(r, bot, g(rng, 1), i%2)
			require.NoError(t, res.Err)
			for _, a := range bot.acts {
				kinds[a.Kind]++
				if a.Special {
					specials++
				}
			}
		}
		require.Positive(t, kinds[abilities.Move], side.String())
		require.Positive(t, kinds[abilities.Salvo], side.String())
		require.Positive(t, specials, side.String())
	}
}

// TestBotAvoidsAnEmptyScan: after its 3-deck counts no ship in the 5x5
// around [0,2] (where the most likely cells of an empty board are), the
// bot's next shot or salvo is outside that square; ignoring the counts
// (weight 1) it fires inside it.
func TestBotAvoidsAnEmptyScan(t *testing.T) {
	r := abilities.DefaultRules()
	centre := grid.Cell(2)
	inside := func(cfg BotConfig, seed uint64) bool {
		placer, err := bsbelief.NewUniformPlacer(r.Base)
		require.NoError(t, err)
		b := NewBot(r, 0, cfg, placer, rand.New(rand.NewPCG(seed, 3)))
		b.Place()
		b.Observe(abilities.Event{Seat: 0, Mine: true, Attacker: 0, Kind: abilities.Shoot, Special: true, Scan: 0,
			Cells: []abilities.CellResult{{At: centre}}, Next: 1, TurnEnd: true, Winner: -1})
		a := b.Act(nil)
		for a.Kind == abilities.Move { // not a shot: the bot moves first
			a = b.Act(nil)
		}
		in := r.Base.Board.Chebyshev(a.At, centre) <= 2
		if a.Kind == abilities.Salvo {
			in = in || r.Base.Board.Chebyshev(a.To, centre) <= 2
		}
		return in
	}
	ignoring := 0
	for seed := range uint64(40) {
		require.False(t, inside(DefaultBotConfig(), seed), "seed %d", seed)
		cfg := DefaultBotConfig()
		cfg.EmptyScanWeight = 1
		if inside(cfg, seed) {
			ignoring++
		}
	}
	require.Positive(t, ignoring, "the square holds likely cells: the test must be able to fail")
	c := DefaultBotConfig()
	require.ErrorContains(t, config.LoadString("x", "empty_scan_weight: 2\n", &c), "empty_scan_weight 2")
}
