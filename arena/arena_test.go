package arena_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/replay"
)

func games(t *testing.T, n int) int {
	if testing.Short() || race.Enabled {
		return max(n/10, 20)
	}
	return n
}

func TestMatchRandomVsRandom(t *testing.T) {
	n := games(t, 4000)
	m := arena.Match{Family: randomFamily(), Games: n, Seed: 42}
	var calls []int
	sum, err := m.Run(context.Background(), func(done int) { calls = append(calls, done) })
	require.NoError(t, err)
	require.Equal(t, n, sum.Games)
	require.Equal(t, n, sum.Requested)
	require.Equal(t, n, sum.P1Wins+sum.P2Wins+sum.Draws)
	require.Zero(t, sum.P1Forfeits+sum.P2Forfeits, "random players never act illegally")
	require.Zero(t, sum.Draws, "random games end long before 10000 actions")
	require.Equal(t, "random", sum.P1)
	require.Equal(t, "submarine", sum.Game)
	require.InDelta(t, 280, sum.Mean, 40, "a random game is about 280 actions")
	require.Greater(t, float64(sum.P90), sum.Mean)
	require.InDelta(t, sum.Mean*float64(n), float64(sum.Actions), 1e-6)
	// Two copies of the same player: P1's share is 1/2 within a loose margin.
	iv := arena.Wilson(sum.P1Wins, n, 3.5)
	require.True(t, iv.Lo < 0.5 && 0.5 < iv.Hi, "P1 won %d of %d", sum.P1Wins, n)
	require.NotEmpty(t, calls)
	require.Equal(t, n, calls[len(calls)-1], "the last progress call reports every game")
	for i := 1; i < len(calls); i++ {
		require.GreaterOrEqual(t, calls[i], calls[i-1])
	}
}

// TestMatchDeterministic: the same seed gives the same summary and the same
// replay files, byte for byte, whatever the number of workers; another seed
// gives other games.
func TestMatchDeterministic(t *testing.T) {
	n := games(t, 300)
	run := func(seed uint64, workers int) (arena.Summary, string) {
		dir := t.TempDir()
		m := arena.Match{Family: randomFamily(), Games: n, Seed: seed, Workers: workers, Replays: dir}
		sum, err := m.Run(context.Background(), nil)
		require.NoError(t, err)
		require.Equal(t, min(workers, n), sum.Workers)
		sum.Elapsed, sum.Workers = 0, 0
		return sum, dir
	}
	s1, d1 := run(7, 1)
	s3, d3 := run(7, 3)
	s8, d8 := run(7, 8)
	require.Equal(t, s1, s3)
	require.Equal(t, s1, s8)
	for i := range n {
		a, err := os.ReadFile(filepath.Join(d1, arena.ReplayName(i)))
		require.NoError(t, err)
		for _, d := range []string{d3, d8} {
			b, err := os.ReadFile(filepath.Join(d, arena.ReplayName(i)))
			require.NoError(t, err)
			require.Equal(t, a, b, "replay of game %d", i)
		}
		if i < 20 {
			rp, err := subrecord.Read(bytes.NewReader(a))
			require.NoError(t, err)
			require.NoError(t, subrecord.Verify(rp))
			require.Equal(t, &replay.MatchRef{Seed: 7, Index: i}, rp.Header.Match)
			require.Equal(t, arena.GameSeed(7, i), rp.Header.Seed)
			p1 := rp.Header.Players[i%2]
			require.Equal(t, replay.SeatInfo{Seat: i % 2, Name: "random", Role: "p1"}, p1, "p1 sits in seat 0 in even games")
		}
	}
	entries, err := os.ReadDir(d1)
	require.NoError(t, err)
	require.Len(t, entries, n)

	other, _ := run(8, 2)
	require.NotEqual(t, s1, other)
}

// TestPlayGameReproducible: a game of a match is PlayGame with the game seed
// and the seats as dealt.
func TestPlayGameReproducible(t *testing.T) {
	fam := randomFamily()
	dir := t.TempDir()
	m := arena.Match{Family: fam, Games: 4, Seed: 99, Replays: dir, Workers: 2}
	_, err := m.Run(context.Background(), nil)
	require.NoError(t, err)
	for i := range 4 {
		var buf bytes.Buffer
		seed := arena.GameSeed(99, i)
		_, err := arena.PlayGame(fam.Rules, fam.P1.Factory, fam.P2.Factory, seed, &arena.GameOptions{
			Names: [2]string{"random", "random"}, Replay: &buf, Match: &replay.MatchRef{Seed: 99, Index: i},
		})
		require.NoError(t, err)
		want, err := subrecord.ReadFile(filepath.Join(dir, arena.ReplayName(i)))
		require.NoError(t, err)
		got, err := subrecord.Read(&buf)
		require.NoError(t, err)
		require.Equal(t, want.Steps, got.Steps)
		require.Equal(t, want.Result, got.Result)
	}
}

func TestGameSeed(t *testing.T) {
	seen := map[uint64]bool{}
	for seed := range uint64(4) {
		for i := range 1000 {
			s := arena.GameSeed(seed, i)
			require.False(t, seen[s], "seed %d game %d repeats a game seed", seed, i)
			seen[s] = true
			require.Equal(t, s, arena.GameSeed(seed, i))
		}
	}
	a, b := arena.SeatRand(5, 0), arena.SeatRand(5, 1)
	require.NotEqual(t, a.Uint64(), b.Uint64(), "the two seats draw from different streams")
	require.Equal(t, arena.SeatRand(5, 1).Uint64(), arena.SeatRand(5, 1).Uint64())
}

// faulty is a player that misbehaves on its nth action.
type faulty struct {
	players.Player
	n, at int
	how   string // "panic" or "illegal"
}

func (f *faulty) Act() submarine.Action {
	f.n++
	if f.n == f.at {
		if f.how == "panic" {
			panic("faulty: boom")
		}
		return submarine.AttackAt(-5)
	}
	return f.Player.Act()
}

func TestForfeits(t *testing.T) {
	rules := submarine.DefaultRules()
	tests := []struct {
		name string
		make func(rng *rand.Rand) players.Player
		want string
	}{
		{"panic in Act", func(rng *rand.Rand) players.Player {
			return &faulty{Player: players.NewRandom(rules, rng), at: 3, how: "panic"}
		}, "panic: faulty: boom"},
		{"illegal action", func(rng *rand.Rand) players.Player {
			return &faulty{Player: players.NewRandom(rules, rng), at: 2, how: "illegal"}
		}, "illegal action"},
		{"panic in the factory", func(*rand.Rand) players.Player { panic("no player today") }, "panic: no player today"},
		{"nil player", func(*rand.Rand) players.Player { return nil }, "panic: runtime error: invalid memory address"},
		{"panic in Place", func(rng *rand.Rand) players.Player {
			return placePanic{players.NewRandom(rules, rng)}
		}, "panic: cannot place"},
		{"invalid placement", func(rng *rand.Rand) players.Player {
			return placeTwice{players.NewRandom(rules, rng)}
		}, "invalid placement"},
		{"empty panic in the factory", func(*rand.Rand) players.Player { panic("") }, "panic: (empty panic value)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var logs bytes.Buffer
			fam := &arena.Submarine{Rules: rules,
				P1: arena.SubmarineEntrant{Name: "random", Factory: randomFactory(rules)},
				P2: arena.SubmarineEntrant{Name: "faulty", Factory: tc.make}}
			const n = 30
			m := arena.Match{Family: fam, Games: n, Seed: 1, Replays: t.TempDir(), Workers: 2,
				Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))}
			sum, err := m.Run(context.Background(), nil)
			require.NoError(t, err, "a misbehaving player must not stop the match")
			require.Equal(t, n, sum.Games)
			require.Equal(t, n, sum.P2Forfeits)
			require.Zero(t, sum.P1Forfeits)
			require.Equal(t, n, sum.P1Wins)
			require.Contains(t, logs.String(), tc.want)
			require.Contains(t, logs.String(), "player=faulty")
			for i := range n {
				rp, err := subrecord.ReadFile(filepath.Join(m.Replays, arena.ReplayName(i)))
				require.NoError(t, err)
				require.NoError(t, subrecord.Verify(rp), "game %d", i)
				require.Len(t, rp.Result.Forfeits, 1)
				require.Equal(t, 1-i%2, rp.Result.Forfeits[0].Seat, "p2 sits in seat 1 in even games")
				require.Contains(t, rp.Result.Forfeits[0].Reason, strings.TrimPrefix(tc.want, "illegal action"))
			}
		})
	}
}

type placePanic struct{ players.Player }

func (placePanic) Place() submarine.Placement { panic("cannot place") }

type placeTwice struct{ players.Player }

func (p placeTwice) Place() submarine.Placement {
	pl := p.Player.Place()
	pl[1] = pl[0]
	return pl
}

func TestForfeitLogCap(t *testing.T) {
	rules := submarine.DefaultRules()
	fam := &arena.Submarine{Rules: rules,
		P1: arena.SubmarineEntrant{Name: "a", Factory: func(*rand.Rand) players.Player { panic("a") }},
		P2: arena.SubmarineEntrant{Name: "b", Factory: randomFactory(rules)}}
	var logs bytes.Buffer
	m := arena.Match{Family: fam, Games: 100, Seed: 1,
		Log: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn}))}
	sum, err := m.Run(context.Background(), nil)
	require.NoError(t, err)
	require.Equal(t, 100, sum.P1Forfeits)
	require.Equal(t, 21, strings.Count(logs.String(), "\n"), "20 forfeits and a note, the rest at debug level")
	require.Contains(t, logs.String(), "further forfeits are logged at debug level")
}

// slow is a random player that blocks until released, to cancel a match
// while games are under way.
type slow struct {
	players.Player
	gate <-chan struct{}
}

func (s slow) Act() submarine.Action {
	<-s.gate
	return s.Player.Act()
}

func TestCancel(t *testing.T) {
	rules := submarine.DefaultRules()
	gate := make(chan struct{})
	var once sync.Once
	started := make(chan struct{})
	fam := &arena.Submarine{Rules: rules,
		P1: arena.SubmarineEntrant{Name: "slow", Factory: func(rng *rand.Rand) players.Player {
			once.Do(func() { close(started) })
			return slow{players.NewRandom(rules, rng), gate}
		}},
		P2: arena.SubmarineEntrant{Name: "random", Factory: randomFactory(rules)}}
	ctx, cancel := context.WithCancel(context.Background())
	m := arena.Match{Family: fam, Games: 1000, Seed: 3, Workers: 2}
	done := make(chan struct{})
	var sum arena.Summary
	var err error
	go func() { sum, err = m.Run(ctx, nil); close(done) }()
	<-started
	cancel()
	close(gate) // let the games under way finish
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Run did not return after cancellation")
	}
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, sum.Games, 1000)
	require.Equal(t, sum.Games, sum.P1Wins+sum.P2Wins+sum.Draws)
	require.Contains(t, err.Error(), "stopped after")
}

func TestReplayWriteError(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o644))
	m := arena.Match{Family: randomFamily(), Games: 10, Seed: 1, Replays: file}
	_, err := m.Run(context.Background(), nil)
	require.ErrorContains(t, err, "arena: replays")

	dir := t.TempDir()
	// A directory in the place of game 3's file makes its creation fail.
	require.NoError(t, os.Mkdir(filepath.Join(dir, arena.ReplayName(3)), 0o755))
	m = arena.Match{Family: randomFamily(), Games: 10, Seed: 1, Replays: dir, Workers: 1}
	sum, err := m.Run(context.Background(), nil)
	require.ErrorContains(t, err, "arena: replay")
	require.Equal(t, 3, sum.Games, "games before the failure are counted")
	require.False(t, errors.Is(err, context.Canceled))
}

func TestMatchValidate(t *testing.T) {
	rules := submarine.DefaultRules()
	tests := []struct {
		name string
		m    arena.Match
		want string
	}{
		{"no family", arena.Match{Games: 1}, "no game family"},
		{"no games", arena.Match{Family: randomFamily()}, "0 games"},
		{"negative workers", arena.Match{Family: randomFamily(), Games: 1, Workers: -1}, "-1 workers"},
		{"no factory", arena.Match{Family: &arena.Submarine{Rules: rules}, Games: 1}, "no factory"},
		{"bad rules", arena.Match{Family: &arena.Submarine{Rules: &submarine.Rules{Board: rules.Board}, P1: randomFamily().P1, P2: randomFamily().P2}, Games: 1}, "fleet has 0 ships"},
		{"no rules", arena.Match{Family: &arena.Submarine{}, Games: 1}, "no rules"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.m.Run(context.Background(), nil)
			require.ErrorIs(t, err, arena.ErrMatch)
			require.ErrorContains(t, err, tc.want)
		})
	}
}

func TestExplainRecordsDecisions(t *testing.T) {
	rules := submarine.DefaultRules()
	fam := &arena.Submarine{Rules: rules,
		P1: arena.SubmarineEntrant{Name: "explainer", Factory: func(rng *rand.Rand) players.Player {
			return &explaining{Random: players.NewRandom(rules, rng)}
		}},
		P2: arena.SubmarineEntrant{Name: "random", Factory: randomFactory(rules)}}
	for _, explain := range []bool{false, true} {
		dir := t.TempDir()
		m := arena.Match{Family: fam, Games: 2, Seed: 1, Replays: dir, Explain: explain}
		_, err := m.Run(context.Background(), nil)
		require.NoError(t, err)
		for i := range 2 {
			rp, err := subrecord.ReadFile(filepath.Join(dir, arena.ReplayName(i)))
			require.NoError(t, err)
			for _, st := range rp.Steps {
				p1 := st.Seat == i%2
				if explain && p1 {
					require.NotNil(t, st.Decision)
					require.Equal(t, "random", st.Decision.State)
				} else {
					require.Nil(t, st.Decision)
				}
			}
		}
	}
}

type explaining struct {
	*players.Random
}

func (e *explaining) Explain() explain.Decision {
	return explain.Decision{State: "random", Reason: "coin"}
}

func ExamplePlayGame() {
	rules := submarine.DefaultRules()
	random := func(rng *rand.Rand) players.Player { return players.NewRandom(rules, rng) }
	a, _ := arena.PlayGame(rules, random, random, 1, nil)
	b, _ := arena.PlayGame(rules, random, random, 1, nil)
	fmt.Println("same seed, same game:", a == b)
	fmt.Println("forfeits:", a.Forfeit)
	// Output:
	// same seed, same game: true
	// forfeits: [false false]
}

// TestMatchFirst: a match of games First..First+Games-1 plays exactly those
// games of the whole match — the same replays byte for byte, and tallies
// that add up to the whole match's.
func TestMatchFirst(t *testing.T) {
	n := 30
	run := func(first, games int) (arena.Summary, string) {
		dir := t.TempDir()
		m := arena.Match{Family: randomFamily(), Games: games, First: first, Seed: 3, Workers: 2, Replays: dir}
		sum, err := m.Run(context.Background(), nil)
		require.NoError(t, err)
		return sum, dir
	}
	whole, wdir := run(0, n)
	var p1Wins, seat0 int
	var actions int64
	var lengths []int32
	for _, r := range [][2]int{{0, 11}, {11, 10}, {21, 9}} {
		part, dir := run(r[0], r[1])
		require.Equal(t, r[1], part.Games)
		p1Wins += part.P1Wins
		seat0 += part.Seat0Wins
		actions += part.Actions
		lengths = append(lengths, part.Lengths...)
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		require.Len(t, entries, r[1], "only the shard's games")
		for i := r[0]; i < r[0]+r[1]; i++ {
			a, err := os.ReadFile(filepath.Join(wdir, arena.ReplayName(i)))
			require.NoError(t, err)
			b, err := os.ReadFile(filepath.Join(dir, arena.ReplayName(i)))
			require.NoError(t, err, "game %d is in the part starting at %d", i, r[0])
			require.Equal(t, a, b, "replay of game %d", i)
		}
	}
	require.Equal(t, whole.P1Wins, p1Wins)
	require.Equal(t, whole.Seat0Wins, seat0)
	require.Equal(t, whole.Actions, actions)
	require.Equal(t, whole.P90, arena.Quantile(lengths, 0.9))
	require.ElementsMatch(t, whole.Lengths, lengths)
	require.IsNonDecreasing(t, whole.Lengths, "Summary.Lengths is sorted")

	m := arena.Match{Family: randomFamily(), Games: 1, First: -1}
	require.ErrorIs(t, m.Validate(), arena.ErrMatch)
}
