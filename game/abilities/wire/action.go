package wire

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/protocol"
)

// maxRevealCells bounds the cells of a reveal line (a 3x3 has 9).
const maxRevealCells = 9

// EncodeAction prints the line of action a (cells off the board
// as [-1,-1]):
//
//	{"shoot":{"to":[r,c]}}                      a shot
//	{"shoot":{"to":[r,c],"special":true}}       a shot with the 3-deck's ability
//	{"move":{"from":[r,c],"to":[r,c]}}          a 1-deck moves
//	{"salvo":{"cells":[[r,c],[r,c]]}}           the AI's salvo (two cells in a row)
//	{"salvo":{"center":[r,c]}}                  the Humans' salvo (a 3x3)
//	{"reveal":{"cells":[[r,c],[r,c],[r,c]]}}    the defender names the cells a Humans' salvo hits
//	{"defend":{"use":true}}                     the defender spends (true) or keeps (false) its 4-deck's defence
func EncodeAction(r *abilities.Rules, a abilities.Action) []byte {
	b := r.Base.Board
	w := protocol.NewWriter(protocol.Classic, 48)
	switch a.Kind {
	case abilities.Shoot:
		w.Raw(`{"shoot":{"to":`)
		w.RowCol(b, a.At)
		if a.Special {
			w.Raw(`,"special":true`)
		}
	case abilities.Move:
		w.Raw(`{"move":{"from":`)
		w.RowCol(b, a.At)
		w.Raw(`,"to":`)
		w.RowCol(b, a.To)
	case abilities.Salvo:
		if a.At == a.To {
			w.Raw(`{"salvo":{"center":`)
			w.RowCol(b, a.At)
		} else {
			w.Raw(`{"salvo":{"cells":`)
			w.RowCols(b, []grid.Cell{a.At, a.To})
		}
	case abilities.Reveal:
		w.Raw(`{"reveal":{"cells":`)
		w.RowCols(b, a.Cells)
	case abilities.Defend:
		w.Raw(`{"defend":{"use":`)
		if a.Use {
			w.Raw("true")
		} else {
			w.Raw("false")
		}
	default:
		w.Raw(`{"`)
		w.Raw(a.Kind.String())
		w.Raw(`":{`)
	}
	w.Raw("}}")
	return w.Bytes()
}

// DecodeAction parses an action line (EncodeAction's
// shapes, any JSON spacing, no other keys). Integers off the board decode
// to grid.None, and a salvo's two cells are put lowest first: whether the
// action is legal is for the rules (abilities.Game.Apply), which refuse it
// with ErrIllegal. Any other deviation is a *protocol.ProtocolError.
func DecodeAction(line []byte, r *abilities.Rules) (abilities.Action, error) {
	a, err := decodeAction(line, r.Base.Board)
	if err != nil {
		return abilities.Action{}, protocol.Wrap(line, err)
	}
	return a, nil
}

func decodeAction(line []byte, b *grid.Board) (abilities.Action, error) {
	a := abilities.Action{At: grid.None, To: grid.None}
	ms, err := protocol.Object(line, "action")
	if err != nil {
		return a, err
	}
	if len(ms) != 1 {
		return a, fmt.Errorf(`%w: an action is one of "shoot", "move", "salvo", "reveal", "defend"`, protocol.ErrType)
	}
	ab := actionBody{name: ms[0].Key, b: b}
	if ab.body, err = protocol.Members(ms[0].Val, fmt.Sprintf("%q", ab.name)); err != nil {
		return a, err
	}
	switch ab.name {
	case "shoot":
		a.Kind = abilities.Shoot
		err = ab.shoot(&a)
	case "move":
		a.Kind = abilities.Move
		err = ab.move(&a)
	case "salvo":
		a.Kind = abilities.Salvo
		err = ab.salvo(&a)
	case "reveal":
		a.Kind = abilities.Reveal
		err = ab.reveal(&a)
	case "defend":
		a.Kind = abilities.Defend
		err = ab.defend(&a)
	default:
		err = fmt.Errorf(`%w: unknown action %q: want "shoot", "move", "salvo", "reveal" or "defend"`, protocol.ErrType, ab.name)
	}
	return a, err
}

// actionBody is the body of one action kind's object, on board b.
type actionBody struct {
	name string // the kind's key
	body []protocol.Member
	b    *grid.Board
}

// fields checks that the body has exactly the keys req and, optionally,
// opt.
func (ab actionBody) fields(req []string, opt ...string) error {
	for _, k := range req {
		if _, ok := protocol.Lookup(ab.body, k); !ok {
			return fmt.Errorf("%w: %q needs %q", protocol.ErrType, ab.name, k)
		}
	}
	for _, m := range ab.body {
		if !slices.Contains(req, m.Key) && !slices.Contains(opt, m.Key) {
			return fmt.Errorf("%w: %q has unknown key %q", protocol.ErrType, ab.name, m.Key)
		}
	}
	return nil
}

// cell is the [row, col] cell under key.
func (ab actionBody) cell(key string) (grid.Cell, error) {
	v, _ := protocol.Lookup(ab.body, key)
	return protocol.RowCol(v, ab.b, fmt.Sprintf(`"%s.%s"`, ab.name, key))
}

func (ab actionBody) shoot(a *abilities.Action) (err error) {
	if err := ab.fields([]string{"to"}, "special"); err != nil {
		return err
	}
	if a.At, err = ab.cell("to"); err != nil {
		return err
	}
	if v, ok := protocol.Lookup(ab.body, "special"); ok {
		a.Special, err = protocol.Boolean(v, `"shoot.special"`)
	}
	return err
}

func (ab actionBody) move(a *abilities.Action) (err error) {
	if err := ab.fields([]string{"from", "to"}); err != nil {
		return err
	}
	if a.At, err = ab.cell("from"); err != nil {
		return err
	}
	a.To, err = ab.cell("to")
	return err
}

func (ab actionBody) salvo(a *abilities.Action) (err error) {
	if _, ok := protocol.Lookup(ab.body, "center"); ok {
		if err := ab.fields([]string{"center"}); err != nil {
			return err
		}
		a.At, err = ab.cell("center")
		a.To = a.At
		return err
	}
	if err := ab.fields([]string{"cells"}); err != nil {
		return fmt.Errorf(`%w (or "center")`, err)
	}
	v, _ := protocol.Lookup(ab.body, "cells")
	cells, err := rowColList(v, ab.b, `"salvo.cells"`, 2)
	if err != nil {
		return err
	}
	if len(cells) != 2 {
		return fmt.Errorf("%w: a salvo names 2 cells, got %d", protocol.ErrType, len(cells))
	}
	a.At, a.To = min(cells[0], cells[1]), max(cells[0], cells[1])
	return nil
}

func (ab actionBody) reveal(a *abilities.Action) (err error) {
	if err := ab.fields([]string{"cells"}); err != nil {
		return err
	}
	v, _ := protocol.Lookup(ab.body, "cells")
	a.Cells, err = rowColList(v, ab.b, `"reveal.cells"`, maxRevealCells)
	return err
}

func (ab actionBody) defend(a *abilities.Action) (err error) {
	if err := ab.fields([]string{"use"}); err != nil {
		return err
	}
	v, _ := protocol.Lookup(ab.body, "use")
	a.Use, err = protocol.Boolean(v, `"defend.use"`)
	return err
}

// rowColList parses raw as a list of at most limit [row, col] cells (off
// the board: grid.None).
func rowColList(raw json.RawMessage, b *grid.Board, what string, limit int) ([]grid.Cell, error) {
	elems, err := protocol.Array(raw, what)
	if err != nil {
		return nil, err
	}
	if len(elems) > limit {
		return nil, fmt.Errorf("%w: %s has %d cells, at most %d", protocol.ErrType, what, len(elems), limit)
	}
	out := make([]grid.Cell, 0, len(elems))
	for k, e := range elems {
		c, err := protocol.RowCol(e, b, fmt.Sprintf("%s[%d]", what, k))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}
