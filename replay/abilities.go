package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// GameAbilities is the "game" of an abilities-variant replay header.
const GameAbilities = abilities.Name

// TypeAction is the type of an abilities replay's action lines.
const TypeAction = "action"

// AbilitiesHeader is the first line of an abilities replay: the classic
// rules, each seat's side and the rules options.
type AbilitiesHeader struct {
	Type    string            `json:"type"`
	Game    string            `json:"game"` // GameAbilities
	Version string            `json:"version,omitempty"`
	Seed    uint64            `json:"seed"`
	Match   *MatchRef         `json:"match,omitempty"`
	Rules   BattleshipRules   `json:"rules"`
	Sides   [2]string         `json:"sides"` // "ai" or "humans", by seat
	Options abilities.Options `json:"options"`
	Players [2]SeatInfo       `json:"players"`
	First   int               `json:"first"`
}

// AbilitiesAction is one action of an abilities game as the seat played it: kind
// (shoot, move, salvo, reveal, defend), its cells [row, col] and flags,
// and Illegal when the rules refused it (the seat forfeited; it is the
// last action). The answers are not stored: VerifyAbilities recomputes
// them from the placements.
type AbilitiesAction struct {
	Type    string `json:"type"` // TypeAction
	N       int    `json:"n"`
	Seat    int    `json:"seat"`
	Kind    string `json:"kind"`
	At      *RC    `json:"at,omitempty"`
	To      *RC    `json:"to,omitempty"`
	Special bool   `json:"special,omitempty"`
	Cells   []RC   `json:"cells,omitempty"`
	Use     bool   `json:"use,omitempty"`
	Illegal bool   `json:"illegal,omitempty"`
	// Cell is the raw index of an off-board At (no At then).
	Cell *int `json:"cell,omitempty"`
}

// AbilitiesReplay is a whole abilities replay file.
type AbilitiesReplay struct {
	Header     AbilitiesHeader
	Placements [2]BattleshipPlacement
	Actions    []AbilitiesAction
	Result     BattleshipResult
}

// AbilitiesWriter writes an abilities replay line by line (errors are
// sticky; Flush returns the first).
type AbilitiesWriter struct {
	fleetWriter
	rules *abilities.Rules
}

// NewAbilitiesWriter starts a replay of a game under r and writes h (Type,
// Game, Rules, Sides and Options filled in).
func NewAbilitiesWriter(w io.Writer, r *abilities.Rules, h AbilitiesHeader) *AbilitiesWriter {
	aw := &AbilitiesWriter{fleetWriter: newFleetWriter(w, r.Base.Board), rules: r}
	h.Type, h.Game, h.Rules, h.Options = TypeHeader, GameAbilities, BattleshipRulesOf(r.Base), r.Options
	h.Sides = [2]string{r.Sides[0].String(), r.Sides[1].String()}
	if h.Version == "" {
		h.Version = Version()
	}
	aw.write(h)
	return aw
}

// Action records action number n (from 1) of seat; illegal marks one the
// rules refused.
func (w *AbilitiesWriter) Action(n, seat int, a abilities.Action, illegal bool) {
	w.write(EncodeAbilitiesAction(w.rules.Base.Board, n, seat, a, illegal))
}

// EncodeAbilitiesAction is the replay line of an action.
func EncodeAbilitiesAction(b *grid.Board, n, seat int, a abilities.Action, illegal bool) AbilitiesAction {
	out := AbilitiesAction{Type: TypeAction, N: n, Seat: seat, Kind: a.Kind.String(), Special: a.Special, Use: a.Use, Illegal: illegal}
	inside := func(c grid.Cell) bool { return c >= 0 && int(c) < b.Size() }
	switch a.Kind {
	case abilities.Shoot, abilities.Move, abilities.Salvo:
		if inside(a.At) {
			at := rcOf(b, a.At)
			out.At = &at
		} else {
			c := int(a.At)
			out.Cell = &c
		}
		if a.Kind != abilities.Shoot && inside(a.To) {
			to := rcOf(b, a.To)
			out.To = &to
		}
	case abilities.Reveal:
		for _, c := range a.Cells {
			if inside(c) {
				out.Cells = append(out.Cells, rcOf(b, c))
			}
		}
	}
	return out
}

// decode is the action a line records.
func (a AbilitiesAction) decode(b *grid.Board) (abilities.Action, error) {
	out := abilities.Action{Special: a.Special, Use: a.Use, At: -1, To: -1}
	k := -1
	for i := range 5 {
		if abilities.Kind(i).String() == a.Kind {
			k = i
		}
	}
	if k < 0 {
		return out, fmt.Errorf("unknown action kind %q", a.Kind)
	}
	out.Kind = abilities.Kind(k)
	var err error
	if a.At != nil {
		if out.At, err = a.At.cell(b); err != nil {
			return out, err
		}
	} else if a.Cell != nil {
		out.At = grid.Cell(*a.Cell)
	}
	if a.To != nil {
		if out.To, err = a.To.cell(b); err != nil {
			return out, err
		}
	}
	for _, p := range a.Cells {
		c, err := p.cell(b)
		if err != nil {
			return out, err
		}
		out.Cells = append(out.Cells, c)
	}
	return out, nil
}

// Rules builds the rules the header records.
func (rp *AbilitiesReplay) Rules() (*abilities.Rules, error) {
	base, err := rp.Header.Rules.Build()
	if err != nil {
		return nil, err
	}
	var sides [2]abilities.Side
	for i, s := range rp.Header.Sides {
		if sides[i], err = abilities.ParseSide(s); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
	}
	r, err := abilities.NewRules(base, sides[0], sides[1], rp.Header.Options)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return r, nil
}

// ReadAbilities reads an abilities replay: a header, two placements, the
// actions and a result, every line strict (unknown keys refused).
func ReadAbilities(r io.Reader) (*AbilitiesReplay, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	rp := &AbilitiesReplay{}
	placed, done := 0, false
	for lineNo := 1; ; lineNo++ {
		line, err := readLine(br, lineNo)
		if len(bytes.TrimSpace(line)) > 0 {
			if done {
				return nil, fmt.Errorf("%w: line %d after the result", ErrFormat, lineNo)
			}
			var t struct {
				Type string `json:"type"`
			}
			if err := json.Unmarshal(line, &t); err != nil {
				return nil, fmt.Errorf("%w: line %d: %w", ErrFormat, lineNo, err)
			}
			var into any
			switch {
			case lineNo == 1 && t.Type == TypeHeader:
				into = &rp.Header
			case lineNo == 1:
				return nil, fmt.Errorf("%w: line 1: %q line where the header belongs", ErrFormat, t.Type)
			case t.Type == TypePlacement && placed < 2 && len(rp.Actions) == 0:
				into = &rp.Placements[placed]
				placed++
			case t.Type == TypeAction && placed == 2:
				rp.Actions = append(rp.Actions, AbilitiesAction{})
				into = &rp.Actions[len(rp.Actions)-1]
			case t.Type == TypeResult && placed == 2:
				into, done = &rp.Result, true
			default:
				return nil, fmt.Errorf("%w: line %d: unexpected %q line", ErrFormat, lineNo, t.Type)
			}
			dec := json.NewDecoder(bytes.NewReader(line))
			dec.DisallowUnknownFields()
			if err := dec.Decode(into); err != nil {
				return nil, fmt.Errorf("%w: line %d: %w", ErrFormat, lineNo, err)
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, err
		}
	}
	if rp.Header.Game != GameAbilities {
		return nil, fmt.Errorf("%w: game %q, want %q", ErrFormat, rp.Header.Game, GameAbilities)
	}
	if !done {
		return nil, fmt.Errorf("%w: no result line", ErrFormat)
	}
	return rp, nil
}

// ReadAbilitiesFile reads the abilities replay at path.
func ReadAbilitiesFile(path string) (*AbilitiesReplay, error) {
	return readFile(path, ReadAbilities)
}

// replayed is a replay played again through the rules.
type replayed struct {
	rules *abilities.Rules
	game  *abilities.Game // nil when a placement was invalid
	steps []abilities.Step
}

// VerifyAbilities plays the replay again through the rules (Rerun.Play):
// every action must be by the seat to act and legal (an illegal one only
// as the last, marked illegal), and the result must be what the rules give.
func VerifyAbilities(rp *AbilitiesReplay) error {
	_, err := rp.replay(nil)
	return err
}

// AbilitiesRerun is an abilities replay as Rerun plays it again.
type AbilitiesRerun = Rerun[*abilities.Game, battleship.Placement, abilities.Action, abilities.Step, AbilitiesAction]

// Rerun is rp ready to be played again through the rules it records.
func (rp *AbilitiesReplay) Rerun() (*AbilitiesRerun, error) {
	r, err := rp.Rules()
	if err != nil {
		return nil, err
	}
	h := &rp.Header
	rr := &AbilitiesRerun{Rules: r, Codec: abCodec{r.Base.Board}, First: h.First, Players: h.Players, Lines: rp.Actions,
		End: fleetEnding(&rp.Result), Protocol: true}
	for s, p := range rp.Placements {
		if p.Seat != s {
			return nil, fmt.Errorf("%w: placement %d is seat %d's", ErrMismatch, s, p.Seat)
		}
		if rr.Placements[s], err = decodeFleet(r.Base.Board, s, p.Ships); err != nil {
			return nil, fmt.Errorf("%w: %w", ErrFormat, err)
		}
	}
	return rr, nil
}

// replay plays the replay again; visit, when set, sees the game after
// every legal action (and once at the start, with a nil step).
func (rp *AbilitiesReplay) replay(visit func(g *abilities.Game, st *abilities.Step)) (*replayed, error) {
	rr, err := rp.Rerun()
	if err != nil {
		return nil, err
	}
	out := &replayed{rules: rr.Rules.(*abilities.Rules)}
	err = rr.Play(func(g *abilities.Game, _ *AbilitiesAction, st *abilities.Step, err error) {
		out.game = g
		if err != nil {
			return
		}
		if st != nil {
			out.steps = append(out.steps, *st)
		}
		if visit != nil {
			visit(g, st)
		}
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// abCodec is the abilities record format of action lines (Codec).
type abCodec struct{ b *grid.Board }

func (abCodec) Noun() string { return "action" }

func (abCodec) Move(l *AbilitiesAction) (n, seat int, illegal bool) { return l.N, l.Seat, l.Illegal }

func (abCodec) Where(*AbilitiesAction) string { return "" }

func (c abCodec) Decode(l *AbilitiesAction) (abilities.Action, error) {
	a, err := l.decode(c.b)
	if err != nil {
		return a, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return a, nil
}

// Check has nothing to compare: an action line records no answer.
func (abCodec) Check(*AbilitiesAction, *abilities.Step, error) error { return nil }

func (abCodec) Tally(c game.Count) string { return fleetTally(c) }

// RenderAbilities draws actions From to To (0 = the start, To < 0 = the
// end) of a verified replay, one line each with the answers as the
// attacker heard them, then both boards at the end: '#' a ship, 'x' a hit
// ship cell, 'o' a shot at water, '~' a false miss, '.' water.
func RenderAbilities(w io.Writer, rp *AbilitiesReplay, from, to int) error {
	g, err := rp.replay(nil)
	if err != nil {
		return err
	}
	if to < 0 || to > len(g.steps) {
		to = len(g.steps)
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "abilities: seat 0 %s (%s) vs seat 1 %s (%s)\n", rp.Header.Players[0].Name, rp.Header.Sides[0], rp.Header.Players[1].Name, rp.Header.Sides[1])
	b := g.rules.Base.Board
	for i := max(0, from-1); i < to; i++ {
		fmt.Fprintf(&sb, "%4d %s\n", i+1, abStepText(b, &g.steps[i]))
	}
	if g.game != nil {
		for s := range 2 {
			fmt.Fprintf(&sb, "seat %d fleet:\n", s)
			var ships grid.Set
			for _, sh := range g.game.Ships(s) {
				ships = ships.Union(grid.Of(sh...))
			}
			for y := range b.Height() {
				for x := range b.Width() {
					c, _ := b.At(x, y)
					shot := g.game.Shot(s).Has(c)
					switch {
					case !b.IsUsable(c):
						sb.WriteByte(' ')
					case ships.Has(c) && shot:
						sb.WriteByte('x')
					case ships.Has(c):
						sb.WriteByte('#')
					case shot:
						sb.WriteByte('o')
					default:
						sb.WriteByte('.')
					}
				}
				sb.WriteByte('\n')
			}
		}
	}
	fmt.Fprintf(&sb, "result: %s, winner %d, shots %v\n", rp.Result.Outcome, rp.Result.Winner, rp.Result.Shots)
	_, err = io.WriteString(w, sb.String())
	return err
}

// abStepText tells step st in words: who did what, the answers as the
// defender gave them, the count, the question raised.
func abStepText(b *grid.Board, st *abilities.Step) string {
	var sb strings.Builder
	name := func(c grid.Cell) string {
		if c < 0 || int(c) >= b.Size() {
			return fmt.Sprintf("off-board(%d)", c)
		}
		return rcOf(b, c).String()
	}
	v := st.Views[st.Views[0].Attacker]
	fmt.Fprintf(&sb, "seat %d %s", st.Seat, st.Action.Kind)
	switch st.Action.Kind {
	case abilities.Shoot:
		fmt.Fprintf(&sb, " %s", name(st.Action.At))
		if st.Action.Special {
			sb.WriteString(" with the 3-deck")
		}
	case abilities.Move:
		if st.Views[st.Seat].Moved {
			fmt.Fprintf(&sb, " %s -> %s", name(st.Action.At), name(st.Action.To))
		}
	case abilities.Salvo:
		fmt.Fprintf(&sb, " %s %s", name(st.Action.At), name(st.Action.To))
	case abilities.Defend:
		fmt.Fprintf(&sb, " %t", st.Action.Use)
	}
	for _, c := range st.Views[1-v.Attacker].Cells {
		fmt.Fprintf(&sb, " | %s %s", name(c.At), cellWord(c))
	}
	if v.Scan >= 0 {
		fmt.Fprintf(&sb, " | count %d", v.Scan)
	}
	if q := st.Views[1-v.Attacker].Ask; q != nil {
		fmt.Fprintf(&sb, " | asks seat %d", q.Seat)
	}
	return sb.String()
}

func cellWord(c abilities.CellResult) string {
	switch {
	case c.AirDefence:
		return "air defence"
	case c.FalseMiss:
		return "false miss"
	case c.Repeat:
		return c.Outcome.String() + " (repeat)"
	}
	return c.Outcome.String()
}
