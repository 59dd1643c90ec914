package players

import (
	"flag"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/race"
)

// refGames overrides the number of games per pairing of
// TestReferenceMatchups (e.g. -ref.games=2000 -v to measure win rates).
var refGames = flag.Int("ref.games", 0, "games per pairing in TestReferenceMatchups (0 = default)")

// refIslands is a board of isolated cells: no two share a row or a column
// and none are neighbours, so no ship can ever move and each ship can attack
// only its own cell. Players live on their fallbacks until the draw.
var refIslands = []string{
	"#....",
	"..#..",
	"....#",
	".#...",
	"...#.",
}

// refOutcome is the result of one in-process game, from seat 0's side.
type refOutcome struct {
	winner  int // winning seat, -1 on a draw
	actions int
	err     error // the first illegal action (Apply's error) or a bad placement
}

// refPlayGame plays one game on submarine.Game: Place, then Act, Apply and
// Observe for both sides (actor first, each with its own Event and View).
func refPlayGame(r *submarine.Rules, p0, p1 Player, first int) refOutcome {
	ps := [2]Player{p0, p1}
	g, err := submarine.NewGame(r, p0.Place(), p1.Place(), first)
	if err != nil {
		return refOutcome{err: err}
	}
	for g.Status() == game.Running {
		seat := g.ToAct()
		st, err := g.Apply(ps[seat].Act())
		if err != nil {
			return refOutcome{winner: st.Winner, actions: g.Actions(), err: err}
		}
		v := g.View(seat)
		ps[seat].Observe(st.Actor, &v)
		v = g.View(1 - seat)
		ps[1-seat].Observe(st.Other, &v)
	}
	return refOutcome{winner: g.Winner(), actions: g.Actions()}
}

// refScore tallies games of player A against player B.
type refScore struct {
	wins, draws, losses, actions int
}

func (s refScore) games() int { return s.wins + s.draws + s.losses }

// refSeries plays n games of a against b. Game k seeds both players from
// (seed, k); a sits in seat k%2 and seat (k/2)%2 moves first, so seats and
// first moves alternate evenly. It stops at the first illegal action.
func refSeries(t testing.TB, r *submarine.Rules, a, b Factory, n int, seed uint64) refScore {
	t.Helper()
	var s refScore
	for k := range n {
		pa := a(rand.New(rand.NewPCG(seed, uint64(2*k))))
		pb := b(rand.New(rand.NewPCG(seed, uint64(2*k+1))))
		seatA, first := k%2, (k/2)%2
		var o refOutcome
		if seatA == 0 {
			o = refPlayGame(r, pa, pb, first)
		} else {
			o = refPlayGame(r, pb, pa, first)
		}
		require.NoError(t, o.err, "game %d (A in seat %d, seat %d first) after %d actions", k, seatA, first, o.actions)
		s.actions += o.actions
		switch o.winner {
		case -1:
			s.draws++
		case seatA:
			s.wins++
		default:
			s.losses++
		}
	}
	return s
}

func refFactories(r *submarine.Rules) map[string]Factory {
	return map[string]Factory{
		"random": func(rng *rand.Rand) Player { return NewRandom(r, rng) },
		"simple": func(rng *rand.Rand) Player { return NewSimple(r, DefaultSimpleConfig(), rng) },
		"state":  func(rng *rand.Rand) Player { return NewStatePlayer(r, DefaultStatePlayerConfig(), rng) },
		"simple-careful": func(rng *rand.Rand) Player {
			cfg := DefaultSimpleConfig()
			cfg.Belief.Careful = true
			return NewSimple(r, cfg, rng)
		},
		"state-careful": func(rng *rand.Rand) Player {
			cfg := DefaultStatePlayerConfig()
			cfg.Belief.Careful = true
			cfg.Counter.RequiresHP = false
			return NewStatePlayer(r, cfg, rng)
		},
	}
}

// TestReferenceRobustness plays simple and state against random and against
// each other on boards that exercise every fallback, and fails on any
// illegal action (or panic).
func TestReferenceRobustness(t *testing.T) {
	rounded, err := grid.Rounded(5, 5)
	require.NoError(t, err)
	wide, err := grid.ParseShape([]string{
		"#######",
		"##.##.#",
		"#######",
		"#.###.#",
		"#######",
		"###.###",
	})
	require.NoError(t, err)
	islands, err := grid.ParseShape(refIslands)
	require.NoError(t, err)
	boards := []struct {
		name  string
		rules *submarine.Rules
		games int
	}{
		{"default 5x5", submarine.DefaultRules(), 500},
		{"rounded 5x5", &submarine.Rules{Board: rounded, Fleet: submarine.DefaultFleet(), DrawLimit: 2000}, 100},
		{"7x6 with rocks, 4 ships", &submarine.Rules{Board: wide, Fleet: append(submarine.DefaultFleet(), submarine.ShipSpec{Name: "d", HP: 2}), DrawLimit: 2000}, 60},
		{"islands", &submarine.Rules{Board: islands, Fleet: submarine.DefaultFleet(), DrawLimit: 60}, 20},
	}
	pairs := [][2]string{
		{"simple", "random"}, {"state", "random"}, {"state", "simple"},
		{"simple", "simple"}, {"state", "state"},
		{"simple-careful", "state-careful"}, {"state-careful", "random"},
	}
	for _, bd := range boards {
		require.NoError(t, bd.rules.Validate())
		fs := refFactories(bd.rules)
		n := bd.games
		if testing.Short() || race.Enabled {
			n = max(4, n/5)
		}
		for _, pr := range pairs {
			t.Run(bd.name+"/"+pr[0]+" vs "+pr[1], func(t *testing.T) {
				s := refSeries(t, bd.rules, fs[pr[0]], fs[pr[1]], n, 42)
				require.Equal(t, n, s.games())
			})
		}
	}
}

// TestReferenceMatchups measures win rates on the default rules and checks
// that the reference players are ordered as designed. Run with
// -ref.games=2000 -v for the numbers of docs/reference-players.md.
func TestReferenceMatchups(t *testing.T) {
	r := submarine.DefaultRules()
	fs := refFactories(r)
	n := 400
	if testing.Short() || race.Enabled {
		n = 100
	}
	if *refGames > 0 {
		n = *refGames
	}
	tests := []struct {
		a, b    string
		minWins float64 // a's minimum share of the games
	}{
		{"simple", "random", 0.95},
		{"state", "random", 0.95},
		{"state", "simple", 0.75},
	}
	for _, tt := range tests {
		t.Run(tt.a+" vs "+tt.b, func(t *testing.T) {
			s := refSeries(t, r, fs[tt.a], fs[tt.b], n, 7)
			t.Logf("%s vs %s: %d games: %d wins, %d draws, %d losses, %.1f actions per game",
				tt.a, tt.b, s.games(), s.wins, s.draws, s.losses, float64(s.actions)/float64(s.games()))
			require.GreaterOrEqual(t, float64(s.wins)/float64(s.games()), tt.minWins)
		})
	}
}

// TestReferenceDeterministic replays games with the same seeds and expects
// the same actions.
func TestReferenceDeterministic(t *testing.T) {
	r := submarine.DefaultRules()
	fs := refFactories(r)
	record := func(a, b string, seed uint64) []submarine.Action {
		p0 := fs[a](rand.New(rand.NewPCG(seed, 1)))
		p1 := fs[b](rand.New(rand.NewPCG(seed, 2)))
		ps := [2]Player{p0, p1}
		g, err := submarine.NewGame(r, p0.Place(), p1.Place(), 0)
		require.NoError(t, err)
		var acts []submarine.Action
		for g.Status() == game.Running {
			seat := g.ToAct()
			a := ps[seat].Act()
			acts = append(acts, a)
			st, err := g.Apply(a)
			require.NoError(t, err)
			v := g.View(seat)
			ps[seat].Observe(st.Actor, &v)
			v = g.View(1 - seat)
			ps[1-seat].Observe(st.Other, &v)
		}
		return acts
	}
	for _, pr := range [][2]string{{"simple", "state"}, {"state", "random"}} {
		for seed := range uint64(5) {
			got := record(pr[0], pr[1], seed)
			require.Equal(t, got, record(pr[0], pr[1], seed), "%v seed %d", pr, seed)
		}
	}
}

func TestReferenceConfigFilesAreDefaults(t *testing.T) {
	simple := SimpleConfig{MoveProbability: -1, Belief: RefBeliefConfig{Careful: true}} // every key must be set by the file
	require.NoError(t, config.Load(filepath.Join("..", "configs", "simple.yaml"), &simple))
	require.Equal(t, DefaultSimpleConfig(), simple)

	state := StatePlayerConfig{Counter: RefCounterConfig{RequiresHP: false}, Belief: RefBeliefConfig{Careful: true}}
	require.NoError(t, config.Load(filepath.Join("..", "configs", "state.yaml"), &state))
	require.Equal(t, DefaultStatePlayerConfig(), state)

	for _, name := range []string{"simple", "state"} {
		e, err := Lookup(name)
		require.NoError(t, err)
		require.Equal(t, "configs/"+name+".yaml", e.Config)
	}
}

func TestReferenceConfigErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, []byte(text), 0o600))
		return path
	}
	r := submarine.DefaultRules()
	tests := []struct {
		name    string
		player  string
		yaml    string
		wantErr string
	}{
		{"simple unknown key", "simple", "move_probabilty: 0.3\n", `players: simple: config: `},
		{"simple unknown key named", "simple", "move_probabilty: 0.3\n", `unknown key "move_probabilty"`},
		{"simple probability above 1", "simple", "move_probability: 1.5\n", "move_probability 1.5: want a number from 0 to 1"},
		{"simple probability negative", "simple", "move_probability: -0.1\n", "move_probability -0.1"},
		{"state unknown nested key", "state", "counter:\n  requires: true\n", `unknown key "counter.requires"`},
		{"state wrong type", "state", "belief:\n  careful: sometimes\n", "careful"},
		{"simple ok", "simple", "move_probability: 0.25\nbelief:\n  careful: true\n", ""},
		{"state ok", "state", "counter:\n  requires_hp: false\n", ""},
	}
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := write(tt.player+string(rune('a'+i))+".yaml", tt.yaml)
			f, err := New(tt.player, r, config.File(path))
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				require.Nil(t, f)
				return
			}
			require.NoError(t, err)
			s := refSeries(t, r, f, refFactories(r)["random"], 4, 1)
			require.Equal(t, 4, s.games())
		})
	}
	_, err := New("simple", r, config.File(filepath.Join(dir, "missing.yaml")))
	require.ErrorContains(t, err, "missing.yaml")

	cfg := DefaultSimpleConfig()
	require.NoError(t, config.Load(write("s.yaml", "move_probability: 1\n"), &cfg))
	require.Equal(t, 1.0, cfg.MoveProbability)
	_, err = New("state", r, config.File(write("t.yaml", "bogus: 1\n")))
	require.ErrorContains(t, err, `players: state: config: `)
	require.ErrorIs(t, err, config.ErrUnknownKey)
}

// refMidgame returns a player after a few turns of a game against random
// players, for the decision benchmarks.
func refMidgame(b *testing.B, f Factory, turns int) Player {
	r := submarine.DefaultRules()
	for seed := uint64(0); ; seed++ {
		p := f(rand.New(rand.NewPCG(seed, 1)))
		q := NewRandom(r, rand.New(rand.NewPCG(seed, 2)))
		ps := [2]Player{p, q}
		g, err := submarine.NewGame(r, p.Place(), q.Place(), 0)
		require.NoError(b, err)
		for g.Status() == game.Running && g.Actions() < 2*turns {
			seat := g.ToAct()
			st, err := g.Apply(ps[seat].Act())
			require.NoError(b, err)
			v := g.View(seat)
			ps[seat].Observe(st.Actor, &v)
			v = g.View(1 - seat)
			ps[1-seat].Observe(st.Other, &v)
		}
		if g.Status() == game.Running {
			return p
		}
	}
}

func BenchmarkSimpleDecision(b *testing.B) {
	r := submarine.DefaultRules()
	p := refMidgame(b, func(rng *rand.Rand) Player { return NewSimple(r, DefaultSimpleConfig(), rng) }, 10).(*Simple)
	b.ReportAllocs()
	for b.Loop() {
		q := *p
		_ = q.Act()
	}
}

func BenchmarkStateDecision(b *testing.B) {
	r := submarine.DefaultRules()
	p := refMidgame(b, func(rng *rand.Rand) Player { return NewStatePlayer(r, DefaultStatePlayerConfig(), rng) }, 10).(*StatePlayer)
	b.ReportAllocs()
	for b.Loop() {
		q := *p
		_ = q.Act()
	}
}

// BenchmarkStateChase times the most expensive decision: a chase over full
// candidate sets.
func BenchmarkStateChase(b *testing.B) {
	r := submarine.DefaultRules()
	p := NewStatePlayer(r, DefaultStatePlayerConfig(), rand.New(rand.NewPCG(1, 2)))
	p.me = submarine.NewFleet(r, submarine.Placement{0, 1, 5})
	reach := r.Reach(&p.me)
	b.ReportAllocs()
	for b.Loop() {
		_ = p.chase(reach)
	}
}

func BenchmarkStateObserve(b *testing.B) {
	r := submarine.DefaultRules()
	p := refMidgame(b, func(rng *rand.Rand) Player { return NewStatePlayer(r, DefaultStatePlayerConfig(), rng) }, 10).(*StatePlayer)
	v := submarine.View{Me: p.me, EnemyHP: p.enemyHP}
	ev := submarine.Event{Mine: true, Kind: submarine.Attack, At: 12, Hit: submarine.NoShip, Near: submarine.ShipMask(0).With(1), Ship: submarine.NoShip, To: grid.None}
	b.ReportAllocs()
	for b.Loop() {
		q := *p
		q.Observe(ev, &v)
	}
}

// BenchmarkReferenceGame times whole games of state against simple.
func BenchmarkReferenceGame(b *testing.B) {
	r := submarine.DefaultRules()
	fs := refFactories(r)
	k := uint64(0)
	b.ReportAllocs()
	for b.Loop() {
		k++
		o := refPlayGame(r, fs["state"](rand.New(rand.NewPCG(k, 1))), fs["simple"](rand.New(rand.NewPCG(k, 2))), int(k%2))
		if o.err != nil {
			b.Fatal(o.err)
		}
	}
}
