package admiral

import (
	"bytes"
	"compress/gzip"
	"context"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	kgame "github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

var update = flag.Bool("update", false, "rebuild the opening book (book/opening.gz) from the search")

const openingPath = "book/opening.gz"

// TestOpeningBook checks that the shipped book is the current search's: it
// was built for the default rules and weights, it holds every position, and
// positions searched again now choose what it holds. With -update it
// rebuilds the book instead (about 17 minutes on two free cores).
func TestOpeningBook(t *testing.T) {
	rules := submarine.DefaultRules()
	cfg := DefaultAdmiralConfig()
	if *update {
		workers := runtime.GOMAXPROCS(0)
		b, err := buildOpening(context.Background(), rules, cfg, workers, func(done, total int) {
			if done%5000 == 0 || done == total {
				fmt.Fprintf(os.Stderr, "opening book: %d of %d positions\n", done, total)
			}
		})
		require.NoError(t, err)
		var buf bytes.Buffer
		require.NoError(t, writeOpening(&buf, b))
		require.NoError(t, os.WriteFile(openingPath, buf.Bytes(), 0o644))
		t.Logf("wrote %s: %d positions, %d bytes", openingPath, len(b.keys), buf.Len())
		return
	}
	const rebuild = "the book is stale: rebuild it with go test ./players/admiral -run TestOpeningBook -update -timeout 60m"
	b, err := shippedBook()
	require.NoError(t, err)
	require.Equal(t, openingFingerprint(rules, cfg), b.fingerprint, "the default rules or weights changed; "+rebuild)
	keys := openingKeys(rules)
	require.Equal(t, keys, b.keys, "the book holds every position; "+rebuild)
	// The search, run again on positions drawn at random (both seats),
	// chooses what the book holds.
	sh := newAdmiralShared(rules, cfg)
	sh.opening = nil
	enemy := allPlacements(rules)
	rng := rand.New(rand.NewPCG(29, 1))
	n := 8
	if testing.Short() {
		n = 2
	}
	require.Equal(t, openingSamples, b.samples, rebuild)
	for range n {
		k, j := keys[rng.IntN(len(keys))], rng.IntN(openingSamples)
		got, err := openingSearch(rules, cfg, sh, enemy, k, j)
		require.NoError(t, err)
		require.Equal(t, b.actions(k)[j], got, "position %+v, sample %d: the search now chooses otherwise; %s", k, j, rebuild)
	}
}

// TestOpeningLookup plays the book's action in the positions it covers,
// in our own frame: legal for every placement when we act first and, for
// every fifth placement, after every first enemy attack; and mapped
// through the symmetries (the action of a mirrored position is the
// mirrored action, where the placement is not its own mirror image).
func TestOpeningLookup(t *testing.T) {
	rules := submarine.DefaultRules()
	o := openingFor(rules, DefaultAdmiralConfig())
	require.NotNil(t, o, "the shipped book is for the default rules and weights")
	require.Len(t, o.syms, 8)
	all := allPlacements(rules)
	usable := rules.Board.Usable().Cells()
	_, ok := o.lookup(all[0], grid.None, openingSamples)
	require.False(t, ok, "no sample past the last")
	for i, pl := range all {
		me := submarine.NewFleet(rules, pl)
		j := i % openingSamples
		act, ok := o.lookup(pl, grid.None, j)
		require.True(t, ok)
		require.NoError(t, rules.CheckAction(&me, act), "placement %v", pl)
		if !fixed(o.syms, pl) {
			for _, s := range o.syms[1:] {
				img := make([]grid.Cell, len(pl))
				for k, c := range pl {
					img[k] = s[c]
				}
				want := act
				want.To = s[act.To]
				got, ok := o.lookup(img, grid.None, j)
				require.True(t, ok)
				require.Equal(t, want, got, "placement %v under a symmetry", pl)
			}
		}
		if i%5 != 0 {
			continue
		}
		for _, at := range usable {
			after := afterAttack(t, rules, all, pl, at)
			for j := range openingSamples {
				act, ok := o.lookup(pl, at, j)
				require.True(t, ok)
				require.NoError(t, rules.CheckAction(&after, act), "placement %v, attack on %v", pl, at)
			}
		}
	}
}

// afterAttack is our fleet pl after an enemy attack on at.
func afterAttack(t *testing.T, rules *submarine.Rules, all [][]grid.Cell, pl []grid.Cell, at grid.Cell) submarine.Fleet {
	t.Helper()
	for _, e := range all {
		if rules.Board.Around(at).Has(e[0]) {
			g, err := submarine.NewGame(rules, e, pl, 0)
			require.NoError(t, err)
			_, err = g.Apply(submarine.AttackAt(at))
			require.NoError(t, err)
			return g.Fleet(1)
		}
	}
	t.Fatalf("no fleet attacks %v", at)
	return submarine.Fleet{}
}

// fixed reports whether some symmetry other than the identity maps the
// placement onto itself (its canonical frame is then not unique).
func fixed(syms [][]grid.Cell, pl []grid.Cell) bool {
	for _, s := range syms[1:] {
		same := true
		for _, c := range pl {
			if s[c] != c {
				same = false
				break
			}
		}
		if same {
			return true
		}
	}
	return false
}

// TestOpeningApplies checks when the book is read: only for the default
// rules and weights with the switch on, only for the first decision, and
// the explanation says so.
func TestOpeningApplies(t *testing.T) {
	rules := submarine.DefaultRules()
	cfg := DefaultAdmiralConfig()
	require.NotNil(t, openingFor(rules, cfg))
	off := cfg
	off.Search.Opening = false
	require.Nil(t, openingFor(rules, off))
	tuned := cfg
	tuned.Value.Leak += 0.01
	require.Nil(t, openingFor(rules, tuned), "other weights search")
	short := *rules
	short.DrawLimit = 2000
	require.Nil(t, openingFor(&short, cfg), "other rules search")

	// firstStates plays a game of admiral in seat against a random player
	// of seed opp and returns the states of admiral's first three
	// decisions and whether the enemy opened with an attack.
	firstStates := func(t *testing.T, seat int, opp uint64) ([]string, bool) {
		sh := newAdmiralShared(rules, cfg)
		adm := newAdmiral(rules, cfg, rand.New(rand.NewPCG(uint64(seat), 5)), sh)
		rnd := players.NewRandom(rules, rand.New(rand.NewPCG(opp, 9)))
		ps := [2]players.Player{adm, rnd}
		if seat == 1 {
			ps = [2]players.Player{rnd, adm}
		}
		g, err := submarine.NewGame(rules, ps[0].Place(), ps[1].Place(), 0)
		require.NoError(t, err)
		var states []string
		for len(states) < 3 && g.Status() == kgame.Running {
			turn := g.ToAct()
			act := ps[turn].Act()
			if turn == seat {
				states = append(states, adm.Explain().State)
			}
			st, err := g.Apply(act)
			require.NoError(t, err)
			va, vo := g.View(turn), g.View(1-turn)
			ps[turn].Observe(st.Actor, &va)
			ps[1-turn].Observe(st.Other, &vo)
		}
		require.Len(t, states, 3)
		return states, adm.firstAttack != grid.None
	}
	t.Run("seat 0", func(t *testing.T) {
		states, _ := firstStates(t, 0, 9)
		require.Equal(t, "opening", states[0])
		for _, s := range states[1:] {
			require.NotEqual(t, "opening", s, "only the first decision")
		}
	})
	t.Run("seat 1", func(t *testing.T) {
		// The book answers an opening attack; an opening move is searched.
		seen := map[bool]bool{}
		for opp := range uint64(40) {
			states, attacked := firstStates(t, 1, opp)
			seen[attacked] = true
			want := "opening"
			if !attacked {
				want = states[0]
				require.NotEqual(t, "opening", want, "opponent %d opened with a move", opp)
			}
			require.Equal(t, want, states[0], "opponent %d", opp)
			for _, s := range states[1:] {
				require.NotEqual(t, "opening", s, "opponent %d: only the first decision", opp)
			}
		}
		require.True(t, seen[true] && seen[false], "random opponents 0-39 open with both attacks and moves")
	})
}

func TestOpeningFileRoundTrip(t *testing.T) {
	moves := map[openingKey][]submarine.Action{
		{fleet: 0x020100, at: -1}: {submarine.AttackAt(6), submarine.AttackAt(7)},
		{fleet: 0x020100, at: 24}: {{Kind: submarine.Move, Ship: 2, To: 7}, submarine.AttackAt(1)},
		{fleet: 0x100203, at: 0}:  {submarine.AttackAt(0), submarine.AttackAt(0)},
	}
	b := &openingBook{fingerprint: "abc", samples: 2}
	for k := range moves {
		b.keys = append(b.keys, k)
	}
	slices.SortFunc(b.keys, openingKey.compare)
	for _, k := range b.keys {
		for _, act := range moves[k] {
			b.acts = appendBookAction(b.acts, act)
		}
	}
	var buf bytes.Buffer
	require.NoError(t, writeOpening(&buf, b))
	got, err := readOpening(bytes.NewReader(buf.Bytes()))
	require.NoError(t, err)
	require.Equal(t, "abc", got.fingerprint)
	require.Equal(t, 2, got.samples)
	require.Equal(t, b.keys, got.keys)
	for k, acts := range moves {
		require.Equal(t, acts, got.actions(k), "position %+v", k)
	}
	require.Nil(t, got.actions(openingKey{fleet: 1, at: -1}))

	data := buf.Bytes()
	const v0, v1 = "kaisen admiral opening book v0\n", openingMagic
	got, err = readOpening(bytes.NewReader(gz(t, v1+"abc\n\x01\x01\x05\x00\x02\x01\x01")))
	require.NoError(t, err, "the smallest book: one position, one sample")
	require.Equal(t, []submarine.Action{{Kind: submarine.Move, Ship: 0, To: 1}}, got.actions(openingKey{fleet: 5, at: -1}))
	tests := []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"not gzip", []byte("kaisen admiral opening book v1\n")},
		{"truncated", data[:len(data)-4]},
		{"other format", gz(t, v0+"abc\n\x01\x00")},
		{"no fingerprint", gz(t, v1)},
		{"no samples", gz(t, v1+"abc\n\x00\x00")},
		{"too many samples", gz(t, v1+"abc\n\x41\x00")},
		{"count too large", gz(t, v1+"abc\n\x01\xff\xff\xff\xff\x0f")},
		{"short position", gz(t, v1+"abc\n\x01\x01\x05\x00\x01")},
		{"short samples", gz(t, v1+"abc\n\x02\x01\x05\x00\x01\x00\x01")},
		{"bad kind", gz(t, v1+"abc\n\x01\x01\x05\x00\x07\x00\x01")},
		{"attack with a ship", gz(t, v1+"abc\n\x01\x01\x05\x00\x01\x02\x01")},
		{"move without a ship", gz(t, v1+"abc\n\x01\x01\x05\x00\x02\x00\x01")},
		{"out of order", gz(t, v1+"abc\n\x01\x02\x05\x00\x01\x00\x01\x04\x00\x01\x00\x01")},
		{"trailing bytes", gz(t, v1+"abc\n\x01\x01\x05\x00\x01\x00\x01\x00")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := readOpening(bytes.NewReader(tt.data))
			require.ErrorIs(t, err, errOpening)
		})
	}
}

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	_, err := zw.Write([]byte(s))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	return buf.Bytes()
}

// FuzzReadOpening feeds readOpening arbitrary gzip payloads: it returns a
// book or errOpening, never panics, and a book it returns writes back to
// one it reads the same.
func FuzzReadOpening(f *testing.F) {
	f.Add([]byte(openingMagic + "abc\n\x01\x01\x05\x00\x01\x00\x01"))
	f.Add([]byte(openingMagic + "abc\n\x02\x01\x05\x19\x01\x00\x01\x02\x01\x07"))
	f.Add([]byte(openingMagic + "abc\n\x01\x00"))
	f.Add([]byte(openingMagic + "\n"))
	f.Fuzz(func(t *testing.T, payload []byte) {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		_, _ = zw.Write(payload)
		require.NoError(t, zw.Close())
		b, err := readOpening(bytes.NewReader(buf.Bytes()))
		if err != nil {
			require.ErrorIs(t, err, errOpening)
			return
		}
		var out bytes.Buffer
		require.NoError(t, writeOpening(&out, b))
		again, err := readOpening(bytes.NewReader(out.Bytes()))
		require.NoError(t, err)
		require.Equal(t, b.fingerprint, again.fingerprint)
		require.Equal(t, b.keys, again.keys)
		require.Equal(t, b.acts, again.acts)
	})
}

// BenchmarkReadOpening decodes the shipped book (once per process, on the
// first Admiral of the default weights).
func BenchmarkReadOpening(b *testing.B) {
	for b.Loop() {
		if _, err := readOpening(bytes.NewReader(shippedOpeningData)); err != nil {
			b.Fatal(err)
		}
	}
}
