package arena_test

import (
	"context"
	"io"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

func randomFactory(rules *submarine.Rules) players.Factory {
	return func(rng *rand.Rand) players.Player { return players.NewRandom(rules, rng) }
}

func randomFamily() *arena.Submarine {
	rules := submarine.DefaultRules()
	return &arena.Submarine{Rules: rules,
		P1: arena.SubmarineEntrant{Name: "random", Factory: randomFactory(rules)},
		P2: arena.SubmarineEntrant{Name: "random", Factory: randomFactory(rules)}}
}

// BenchmarkRandomVsRandom is one random-vs-random game per op on one
// goroutine, through a reused Table (as a match worker plays them).
func BenchmarkRandomVsRandom(b *testing.B) { benchTable(b, randomFamily(), 1) }

// BenchmarkStatePlayer2VsRandom is one stateplayer2-vs-random game per op
// in the same way (kaisen match's in-process games, the speed goal of
// issue 26).
func BenchmarkStatePlayer2VsRandom(b *testing.B) {
	rules := submarine.DefaultRules()
	sp2, err := players.New("stateplayer2", rules, nil)
	if err != nil {
		b.Fatal(err)
	}
	benchTable(b, &arena.Submarine{Rules: rules,
		P1: arena.SubmarineEntrant{Name: "stateplayer2", Factory: sp2},
		P2: arena.SubmarineEntrant{Name: "random", Factory: randomFactory(rules)}}, 7)
}

// benchTable plays one game of fam per op through a reused Table, seats
// alternating, the match seeded with seed.
func benchTable(b *testing.B, fam arena.Family, seed uint64) {
	t := fam.NewTable(nil)
	actions := 0
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		r, err := t.Play(arena.Deal{Index: i, Seed: arena.GameSeed(seed, i), P1Seat: i % 2})
		if err != nil {
			b.Fatal(err)
		}
		actions += r.Actions
		i++
	}
	b.ReportMetric(float64(actions)/float64(i), "actions/game")
	b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
	b.ReportMetric(float64(i)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkPlayGame is PlayGame (a fresh table per game, as tournaments use it).
func BenchmarkPlayGame(b *testing.B) {
	rules := submarine.DefaultRules()
	f := randomFactory(rules)
	b.ReportAllocs()
	var seed uint64
	for b.Loop() {
		if _, err := arena.PlayGame(rules, f, f, seed, nil); err != nil {
			b.Fatal(err)
		}
		seed++
	}
}

// BenchmarkPlayGameReplay is PlayGame writing its replay (to io.Discard).
func BenchmarkPlayGameReplay(b *testing.B) {
	rules := submarine.DefaultRules()
	f := randomFactory(rules)
	b.ReportAllocs()
	var seed uint64
	for b.Loop() {
		if _, err := arena.PlayGame(rules, f, f, seed, &arena.GameOptions{Replay: io.Discard}); err != nil {
			b.Fatal(err)
		}
		seed++
	}
}

// BenchmarkMatch is a whole match on every CPU, games per op.
func BenchmarkMatch(b *testing.B) {
	fam := randomFamily()
	const games = 2000
	b.ReportAllocs()
	for b.Loop() {
		m := arena.Match{Family: fam, Games: games, Seed: 7, Workers: runtime.GOMAXPROCS(0)}
		if _, err := m.Run(context.Background(), nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*games)/b.Elapsed().Seconds(), "games/s")
}
