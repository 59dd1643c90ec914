package replay_test

import (
	"bytes"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/players"
)

// script is a player that places and acts as told. When its actions run out
// it returns an invalid action (and forfeits).
type script struct {
	place   submarine.Placement
	actions []submarine.Action
	i       int
	panicAt int // panic on this Act call (from 1); 0 = never
}

func (s *script) Place() submarine.Placement { return s.place }

func (s *script) Act() submarine.Action {
	s.i++
	if s.i == s.panicAt {
		panic("script: told to panic")
	}
	if s.i > len(s.actions) {
		return submarine.Action{Kind: submarine.Invalid}
	}
	return s.actions[s.i-1]
}

func (s *script) Observe(submarine.Event, *submarine.View) {}

// explainer adds Explain to a script.
type explainer struct{ *script }

func (e explainer) Explain() explain.Decision {
	return explain.Decision{State: "scripted", Reason: "step " + string(rune('0'+e.i)),
		Candidates: []explain.Candidate{{Action: "whatever", Score: 0.5}}}
}

func factory(p players.Player) players.Factory {
	return func(*rand.Rand) players.Player { return p }
}

func randomFactory(rules *submarine.Rules) players.Factory {
	return func(rng *rand.Rand) players.Player { return players.NewRandom(rules, rng) }
}

// roundedRules is a 6x5 board with rounded corners and a rock at [3,2].
func roundedRules(t testing.TB) *submarine.Rules {
	b, err := grid.Rounded(6, 5)
	require.NoError(t, err)
	b, err = grid.NewBoard(6, 5, append(b.Rocks(), 2*6+3))
	require.NoError(t, err)
	return &submarine.Rules{Board: b, Fleet: submarine.DefaultFleet(), DrawLimit: 100}
}

func at(r *submarine.Rules, x, y int) grid.Cell {
	c, ok := r.Board.At(x, y)
	if !ok {
		panic("off board")
	}
	return c
}

// scriptedGame plays a short hand-written game on roundedRules: a hit with a
// splash, a move, a sinking, a ship moving onto an enemy's cell, a miss with
// a splash, and an attack on a rock that forfeits seat 0.
func scriptedGame(t testing.TB, explain bool) []byte {
	r := roundedRules(t)
	p0 := &script{
		place: submarine.Placement{at(r, 1, 1), at(r, 2, 3), at(r, 4, 0)},
		actions: []submarine.Action{
			submarine.AttackAt(at(r, 1, 2)),
			submarine.AttackAt(at(r, 0, 1)),
			submarine.MoveTo(1, at(r, 4, 3)),
			submarine.AttackAt(at(r, 3, 2)), // a rock
		},
	}
	p1 := &script{
		place: submarine.Placement{at(r, 1, 2), at(r, 4, 3), at(r, 0, 1)},
		actions: []submarine.Action{
			submarine.MoveTo(0, at(r, 1, 4)),
			submarine.AttackAt(at(r, 2, 3)),
			submarine.AttackAt(at(r, 4, 4)),
		},
	}
	var f0, f1 players.Factory = factory(p0), factory(p1)
	if explain {
		f0 = factory(explainer{p0})
	}
	var buf bytes.Buffer
	_, err := arena.PlayGame(r, f0, f1, 99, &arena.GameOptions{
		Names: [2]string{"alice", "bob"}, Replay: &buf, Explain: explain,
	})
	require.NoError(t, err)
	return pinVersion(t, buf.Bytes())
}

// pinVersion rewrites the header's version so fixtures do not depend on the
// build.
func pinVersion(t testing.TB, data []byte) []byte {
	return rewrite(t, data, subrecord.Read, func(rp *subrecord.Replay) { rp.Header.Version = "test" })
}

// rewrite reads a replay from data with read, changes it with edit and
// writes it back.
func rewrite[R io.WriterTo](t testing.TB, data []byte, read func(io.Reader) (R, error), edit func(R)) []byte {
	rp, err := read(bytes.NewReader(data))
	require.NoError(t, err)
	edit(rp)
	var out bytes.Buffer
	_, err = rp.WriteTo(&out)
	require.NoError(t, err)
	return out.Bytes()
}

// randomGame records a random-vs-random game of the default rules.
func randomGame(t testing.TB, seed uint64) []byte {
	r := submarine.DefaultRules()
	var buf bytes.Buffer
	_, err := arena.PlayGame(r, randomFactory(r), randomFactory(r), seed, &arena.GameOptions{
		Names: [2]string{"random", "random"}, Replay: &buf,
	})
	require.NoError(t, err)
	return buf.Bytes()
}

func arenaPlay(r *submarine.Rules, p0, p1 players.Player, buf *bytes.Buffer) (arena.GameResult, error) {
	return arena.PlayGame(r, factory(p0), factory(p1), 5, &arena.GameOptions{Names: [2]string{"p0", "p1"}, Replay: buf})
}

// shortRandomGame is the first random-vs-random game (seeds 1, 2, ...) that
// ends within 30 actions, to keep its golden file short.
func shortRandomGame(t testing.TB) []byte {
	r := submarine.DefaultRules()
	for seed := uint64(1); ; seed++ {
		res, err := arena.PlayGame(r, randomFactory(r), randomFactory(r), seed, nil)
		require.NoError(t, err)
		if res.Actions <= 30 {
			return randomGame(t, seed)
		}
	}
}

// panicking wraps a random player and panics on its third action.
type panicking struct {
	players.Player
	n int
}

func (p *panicking) Act() submarine.Action {
	p.n++
	if p.n == 3 {
		var none []int
		_ = none[p.n] // a real runtime panic: index out of range
	}
	return p.Player.Act()
}

func panicGame(t testing.TB) []byte {
	r := submarine.DefaultRules()
	var buf bytes.Buffer
	pf := func(rng *rand.Rand) players.Player { return &panicking{Player: players.NewRandom(r, rng)} }
	_, err := arena.PlayGame(r, randomFactory(r), pf, 3, &arena.GameOptions{Names: [2]string{"random", "crasher"}, Replay: &buf})
	require.NoError(t, err)
	return buf.Bytes()
}
