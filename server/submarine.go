package server

import (
	"bytes"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	subwire "github.com/kaisen-ai/kaisen/game/submarine/wire"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol"
	"github.com/kaisen-ai/kaisen/replay"
)

// subTurns is the turn loop of a submarine game.
type subTurns = turns[*submarine.Game, submarine.Placement, submarine.Action, submarine.Step, submarine.Told]

// subInvalid is the action a mover's fault is taken as.
var subInvalid = submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}

// newSubTurns is the submarine game of the pairing m on the turn loop
// (server/turns.go), in the listener's dialect: its rules and house AI,
// the server side of the submarine wire (its fast decoder and result
// encoder), the replay, the public view, and the reference server's
// forfeits: a mover's fault is told as an invalid action, a forfeit while
// waiting as the result of one, and a walkover as "waiting" and the
// result of one.
func newSubTurns(m *match) *subTurns {
	st := m.st
	rules := st.rules
	w := subwire.NewServer(st.dialect, rules, st.enc)
	def := &served[*submarine.Game, submarine.Placement, submarine.Action, submarine.Step, submarine.Told]{
		dialect: st.dialect.String(),
		rules:   rules,
		wire:    w,
		record: func(b *bytes.Buffer, h replayHeader) gameRecord[submarine.Placement, submarine.Action, submarine.Step] {
			return subRecord{subrecord.NewWriter(b, rules, subrecord.Header{Seed: h.Seed, First: h.First, Players: h.Players})}
		},
		view:    func(g *submarine.Game) game.View[submarine.Step] { return submarine.NewPublicView(g) },
		invalid: &subInvalid,
		forfeitTold: func(g *submarine.Game, seat int, o *submarine.Told) {
			if o.View == nil {
				o.View = new(submarine.View)
			}
			o.Event = subwire.InvalidEvent
			*o.View = g.View(seat)
		},
		walkover: func(m *match, win int, p submarine.Placement) {
			v := submarine.View{Me: submarine.NewFleet(rules, p)}
			for i, sp := range rules.Fleet {
				v.EnemyHP[i] = int8(sp.HP)
			}
			m.sendString(win, protocol.Waiting)
			if s := m.seats[win]; s.c != nil && s.c.werr == nil {
				c := m.to(win)
				c.wbuf = append(w.AppendWalkover(c.wbuf, win, &v), '\n')
			}
		},
	}
	if st.house != nil {
		def.house = players.Adapt(st.house)
	}
	return newTurns(m, def)
}

// subRecord is a submarine game's replay (gameRecord).
type subRecord struct{ *subrecord.Writer }

func (r subRecord) Action(n, _ int, _ submarine.Action, st *submarine.Step, err error, actor any) {
	r.Step(n, st, err, explanation(actor))
}

func (r subRecord) Result(outcome string, winner int, c game.Count, ff []replay.Forfeit) {
	r.Writer.Result(subrecord.Result{Outcome: outcome, Winner: winner, Actions: c.Actions, Forfeits: ff})
}
