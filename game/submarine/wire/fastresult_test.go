package wire

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/require"

	kgame "github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/race"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol"
)

// encoderRules are the boards the encoder tests use.
func encoderRules() []*submarine.Rules {
	rounded := submarine.DefaultRules()
	rounded.Board = grid.MustBoard(6, 5, []grid.Cell{0, 5, 24, 29})
	return []*submarine.Rules{submarine.DefaultRules(), rounded}
}

// TestResultEncoder plays random games (with illegal actions mixed in) and
// checks every result line of the fast encoder against EncodeResult,
// for both dialects, every outcome and all kinds of wire orders.
func TestResultEncoder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	games := 60
	if testing.Short() || race.Enabled {
		games = 15
	}
	for _, r := range encoderRules() {
		orders := []Order{nil, DefaultOrder(r), {2, 0, 1}, {1, 2, 0}, {2, 2, 9, -1}, {}}
		for _, d := range []protocol.Dialect{protocol.Classic, protocol.SubmarinePy} {
			enc := NewResultEncoder(d, r)
			require.True(t, enc.fast)
			for g := range games {
				p := [2]*players.Random{players.NewRandom(r, rng), players.NewRandom(r, rng)}
				game, err := submarine.NewGame(r, p[0].Place(), p[1].Place(), g%2)
				require.NoError(t, err)
				for game.Status() == kgame.Running {
					mv := game.ToAct()
					a := p[mv].Act()
					switch rng.IntN(40) {
					case 0:
						a = submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}
					case 1:
						a = submarine.MoveTo(rng.IntN(4)-1, grid.Cell(rng.IntN(40)-5))
					case 2:
						a = submarine.AttackAt(grid.Cell(rng.IntN(40) - 5))
					}
					st, _ := game.Apply(a)
					for seat, ev := range [2]submarine.Event{st.Actor, st.Other} {
						i := mv
						if seat == 1 {
							i = 1 - mv
						}
						v := game.View(i)
						for _, outcome := range []int{protocol.NoOutcome, protocol.Won, protocol.Lost} {
							mine, enemy := orders[rng.IntN(len(orders))], orders[rng.IntN(len(orders))]
							want := EncodeResult(d, r, ev, outcome, &v, mine, enemy)
							got := enc.AppendResult([]byte("x"), ev, outcome, &v, mine, enemy)
							require.Equal(t, "x"+string(want), string(got))
						}
					}
					if st.Status == kgame.Running {
						p[mv].Observe(st.Actor, ptr(game.View(mv)))
						p[1-mv].Observe(st.Other, ptr(game.View(1-mv)))
					}
				}
			}
		}
	}
}

func ptr[T any](v T) *T { return &v }

// TestResultEncoderFallback: a fleet whose names need escaping is printed
// by EncodeResult.
func TestResultEncoderFallback(t *testing.T) {
	r := submarine.DefaultRules()
	r.Fleet = []submarine.ShipSpec{{Name: "戦艦", HP: 3}, {Name: `c"`, HP: 2}, {Name: "s", HP: 1}}
	for _, d := range []protocol.Dialect{protocol.Classic, protocol.SubmarinePy} {
		enc := NewResultEncoder(d, r)
		require.False(t, enc.fast)
		v := submarine.View{Me: submarine.NewFleet(r, submarine.Placement{0, 1, 2})}
		ev := submarine.Event{Kind: submarine.Attack, At: 6, Hit: 0, Near: 0b110, Ship: submarine.NoShip, To: grid.None}
		require.Equal(t, string(EncodeResult(d, r, ev, protocol.NoOutcome, &v, nil, nil)),
			string(enc.AppendResult(nil, ev, protocol.NoOutcome, &v, nil, nil)))
	}
}

// FuzzResultEncoder builds arbitrary events and views (values the engine
// never produces included) and compares the fast encoder with
// EncodeResult.
func FuzzResultEncoder(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23})
	f.Add(bytes.Repeat([]byte{0xff}, 32))
	f.Add(bytes.Repeat([]byte{0x81}, 32))
	rules := encoderRules()
	f.Fuzz(func(t *testing.T, in []byte) {
		at := 0
		next := func() int {
			if at >= len(in) {
				return 0
			}
			at++
			return int(int8(in[at-1]))
		}
		r := rules[next()&1]
		d := protocol.Classic
		if next()&1 == 1 {
			d = protocol.SubmarinePy
		}
		ev := submarine.Event{
			Mine: next()&1 == 1, Kind: submarine.Kind(next() & 3), Illegal: next()&1 == 1,
			At: grid.Cell(next()), Hit: next() % 5, Sunk: next()&1 == 1, Near: submarine.ShipMask(next()),
			Ship: next() % 5, To: grid.Cell(next()), DX: next(), DY: next(),
		}
		var v submarine.View
		v.Me.Alive = submarine.ShipMask(next())
		for i := range submarine.MaxShips {
			v.Me.HP[i], v.Me.Pos[i], v.EnemyHP[i] = int8(next()), grid.Cell(next()), int8(next())
		}
		order := func() Order {
			n := next() & 7
			if n == 7 {
				return nil
			}
			o := make(Order, n)
			for i := range o {
				o[i] = next() % 5
			}
			return o
		}
		mine, enemy := order(), order()
		outcome := next()%3 - 1
		want := EncodeResult(d, r, ev, outcome, &v, mine, enemy)
		got := NewResultEncoder(d, r).AppendResult(nil, ev, outcome, &v, mine, enemy)
		if !bytes.Equal(got, want) {
			t.Fatalf("fast %s\nEncodeResult %s", got, want)
		}
	})
}

// BenchmarkAppendResult is BenchmarkEncodeResult's line through the
// server's encoder, into a reused buffer.
func BenchmarkAppendResult(b *testing.B) {
	r := submarine.DefaultRules()
	g, _ := submarine.NewGame(r, submarine.Placement{0, 2, 4}, submarine.Placement{6, 8, 10}, 0)
	st, _ := g.Apply(submarine.AttackAt(6))
	v := g.View(0)
	o := DefaultOrder(r)
	enc := NewResultEncoder(protocol.Classic, r)
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = enc.AppendResult(buf[:0], st.Actor, protocol.NoOutcome, &v, o, o)
	}
}
