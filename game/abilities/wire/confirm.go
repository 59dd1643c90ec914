package wire

import (
	"slices"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/protocol"
)

// ConfirmAnswer is the defender's answer to a confirm line
// (EncodeConfirm): the same line as declining a defence,
// {"defend":{"use":false}}.
var ConfirmAnswer = abilities.Action{Kind: abilities.Defend, Use: false}

// EncodeConfirm prints the confirm line the server sends the
// defender of a shot at c that raised no defence question while the
// defender's 4-deck defence may still be live (docs/protocol.md,
// "Constant shape"):
//
//	{"confirm":{"at":[r,c]}}
//
// "your turn" follows, and the defender answers ConfirmAnswer. The
// shooter is told the shot only then, so that it waits for the defender
// on every such shot, asked or not.
func EncodeConfirm(r *abilities.Rules, c grid.Cell) []byte {
	w := protocol.NewWriter(protocol.Classic, 32)
	w.Raw(`{"confirm":{"at":`)
	w.RowCol(r.Base.Board, c)
	w.Raw("}}")
	return w.Bytes()
}

// Confirms is the confirm schedule of protocol version 2 (docs/abilities.md,
// "Constant shape"): which shots the defender confirms before their
// shooter is told them. A shot needs a confirm when it raised no defence
// question (false miss, air defence) while the defender's defence may
// still be live as the shooter knows it: a 4-deck of the defender not
// sunk, and for the Humans an air defence not spent. So the shooter waits
// for the defender on every such shot, and what it waits for depends only
// on what it was told. A host calls Answered before applying each action
// and Told after.
type Confirms struct {
	rules *abilities.Rules
	fours int    // 4-decks in the fleet
	sunk  [2]int // by seat: its 4-decks sunk, as its enemy was told
	air   [2]int // by seat: its air defences spent, as its enemy was told
	// asked: the cells of the defence questions answered since the
	// shooter was last told a volley
	asked []grid.Cell
}

// NewConfirms is the schedule of a game of r, at its start.
func NewConfirms(r *abilities.Rules) *Confirms {
	c := &Confirms{rules: r}
	for _, l := range r.Base.Fleet {
		if l == abilities.DefenderLen {
			c.fours++
		}
	}
	return c
}

// Answered records action a, about to be applied while question q (nil:
// none) is pending.
func (c *Confirms) Answered(q *abilities.Question, a abilities.Action) {
	if q != nil && q.Ask != abilities.AskReveal && a.Kind == abilities.Defend {
		c.asked = append(c.asked, q.At)
	}
}

// Told returns, for step st, the defender and the cells it must confirm
// (in this order) before the shooter is told its view of st; none when st
// tells the shooter no volley.
func (c *Confirms) Told(st abilities.Step) (defender int, cells []grid.Cell) {
	att := st.Views[0].Attacker
	v := st.Views[att]
	d := 1 - att
	if v.Silent || len(v.Cells) == 0 {
		return d, nil
	}
	if c.live(d) {
		for _, r := range v.Cells {
			if i := slices.Index(c.asked, r.At); i >= 0 {
				c.asked = slices.Delete(c.asked, i, i+1)
				continue
			}
			cells = append(cells, r.At)
		}
	}
	c.asked = c.asked[:0]
	for _, r := range v.Cells {
		if r.Outcome == battleship.Kill && len(r.Sunk) == abilities.DefenderLen {
			c.sunk[d]++
		}
		if r.AirDefence {
			c.air[d]++
		}
	}
	return d, cells
}

// live reports whether seat d's defence may still be live as its enemy
// knows it.
func (c *Confirms) live(d int) bool {
	if c.sunk[d] >= c.fours {
		return false
	}
	return c.rules.Sides[d] == abilities.AI || c.air[d] < abilities.AirDefenceCharges
}
