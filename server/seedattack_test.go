package server

import (
	"bufio"
	"fmt"
	"io"
	"io/fs"
	"math"
	"math/bits"
	"math/rand/v2"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/players"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/replay"
)

// The seed-recovery attack of issue 25 (defect 1), kept as a test. Before,
// a server seed S gave the pairing stream rand.NewPCG(S, idx<<48|seq), game
// k's seed was its k-th Uint64, and the house AI of seat i played from
// rand.NewPCG(gameSeed, i). PCG's state update is affine in its high word
// for a fixed low word, and DXSM's output is invertible once the low word
// is known, so one published game seed gave S back exactly, and with it
// every later game. The tests below show the attack working against that
// derivation, and failing against the running server.

// pcgDXSMMul is the multiplier of DXSM's output ("cheapMul" in
// $GOROOT/src/math/rand/v2/pcg.go).
const pcgDXSMMul = 0xda942042e4dd58b5

// pcgState is the state (hi, lo) of rand.NewPCG(seed1, seed2) after k
// outputs, as the standard library computes it (read back with
// MarshalBinary: "pcg:", hi, lo big-endian).
func pcgState(seed1, seed2 uint64, k int) (hi, lo uint64) {
	p := rand.NewPCG(seed1, seed2)
	for range k {
		p.Uint64()
	}
	b, err := p.MarshalBinary()
	if err != nil || len(b) != 20 {
		panic(fmt.Sprintf("pcg state: %v", err))
	}
	return beUint64(b[4:12]), beUint64(b[12:20])
}

func beUint64(b []byte) uint64 {
	var v uint64
	for _, c := range b[:8] {
		v = v<<8 | uint64(c)
	}
	return v
}

// inverse is a's inverse modulo 2^64 (a odd), by Newton's iteration: each
// step doubles the correct low bits (3 from x = a).
func inverse(a uint64) uint64 {
	x := a
	for range 5 {
		x *= 2 - a*x
	}
	return x
}

// pcgSeed1 inverts PCG-DXSM: the seed1 of the rand.NewPCG(seed1, seed2)
// whose k-th Uint64 (k >= 1) is out. It is exact and unique: with seed2
// known, the low word of the state after k steps is known and the high
// word is hi_k = seed1*c_k + d_k (mod 2^64) with c_k odd; DXSM's output is
// dxsm(hi_k) * (lo_k|1), whose every step (xorshift by 48 and by 32,
// multiplication by an odd number) can be undone.
func pcgSeed1(out, seed2 uint64, k int) uint64 {
	d, lo := pcgState(0, seed2, k)
	one, _ := pcgState(1, seed2, k)
	c := one - d // the coefficient of seed1 in hi_k: mulLo^k, odd
	x := out * inverse(lo|1)
	x ^= x >> 48
	x *= inverse(pcgDXSMMul)
	x ^= x >> 32 // hi_k
	return (x - d) * inverse(c)
}

// oldGameSeed is the seed of game k of the seq-th pairing of listener idx
// as the server derived it before issue 25.
func oldGameSeed(serverSeed uint64, idx int, seq uint64, k int) uint64 {
	r := rand.New(rand.NewPCG(serverSeed, uint64(idx)<<48|seq))
	var s uint64
	for range k {
		s = r.Uint64()
	}
	return s
}

// houseFleet is a house AI's fleet as cell numbers, so that fleets of both
// games compare alike.
type houseFleet func(gameSeed uint64, seat int) string

func subHouse(f game.Factory[submarine.Placement, submarine.Action, submarine.Told]) houseFleet {
	return func(seed uint64, seat int) string {
		return fmt.Sprint(f(rand.New(rand.NewPCG(seed, uint64(seat))), seat).Place())
	}
}

func bsHouse(f bsplayers.Factory) houseFleet {
	return func(seed uint64, seat int) string {
		return fmt.Sprint(f(rand.New(rand.NewPCG(seed, uint64(seat)))).Place())
	}
}

func TestPCGSeed1InvertsEveryOutput(t *testing.T) {
	rng := rand.New(rand.NewPCG(25, 1))
	for range 2000 {
		seed1, seed2, k := rng.Uint64(), rng.Uint64(), 1+rng.IntN(8)
		r := rand.NewPCG(seed1, seed2)
		var out uint64
		for range k {
			out = r.Uint64()
		}
		require.Equal(t, seed1, pcgSeed1(out, seed2, k), "seed1 %#x seed2 %#x k %d", seed1, seed2, k)
	}
}

// TestSeedAttackBreaksOldDerivation: from one published game seed of the
// old derivation, the attack recovers the server seed (53 bits as kaisen
// serve drew it, or 64 as server.New did) and predicts the next pairing's
// house fleet exactly, for a submarine and a battleship house AI, from any
// game of a series.
func TestSeedAttackBreaksOldDerivation(t *testing.T) {
	subRules, bsRules := submarine.DefaultRules(), battleship.DefaultRules()
	sp2, err := players.New("stateplayer2", subRules, nil)
	require.NoError(t, err)
	grid, err := bsplayers.New("gridbot", bsRules, nil)
	require.NoError(t, err)
	tests := []struct {
		name  string
		bits  int // width of the server seed
		games int // games per pairing (the published one is any of them)
		house houseFleet
	}{
		{"stateplayer2, 53-bit seed", 53, 1, subHouse(players.Adapt(sp2))},
		{"stateplayer2, 64-bit seed, series", 64, 3, subHouse(players.Adapt(sp2))},
		{"gridbot, 64-bit seed", 64, 1, bsHouse(grid)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(tt.bits), uint64(tt.games)))
			const trials = 20
			hits := 0
			for range trials {
				server := rng.Uint64()>>(64-tt.bits) | 1
				idx, seq, k := rng.IntN(3), 1+rng.Uint64N(1000), 1+rng.IntN(tt.games)
				published := oldGameSeed(server, idx, seq, k)

				recovered := pcgSeed1(published, uint64(idx)<<48|seq, k)
				require.Equal(t, server, recovered)
				predicted := tt.house(oldGameSeed(recovered, idx, seq+1, 1), 1)
				actual := tt.house(oldGameSeed(server, idx, seq+1, 1), 1)
				if predicted == actual {
					hits++
				}
			}
			require.Equal(t, trials, hits, "the next house fleet, predicted exactly every time")
		})
	}
}

// attackCase is a listener to attack.
type attackCase struct {
	name     string
	game     string
	opponent string
	games    int    // per pairing
	seed     uint64 // Config.Seed (0: a drawn key)
	samples  int    // house fleets drawn to measure the chance of a match
}

// TestSeedAttackFailsOnServer plays games against the house AI of a
// running server, losing each at once, and after each game reads
// everything a client (or anyone on the machine) can read: the lines it
// received, the result log, every replay and every log line. The attack
// then tries every number read as a published seed of the old derivation,
// at every pairing and game position, and predicts the next game's seed
// and house fleet. It must never predict the seed, its predicted seeds
// must differ from the real ones in half their bits on average, and its
// predicted fleets must match no more often than two independent fleets
// of that house AI do. Every game's house fleet is still the one its
// recorded seed gives.
func TestSeedAttackFailsOnServer(t *testing.T) {
	tests := []attackCase{
		{"submarine stateplayer2, drawn key", GameSubmarine, "stateplayer2", 1, 0, 400},
		{"submarine admiral-series in a series, drawn key", GameSubmarine, "admiral-series", 3, 0, 100},
		{"battleship gridbot, configured seed", GameBattleship, "gridbot", 1, 1, 100},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkLeaks(t)
			attackServer(t, tt)
		})
	}
}

// knowledge is what a client can read after a game: the game's published
// seed and house fleet, and every number in every file and line.
type knowledge struct {
	seed    uint64
	fleet   string
	numbers map[uint64]bool
}

func attackServer(t *testing.T, tt attackCase) {
	cfg := testConfig(t)
	cfg.Seed = tt.seed
	l := &cfg.Listeners[0]
	l.Game, l.Opponent, l.Games, l.First = tt.game, tt.opponent, tt.games, FirstConnected
	cfg.Limits.ActionTimeout = 5 * time.Second
	ts := startServer(t, cfg)
	st := ts.setups[0]
	var house houseFleet
	if tt.game == GameBattleship {
		f, err := bsplayers.New(tt.opponent, battleship.DefaultRules(), nil)
		require.NoError(t, err)
		house = bsHouse(f)
	} else {
		house = subHouse(subServed(t, st).house)
	}
	const games = 12
	var wire []string
	var seen []knowledge
	for len(seen) < games {
		lines, err := loseAtOnce(ts.addr(0), tt.game, tt.games, func(lines []string) {
			seen = append(seen, readAll(t, ts, len(seen)+1, append(wire, lines...)))
		})
		require.NoError(t, err)
		wire = append(wire, lines...)
	}

	for i, kn := range seen {
		require.Equal(t, house(kn.seed, 1), kn.fleet, "game %d: the house fleet is the one its recorded seed gives", i+1)
	}
	fleetHits, seedHits, distance := 0, 0, 0
	for i := range len(seen) - 1 {
		kn, next := seen[i], seen[i+1]
		// The positions of game i and of the next one, as the attacker
		// knows them from the ids and rounds.
		seq, k := uint64(i/tt.games+1), i%tt.games+1
		nseq, nk := uint64((i+1)/tt.games+1), (i+1)%tt.games+1

		// The published seed, at its own position.
		predicted := oldGameSeed(pcgSeed1(kn.seed, seq, k), 0, nseq, nk)
		distance += bits.OnesCount64(predicted ^ next.seed)
		if house(predicted, 1) == next.fleet {
			fleetHits++
		}
		// Every number read, at every position so far.
		for c := range kn.numbers {
			if c == next.seed {
				t.Errorf("game %d's seed readable after game %d", i+2, i+1)
			}
			for s := uint64(1); s <= seq; s++ {
				for g := 1; g <= tt.games; g++ {
					if oldGameSeed(pcgSeed1(c, s, g), 0, nseq, nk) == next.seed {
						seedHits++
					}
				}
			}
		}
	}
	n := len(seen) - 1
	mean := float64(distance) / float64(n)
	t.Logf("%d predictions: %.1f of 64 bits wrong on average, %d fleets right, %d seeds right from any number read", n, mean, fleetHits, seedHits)
	assert.Zero(t, seedHits, "no number read predicts the next game's seed")
	// 32 +- 4/sqrt(n) bits: 24..40 is over 6 standard deviations wide.
	assert.InDelta(t, 32, mean, 8, "predicted seeds as far from the real ones as random ones")
	p := collisionChance(house, tt.samples)
	bound := binomialBound(n, math.Max(p, 3/float64(tt.samples)), 1e-6) // 3/samples: an estimate of 0 is not a proof of 0
	t.Logf("two independent house fleets are equal with probability %.4f (%d fleets): at most %d of %d by chance", p, tt.samples, bound, n)
	assert.LessOrEqual(t, fleetHits, bound, "the predicted fleet matches no more often than chance")

	// Result log and replays are the server user's only.
	for _, path := range append([]string{cfg.ResultLog}, globReplays(t, cfg.ReplayDir)...) {
		fi, err := os.Stat(path)
		require.NoError(t, err)
		require.Equal(t, fs.FileMode(0o600), fi.Mode().Perm(), path)
	}
	if tt.seed != 0 {
		require.NotContains(t, ts.logs.String(), fmt.Sprintf(`"seed":%d,`, tt.seed), "the configured seed is never logged")
	}
}

var numberRE = regexp.MustCompile(`\d+`)

// readAll waits for game n's result and returns what a client can read
// then: the lines it received (wire), the result log, the replays and the
// server's log, every number in them, and game n's seed and house fleet.
func readAll(t *testing.T, ts *testServer, n int, wire []string) knowledge {
	t.Helper()
	rs := ts.waitResults(t, n)
	r := rs[n-1]
	texts := append([]string{ts.logs.String()}, wire...)
	b, err := os.ReadFile(ts.cfg.ResultLog)
	require.NoError(t, err)
	texts = append(texts, string(b))
	for _, path := range globReplays(t, ts.cfg.ReplayDir) {
		b, err := os.ReadFile(path)
		require.NoError(t, err)
		texts = append(texts, string(b))
	}
	kn := knowledge{seed: r.Seed, numbers: map[uint64]bool{}}
	for _, s := range texts {
		for _, m := range numberRE.FindAllString(s, -1) {
			if v, err := strconv.ParseUint(m, 10, 64); err == nil {
				kn.numbers[v] = true
			}
		}
	}
	require.True(t, kn.numbers[r.Seed], "the game's seed is published")
	path := filepath.Join(ts.cfg.ReplayDir, r.Replay)
	if game, err := replay.GameOfFile(path); err == nil && game == bsrecord.Name {
		rp, err := bsrecord.ReadFile(path)
		require.NoError(t, err)
		rules, err := rp.Rules()
		require.NoError(t, err)
		p, err := rp.Placement(rules, 1)
		require.NoError(t, err)
		kn.fleet = fmt.Sprint(p)
	} else {
		rp, err := subrecord.ReadFile(path)
		require.NoError(t, err)
		rules, err := rp.Rules()
		require.NoError(t, err)
		kn.fleet = fmt.Sprint(rp.Placement(rules, 1))
	}
	return kn
}

func globReplays(t *testing.T, dir string) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	require.NoError(t, err)
	return paths
}

// loseAtOnce plays one pairing of rounds games against the house AI and
// loses each game at once: a submarine client places its fleet and makes
// an illegal move (which loses only the game), a battleship client sends
// touching ships. After each game's end line it calls ended with the lines
// received so far, then goes on. It returns every line it received.
func loseAtOnce(addr, game string, rounds int, ended func(lines []string)) ([]string, error) {
	c, err := net.Dial("tcp", addr)
	if err != nil {
		return nil, err
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	br := bufio.NewReader(c)
	var lines []string
	read := func() (string, error) {
		s, err := br.ReadString('\n')
		if err != nil {
			return "", fmt.Errorf("after %q: %w", lines, err)
		}
		s = strings.TrimSuffix(s, "\n")
		lines = append(lines, s)
		return s, nil
	}
	until := func(want ...string) error {
		for {
			s, err := read()
			if err != nil {
				return err
			}
			for _, w := range want {
				if strings.HasPrefix(s, w) { // a series' last: "you lose.", then the tally
					return nil
				}
			}
		}
	}
	for round := 1; round <= rounds; round++ {
		if _, err := read(); err != nil { // the greeting
			return lines, err
		}
		if game == GameBattleship {
			if _, err := io.WriteString(c, bsTouchingFleet+"\n"); err != nil {
				return lines, err
			}
		} else {
			if _, err := io.WriteString(c, p1Place+"\n"); err != nil {
				return lines, err
			}
			if err := until("your turn"); err != nil {
				return lines, err
			}
			if _, err := io.WriteString(c, `{"move":{"ship":"w","to":[0,5]}}`+"\n"); err != nil {
				return lines, err
			}
		}
		if err := until("you lose", "you win", "even"); err != nil {
			return lines, err
		}
		ended(lines)
	}
	rest, err := io.ReadAll(br) // a series' tally, then EOF
	if err != nil {
		return lines, fmt.Errorf("after the last game: %w", err)
	}
	return append(lines, strings.Split(string(rest), "\n")...), nil
}

// collisionChance estimates the probability that two house fleets from
// independent seeds are equal: the sum of the squared frequencies of n
// fleets drawn from a fixed, unrelated stream.
func collisionChance(house houseFleet, n int) float64 {
	rng := rand.New(rand.NewPCG(0x5eed, 0xa77ac4))
	counts := map[string]int{}
	for range n {
		counts[house(rng.Uint64(), 1)]++
	}
	var p float64
	for _, c := range counts {
		p += float64(c) * float64(c-1) / (float64(n) * float64(n-1))
	}
	return p
}

// binomialBound is the smallest b with P(X > b) < alpha for X ~
// Binomial(n, p).
func binomialBound(n int, p, alpha float64) int {
	tail := 1.0 // P(X > b-1) = P(X >= b)
	for b := 0; b <= n; b++ {
		tail -= binom(n, b, p)
		if tail < alpha {
			return b
		}
	}
	return n
}

func binom(n, k int, p float64) float64 {
	lg := func(x int) float64 { v, _ := math.Lgamma(float64(x + 1)); return v }
	return math.Exp(lg(n) - lg(k) - lg(n-k) + float64(k)*math.Log(p) + float64(n-k)*math.Log1p(-p))
}
