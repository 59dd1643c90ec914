package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"github.com/stretchr/testify/require"
	"math/rand/v2"
	"testing"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

func encodeSlow(t *testing.T, r *submarine.Rules, n int, st *submarine.Step, illegal error, d *explain.Decision) string {
	var buf bytes.Buffer
	require.NoError(t, json.NewEncoder(&buf).Encode(slowStep(r, n, st, illegal, d)))
	return buf.String()
}

// TestStepEncoderMatchesJSON holds the fast step encoder to encoding/json's
// output, on whole random games and on odd steps.
func TestStepEncoderMatchesJSON(t *testing.T) {
	r := submarine.DefaultRules()
	enc := newStepEncoder(r)
	check := func(n int, st *submarine.Step, illegal error, d *explain.Decision) {
		got, err := enc.appendStep(nil, n, st, illegal, d)
		require.NoError(t, err)
		require.Equal(t, encodeSlow(t, r, n, st, illegal, d), string(got))
	}
	for seed := range uint64(30) {
		rng := rand.New(rand.NewPCG(seed, 1))
		p := [2]*players.Random{players.NewRandom(r, rng), players.NewRandom(r, rng)}
		g, err := submarine.NewGame(r, p[0].Place(), p[1].Place(), 0)
		require.NoError(t, err)
		for n := 1; g.Status() == game.Running; n++ {
			s := g.ToAct()
			st, err := g.Apply(p[s].Act())
			check(n, &st, err, nil)
			v := g.View(s)
			p[s].Observe(st.Actor, &v)
			v = g.View(1 - s)
			p[1-s].Observe(st.Other, &v)
		}
	}
	odd := []submarine.Step{
		{Seat: 1, Action: submarine.MoveTo(9, -3),
			Actor: submarine.Event{Mine: true, Kind: submarine.Move, Illegal: true, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None},
			Other: submarine.Event{Kind: submarine.Move, Illegal: true, At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}},
		{Action: submarine.Action{Kind: 9, Ship: 1, To: 4},
			Actor: submarine.Event{Kind: 9, Illegal: true, At: grid.None, Hit: 7, Ship: 12, To: grid.None, Near: 0xF0},
			Other: submarine.Event{Kind: submarine.Attack, At: 1000, Hit: 2, Sunk: true, Near: 0xFF, Ship: submarine.NoShip, To: -7, DX: -3}},
	}
	oddErr := []error{errors.New(`bad <move> & "quotes" ✓`), nil}
	d := &explain.Decision{State: "s<", Reason: "r", Candidates: []explain.Candidate{{Action: "attack [1,2]", Score: 0.25}}}
	for i := range odd {
		check(i+1, &odd[i], oddErr[i], nil)
		check(i+1, &odd[i], oddErr[i], d)
	}
}

func BenchmarkStepEncoder(b *testing.B) {
	r := submarine.DefaultRules()
	enc := newStepEncoder(r)
	st := submarine.Step{Action: submarine.AttackAt(7),
		Actor: submarine.Event{Mine: true, Kind: submarine.Attack, At: 7, Hit: 1, Near: 5, Ship: submarine.NoShip, To: grid.None},
		Other: submarine.Event{Kind: submarine.Attack, At: 7, Hit: 1, Near: 5, Ship: submarine.NoShip, To: grid.None}}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = enc.appendStep(buf[:0], 12, &st, nil, nil)
	}
}
