package players

import (
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/fsm"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/cputime"
)

// gameResult is the outcome of one in-process game.
type gameResult struct {
	outcome game.Status
	winner  int
	actions int
	err     error // an illegal action (Apply's error) or a bad placement
}

// playGame plays one game between p0 and p1 directly on submarine.Game:
// Place, then Act / Apply / Observe (both sides, with their own Event and
// View) until the game ends.
func playGame(r *submarine.Rules, p0, p1 Player, first int) gameResult {
	ps := [2]Player{p0, p1}
	g, err := submarine.NewGame(r, p0.Place(), p1.Place(), first)
	if err != nil {
		return gameResult{err: err}
	}
	var v submarine.View // one View reused: Observe may not keep it
	for g.Status() == game.Running {
		seat := g.ToAct()
		st, err := g.Apply(ps[seat].Act())
		if err != nil {
			return gameResult{outcome: st.Status, winner: st.Winner, actions: g.Actions(), err: err}
		}
		v = g.View(seat)
		ps[seat].Observe(st.Actor, &v)
		v = g.View(1 - seat)
		ps[1-seat].Observe(st.Other, &v)
	}
	return gameResult{outcome: g.Status(), winner: g.Winner(), actions: g.Actions()}
}

// tally sums games of stateplayer2 (seat alternating) against an opponent.
type tally struct {
	wins, draws, losses, actions, illegal, fsmErrs int
	firstErr                                       error
}

func (t *tally) add(o tally) {
	t.wins += o.wins
	t.draws += o.draws
	t.losses += o.losses
	t.actions += o.actions
	t.illegal += o.illegal
	t.fsmErrs += o.fsmErrs
	if t.firstErr == nil {
		t.firstErr = o.firstErr
	}
}

// series plays games [from, to) of stateplayer2 against opp; game k uses
// seed k, stateplayer2 sits in seat k%2 and seat (k/2)%2 moves first.
func series(r *submarine.Rules, cfg StatePlayer2Config, opp Factory, from, to int) tally {
	var t tally
	for k := from; k < to; k++ {
		rng := rand.New(rand.NewPCG(uint64(k), 0x5eed))
		sp := newStatePlayer2(r, cfg, rng)
		op := opp(rng)
		mySeat, first := k%2, (k/2)%2
		var res gameResult
		if mySeat == 0 {
			res = playGame(r, sp, op, first)
		} else {
			res = playGame(r, op, sp, first)
		}
		t.actions += res.actions
		t.fsmErrs += sp.fsmErrs
		if res.err != nil {
			t.illegal++
			if t.firstErr == nil {
				t.firstErr = res.err
			}
		}
		switch {
		case res.outcome == game.Drawn:
			t.draws++
		case res.winner == mySeat:
			t.wins++
		default:
			t.losses++
		}
	}
	return t
}

// parallelSeries splits n games over the CPUs.
func parallelSeries(r *submarine.Rules, cfg StatePlayer2Config, opp Factory, n int) tally {
	workers := runtime.GOMAXPROCS(0)
	var (
		mu  sync.Mutex
		all tally
		wg  sync.WaitGroup
	)
	for w := range workers {
		wg.Go(func() {
			t := series(r, cfg, opp, n*w/workers, n*(w+1)/workers)
			mu.Lock()
			all.add(t)
			mu.Unlock()
		})
	}
	wg.Wait()
	return all
}

func randomFactory(r *submarine.Rules) Factory {
	return func(rng *rand.Rand) Player { return NewRandom(r, rng) }
}

// TestSP2VsRandom is the robustness test and the measurement of the win
// rate: thousands of in-process games against players.Random with zero
// illegal actions, zero refused machine events, no panics, and at least 99%
// wins (the reference "beats a random player in essentially every game").
func TestSP2VsRandom(t *testing.T) {
	r := submarine.DefaultRules()
	n := 2000
	if testing.Short() {
		n = 300
	}
	got := parallelSeries(r, DefaultStatePlayer2Config(), randomFactory(r), n)
	t.Logf("stateplayer2 vs random, %d games: %d wins, %d draws, %d losses, mean %.1f actions per game",
		n, got.wins, got.draws, got.losses, float64(got.actions)/float64(n))
	require.NoError(t, got.firstErr)
	require.Zero(t, got.illegal)
	require.Zero(t, got.fsmErrs)
	require.Equal(t, n, got.wins+got.draws+got.losses)
	require.GreaterOrEqual(t, got.wins*100, 99*n, "win rate below 99%%")
}

// TestSP2Robustness plays other boards (rocks, other sizes, the rounded
// 2025 field), other weights and self-play with a short draw limit: never an
// illegal action, never a refused event.
func TestSP2Robustness(t *testing.T) {
	rounded, err := grid.Rounded(5, 5)
	require.NoError(t, err)
	rocky, err := grid.ParseShape([]string{"#.####", "######", "###.##", "######"})
	require.NoError(t, err)
	tiny := grid.MustBoard(3, 3, nil)
	wide := grid.MustBoard(9, 2, nil)
	two := []submarine.ShipSpec{{Name: "a", HP: 2}, {Name: "b", HP: 1}}
	five := []submarine.ShipSpec{{Name: "a", HP: 3}, {Name: "b", HP: 2}, {Name: "c", HP: 2}, {Name: "d", HP: 1}, {Name: "e", HP: 1}}
	reference := DefaultStatePlayer2Config()
	reference.Stealth.Memory = 0
	reference.Belief.Careful = false
	odd := DefaultStatePlayer2Config()
	odd.Attack.ExposureExponent = 1.5
	odd.Escape.DistanceWeight = 0
	odd.Escape.AllyWeight = 0
	odd.Counter.RequiresHP = false
	odd.Placement.Samples = 3
	zero := StatePlayer2Config{Placement: SP2Placement{Samples: 3}, Sakuteki: SP2Sakuteki{Normaliser: 1}}

	tests := []struct {
		name  string
		rules *submarine.Rules
		cfg   StatePlayer2Config
		self  bool
	}{
		{"rounded 5x5", &submarine.Rules{Board: rounded, Fleet: submarine.DefaultFleet(), DrawLimit: 2000}, DefaultStatePlayer2Config(), false},
		{"6x4 with rocks", &submarine.Rules{Board: rocky, Fleet: submarine.DefaultFleet(), DrawLimit: 2000}, DefaultStatePlayer2Config(), false},
		{"3x3", &submarine.Rules{Board: tiny, Fleet: submarine.DefaultFleet(), DrawLimit: 2000}, DefaultStatePlayer2Config(), false},
		{"9x2, five ships", &submarine.Rules{Board: wide, Fleet: five, DrawLimit: 2000}, DefaultStatePlayer2Config(), false},
		{"two ships", &submarine.Rules{Board: grid.MustBoard(5, 5, nil), Fleet: two, DrawLimit: 2000}, DefaultStatePlayer2Config(), false},
		{"reference belief, no memory", submarine.DefaultRules(), reference, false},
		{"odd weights", submarine.DefaultRules(), odd, false},
		{"all weights zero", submarine.DefaultRules(), zero, false},
		{"self-play", &submarine.Rules{Board: grid.MustBoard(5, 5, nil), Fleet: submarine.DefaultFleet(), DrawLimit: 600}, DefaultStatePlayer2Config(), true},
		{"self-play rounded", &submarine.Rules{Board: rounded, Fleet: submarine.DefaultFleet(), DrawLimit: 600}, DefaultStatePlayer2Config(), true},
	}
	n := 300
	if testing.Short() {
		n = 60
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, tc.rules.Validate())
			cfg := tc.cfg
			if err := cfg.CheckRules(tc.rules); err != nil {
				cfg.Placement.Samples = tc.rules.Board.Usable().Count()
				require.NoError(t, cfg.CheckRules(tc.rules))
			}
			opp := randomFactory(tc.rules)
			if tc.self {
				opp = func(rng *rand.Rand) Player { return newStatePlayer2(tc.rules, cfg, rng) }
			}
			got := parallelSeries(tc.rules, cfg, opp, n)
			t.Logf("%d games: %d wins, %d draws, %d losses, mean %.1f actions",
				n, got.wins, got.draws, got.losses, float64(got.actions)/float64(n))
			require.NoError(t, got.firstErr)
			require.Zero(t, got.illegal)
			require.Zero(t, got.fsmErrs)
		})
	}
}

// BenchmarkStatePlayer2VsRandom measures whole in-process games of
// stateplayer2 against random (placement, every Act and Observe of both
// sides and the engine), in parallel on GOMAXPROCS cores. games/s is the
// throughput.
func BenchmarkStatePlayer2VsRandom(b *testing.B) {
	r := submarine.DefaultRules()
	cfg := DefaultStatePlayer2Config()
	opp := randomFactory(r)
	var next atomic.Int64
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, _ := cputime.Process()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			k := int(next.Add(1))
			series(r, cfg, opp, k, k+1)
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
	cpu1, _ := cputime.Process()
	b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/game")
}

// BenchmarkStatePlayer2Decision measures one Act of stateplayer2 on
// positions recorded from games against random (the position is restored
// before each Act, a struct copy included in the time).
func BenchmarkStatePlayer2Decision(b *testing.B) {
	type snap struct {
		p   StatePlayer2
		st  fsm.State
		msg fsm.Msg
	}
	r := submarine.DefaultRules()
	cfg := DefaultStatePlayer2Config()
	var snaps []snap
	for k := range 200 {
		rng := rand.New(rand.NewPCG(uint64(k), 9))
		sp := newStatePlayer2(r, cfg, rng)
		ps := [2]Player{sp, NewRandom(r, rng)}
		g, err := submarine.NewGame(r, ps[0].Place(), ps[1].Place(), k%2)
		if err != nil {
			b.Fatal(err)
		}
		var v submarine.View
		for g.Status() == game.Running {
			seat := g.ToAct()
			if seat == 0 {
				snaps = append(snaps, snap{*sp, sp.m.State(), sp.m.Msg()})
			}
			st, _ := g.Apply(ps[seat].Act())
			v = g.View(seat)
			ps[seat].Observe(st.Actor, &v)
			v = g.View(1 - seat)
			ps[1-seat].Observe(st.Other, &v)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		s := &snaps[i%len(snaps)]
		w := s.p
		if err := w.m.Restore(s.st, s.msg); err != nil {
			b.Fatal(err)
		}
		w.Act()
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}
