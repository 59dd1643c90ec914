// Package audit checks finished submarine games against the exact endgame
// solver (package endgame): it finds the games a player lost after a
// position that perfect play holds (drawn or won for it), and the action
// that threw it away.
//
// A game becomes one of perfect information at the first position where
// both fleets are common knowledge: the public joint belief of each fleet
// (every placement consistent with everything both players were told,
// belief.Joint) holds one placement. From there nothing is hidden (a move
// tells its ship and displacement, an attack's answer is public), every
// later position is known to both sides, and the solver's value of the true
// position is the value of the game.
//
// For a lost game the audit walks the known positions backwards from the
// end and stops at the last one, with the loser to move, that the solver
// does not prove lost: the loser's action there is the one that lost the
// game (Throw). A throw is proven when the solver valued the position drawn
// or won for the loser (Before) and the position after its action lost
// (After); a position of three ships against two or three is valued by a
// bounded search, which proves wins and losses but never a draw, so a
// throw from an Unknown value is reported but not proven.
//
// Beyond throws, a Report says how each side's game went (Report.Class):
// a game a player did not win either reached perfect information in a
// position the solver values drawn for it (a draw forced under perfect
// information: from there its opponent can always hold the draw), lost,
// unvalued or won for it (a win it did not convert, Report.Missed), or never
// reached perfect information, with or without one-sided knowledge (the
// enemy fleet common knowledge while its own was still hidden,
// Report.Located); a won game was won before perfect information, or after
// it from a position the solver values won, drawn or lost (the loser threw
// it) or could not value, with the loser's ships sunk in each phase
// (Report.SunkBefore, Report.Sunk).
package audit

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
)

// ErrGame is wrapped by the errors of a game that cannot be audited: an
// illegal recorded action, or an event the public beliefs cannot hold.
var ErrGame = errors.New("audit: bad game")

// Options tunes an Auditor.
type Options struct {
	// Nodes is the solver's search budget per position (three ships
	// against two or three); <= 0: endgame.DefaultNodes.
	Nodes int
	// ScanNodes is the search budget per position when the audit looks for
	// a won position a side did not convert (Report.Missed) among the
	// positions beyond the tablebase (three ships against two or three),
	// which games can hold for hundreds of actions; <= 0: DefaultScanNodes.
	// A win found is proved whatever the budget; a smaller budget may miss
	// a long one.
	ScanNodes int
	// MaxPlacements bounds the public joint beliefs (<= 0:
	// belief.DefaultMaxPlacements); boards with more placements cannot be
	// audited (New fails with belief.ErrTooLarge).
	MaxPlacements int
}

// DefaultScanNodes is the default Options.ScanNodes.
const DefaultScanNodes = 5_000

// Auditor audits the games of one set of rules. It is safe for concurrent
// use: every call keeps its own beliefs, and the solver's tablebase is the
// process-wide one of the board (endgame.Shared).
type Auditor struct {
	rules  *submarine.Rules
	solver *endgame.Solver
	scan   *endgame.Solver // the solver of the scan for missed wins
	limit  int
}

// New returns an Auditor for rules.
func New(rules *submarine.Rules, opt Options) (*Auditor, error) {
	if rules == nil {
		return nil, fmt.Errorf("audit: %w", submarine.ErrRules)
	}
	if err := rules.Validate(); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	if _, err := belief.NewJoint(rules, opt.MaxPlacements); err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	s, err := endgame.Shared(rules, endgame.Options{Nodes: opt.Nodes})
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	if opt.ScanNodes <= 0 {
		opt.ScanNodes = DefaultScanNodes
	}
	scan, err := endgame.Shared(rules, endgame.Options{Nodes: opt.ScanNodes})
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	return &Auditor{rules: rules, solver: s, scan: scan, limit: opt.MaxPlacements}, nil
}

// Report is the audit of one game.
type Report struct {
	// Known is the number of actions played (both sides, from 0) when both
	// fleets first became common knowledge; -1 if they never did.
	Known int
	// Loser is the seat that lost the game by the rules (its last ship
	// sunk), -1 for a draw or a game that did not end by the rules.
	Loser int
	// Throw is the loser's action that lost a position perfect play held,
	// nil when there is none (the game was not lost, was lost before
	// everything was known, or the loser was lost from the first known
	// position on).
	Throw *Throw
	// Winner is the seat that won the game by the rules, -1 when none did.
	Winner int
	// Located is, by seat, the number of actions played when that seat's
	// fleet first became common knowledge (its public joint belief held one
	// placement), -1 if it never did. Known is the larger of the two when
	// both are set: a fleet once common knowledge stays so.
	Located [2]int
	// First is the first position where both fleets are common knowledge,
	// valued by the solver; nil when there is none.
	First *Point
	// Missed is, by seat, for a seat that did not win, the first known
	// position with it to move that the solver values won for it (a win it
	// did not convert); nil when there is none.
	Missed [2]*Point
	// SunkBefore is, by seat, the number of that seat's ships sunk before
	// perfect information (all those sunk in the game when it never came);
	// Sunk the number sunk in the whole game.
	SunkBefore, Sunk [2]int
}

// Point is a position where both fleets are common knowledge, with the
// solver's value.
type Point struct {
	// Ply is the number of actions played before it: the position is the
	// one before action Ply+1.
	Ply    int
	Turn   int                // the seat to move
	Fleets [2]submarine.Fleet // by seat
	Value  endgame.Value      // the solver's value for Turn
}

// For is the point's value for seat.
func (p *Point) For(seat int) endgame.Value {
	if seat == p.Turn {
		return p.Value
	}
	return flip(p.Value)
}

// Material names the material of the position for seat: the hp of its
// living ships, largest first, against the enemy's, e.g. "3+2 vs 2".
func (p *Point) Material(seat int) string {
	return hpList(&p.Fleets[seat]) + " vs " + hpList(&p.Fleets[1-seat])
}

func hpList(f *submarine.Fleet) string {
	var hp []int
	for i := range f.HP {
		if f.Alive.Has(i) {
			hp = append(hp, int(f.HP[i]))
		}
	}
	if len(hp) == 0 {
		return "0"
	}
	slices.SortFunc(hp, func(a, b int) int { return b - a })
	parts := make([]string, len(hp))
	for i, h := range hp {
		parts[i] = strconv.Itoa(h)
	}
	return strings.Join(parts, "+")
}

// Class is how one side's game went, by the solver (Report.Class).
type Class int

// The classes of a side's game. The first three are wins, the others games
// the side did not win (draws and losses).
const (
	// WonHidden: won before perfect information (its last sink came while
	// a fleet was still hidden).
	WonHidden Class = iota
	// WonFromWon: perfect information came in a position the solver values
	// won for the side, and it converted it.
	WonFromWon
	// WonFromHeld: perfect information came in a position the solver values
	// drawn or lost for the side; the loser threw it.
	WonFromHeld
	// WonFromUnknown: perfect information came in a position the solver's
	// bounded search could not value (three ships against two or three).
	WonFromUnknown
	// ForcedDraw: perfect information came in a position the solver values
	// drawn for the side: a draw forced under perfect information (the side
	// may still have lost it later, a Throw).
	ForcedDraw
	// ForcedLoss: perfect information came in a position the solver values
	// lost for the side.
	ForcedLoss
	// NotWonUnknown: perfect information came in a position the search could
	// not value, and no later position was proved won for the side.
	NotWonUnknown
	// MissedWin: the side reached a known position the solver values won
	// for it with it to move, and did not win (Report.Missed).
	MissedWin
	// HiddenOneSided: never perfect information; the enemy fleet became
	// common knowledge while the side's own stayed hidden.
	HiddenOneSided
	// HiddenLocated: never perfect information; the side's fleet became
	// common knowledge while the enemy's stayed hidden.
	HiddenLocated
	// HiddenBoth: never perfect information, and neither fleet ever became
	// common knowledge.
	HiddenBoth
	// NumClasses is the number of classes.
	NumClasses
)

// Won reports whether c is a class of won games.
func (c Class) Won() bool { return c <= WonFromUnknown }

var classNames = [NumClasses]string{
	"won before perfect information",
	"won from a known position the solver values won",
	"won from a known position the solver values drawn or lost (the loser threw it)",
	"won from a known position the search could not value",
	"draw forced under perfect information (first known position drawn)",
	"lost under perfect information (first known position lost)",
	"first known position not valued (3 ships against 2 or 3)",
	"known position won for it not converted",
	"never perfect information; the enemy fleet known while its own was hidden",
	"never perfect information; its own fleet known while the enemy's was hidden",
	"never perfect information; neither fleet ever known",
}

func (c Class) String() string {
	if c < 0 || c >= NumClasses {
		return "Class(" + strconv.Itoa(int(c)) + ")"
	}
	return classNames[c]
}

// Class says how seat's game went.
func (r *Report) Class(seat int) Class {
	if seat == r.Winner {
		switch {
		case r.First == nil:
			return WonHidden
		case r.First.For(seat).Outcome == endgame.Win:
			return WonFromWon
		case r.First.For(seat).Outcome == endgame.Unknown:
			return WonFromUnknown
		default:
			return WonFromHeld
		}
	}
	if r.Missed[seat] != nil {
		return MissedWin
	}
	if r.First == nil {
		switch {
		case r.Located[1-seat] >= 0:
			return HiddenOneSided
		case r.Located[seat] >= 0:
			return HiddenLocated
		default:
			return HiddenBoth
		}
	}
	switch r.First.For(seat).Outcome {
	case endgame.Draw:
		return ForcedDraw
	case endgame.Loss:
		return ForcedLoss
	default:
		return NotWonUnknown
	}
}

// Throw is an action that turned a position the solver does not prove lost
// into a lost one.
type Throw struct {
	Seat   int              // who acted (the loser)
	Ply    int              // the action's number, from 1
	Action submarine.Action // the action
	Before endgame.Value    // the position's value for Seat, before the action
	After  endgame.Value    // the value for Seat after it (a Loss when proven)
}

// Proven reports whether the solver proved both sides of the throw: the
// position before was drawn or won for the player and the one after lost.
func (t *Throw) Proven() bool {
	return (t.Before.Outcome == endgame.Draw || t.Before.Outcome == endgame.Win) && t.After.Outcome == endgame.Loss
}

// Describe says what the throw was under rules r, e.g. "action 57, move c
// to [2,3]: draw -> loss in 4" (values for the player who threw).
func (t *Throw) Describe(r *submarine.Rules) string {
	return fmt.Sprintf("action %d, %s: %s -> %s", t.Ply, ActionName(r, t.Action), t.Before, t.After)
}

// ActionName names an action as the replays do: "attack [x,y]" or "move
// SHIP to [x,y]".
func ActionName(r *submarine.Rules, a submarine.Action) string {
	switch {
	case a.Kind == submarine.Attack:
		return "attack " + r.CellName(a.To)
	case a.Kind == submarine.Move && a.Ship >= 0 && a.Ship < len(r.Fleet):
		return "move " + r.Fleet[a.Ship].Name + " to " + r.CellName(a.To)
	default:
		return a.Kind.String()
	}
}

// Game audits a game played under the auditor's rules from placements
// place (by seat), seat first acting first, with the given actions in
// order. Actions after the game ended are an error; a game that stops
// before its end (a forfeit outside the rules, an aborted game) is audited
// as far as it went, with no loser.
func (a *Auditor) Game(place [2]submarine.Placement, first int, actions []submarine.Action) (Report, error) {
	g, err := submarine.NewGame(a.rules, place[0], place[1], first)
	if err != nil {
		return Report{}, fmt.Errorf("%w: %w", ErrGame, err)
	}
	var pub [2]*belief.Joint
	for s := range pub {
		if pub[s], err = belief.NewJoint(a.rules, a.limit); err != nil {
			return Report{}, fmt.Errorf("audit: %w", err)
		}
	}
	rep := Report{Known: -1, Loser: -1, Winner: -1, Located: [2]int{-1, -1}}
	// known[k] is the position before action Known+k+1 (after Known+k
	// actions): both fleets, by seat, and the seat to move.
	var known []snapshot
	for n, act := range actions {
		if g.Status() != game.Running {
			return rep, fmt.Errorf("%w: action %d after the game ended", ErrGame, n+1)
		}
		rep.locate(&pub, n)
		if rep.Known >= 0 {
			known = append(known, snap(g))
		}
		st, err := g.Apply(act)
		if err != nil {
			return rep, fmt.Errorf("%w: action %d: %w", ErrGame, n+1, err)
		}
		if rep.Known >= 0 {
			continue // the beliefs stay singletons: no need to update them
		}
		for s := range pub {
			ev := st.Other
			if s == st.Seat {
				ev = st.Actor
			}
			if err := pub[s].Observe(ev, belief.Own); err != nil {
				return rep, fmt.Errorf("%w: action %d: public belief of seat %d: %w", ErrGame, n+1, s, err)
			}
		}
	}
	final := snap(g)
	if g.Status() != game.Won {
		// A game that was not won: its final position counts too (a draw
		// by the limit is final, an aborted game stopped there).
		if rep.Known < 0 {
			rep.locate(&pub, len(actions))
		}
		if rep.Known >= 0 {
			known = append(known, final)
		}
	}
	for s := range rep.Sunk {
		rep.Sunk[s] = len(a.rules.Fleet) - final.fleet[s].Alive.Count()
		rep.SunkBefore[s] = rep.Sunk[s]
	}
	if g.Status() == game.Won {
		rep.Winner = g.Winner()
		rep.Loser = 1 - rep.Winner
	}
	if rep.Known < 0 {
		return rep, nil
	}
	for s := range rep.SunkBefore {
		rep.SunkBefore[s] = len(a.rules.Fleet) - known[0].fleet[s].Alive.Count()
	}
	vals := valuer{a: a, cache: make(map[snapshot]cached)}
	if rep.First, err = vals.point(known, 0, rep.Known, false); err != nil {
		return rep, err
	}
	scan := known
	if g.Status() == game.Drawn && len(known) > 0 {
		scan = known[:len(known)-1] // no action follows the draw limit
	}
	for s := range rep.Missed {
		if s == rep.Winner {
			continue
		}
		if rep.Missed[s], err = vals.missed(scan, rep.Known, s); err != nil {
			return rep, err
		}
	}
	if rep.Loser < 0 {
		return rep, nil
	}
	known = append(known, final)
	rep.Throw, err = vals.findThrow(known, rep.Known, rep.Loser, actions)
	return rep, err
}

// locate notes, n actions into the game, which fleets the public beliefs
// pub (by seat) hold as common knowledge.
func (r *Report) locate(pub *[2]*belief.Joint, n int) {
	for s := range pub {
		if r.Located[s] < 0 && pub[s].Count() == 1 {
			r.Located[s] = n
		}
	}
	if r.Known < 0 && r.Located[0] >= 0 && r.Located[1] >= 0 {
		r.Known = n
	}
}

// valuer values the known positions of one game, each once (with the
// scan's budget, then with the full one when that did not settle it).
type valuer struct {
	a     *Auditor
	cache map[snapshot]cached
}

type cached struct {
	val  endgame.Value
	full bool // valued with the full budget
}

// value values sn with the full budget (scan false) or the scan's.
func (v *valuer) value(sn *snapshot, scan bool) (endgame.Value, error) {
	if c, ok := v.cache[*sn]; ok && (c.full || scan || c.val.Outcome != endgame.Unknown) {
		return c.val, nil
	}
	s := v.a.solver
	if scan {
		s = v.a.scan
	}
	val, err := v.a.value(s, sn)
	if err != nil {
		return val, err
	}
	v.cache[*sn] = cached{val: val, full: !scan}
	return val, nil
}

// point values known[k] (after from+k actions).
func (v *valuer) point(known []snapshot, k, from int, scan bool) (*Point, error) {
	sn := &known[k]
	val, err := v.value(sn, scan)
	if err != nil {
		return nil, err
	}
	return &Point{Ply: from + k, Turn: sn.turn, Fleets: sn.fleet, Value: val}, nil
}

// missed returns the first of the known positions (known[k] after from+k
// actions, the game's final position not among them) with seat to move
// that the solver values won for it, nil if none. A position won for the
// side not to move is lost for the mover, so every action leads to one won
// for seat with it to move, or ends the game by seat's win: looking at
// seat's turns is enough.
func (v *valuer) missed(known []snapshot, from, seat int) (*Point, error) {
	for k := range known {
		if known[k].turn != seat {
			continue
		}
		p, err := v.point(known, k, from, true)
		if err != nil {
			return nil, err
		}
		if p.Value.Outcome == endgame.Win {
			return p, nil
		}
	}
	return nil, nil
}

// snapshot is one known position.
type snapshot struct {
	fleet [2]submarine.Fleet
	turn  int
}

func snap(g *submarine.Game) snapshot {
	return snapshot{fleet: [2]submarine.Fleet{g.Fleet(0), g.Fleet(1)}, turn: g.ToAct()}
}

// value is solver's value of sn for the seat to move.
func (a *Auditor) value(solver *endgame.Solver, sn *snapshot) (endgame.Value, error) {
	pos, err := endgame.NewPosition(a.rules, sn.fleet[sn.turn], sn.fleet[1-sn.turn])
	if err != nil {
		return endgame.Value{}, fmt.Errorf("audit: %w", err)
	}
	v, err := solver.Solve(pos)
	if err != nil {
		return endgame.Value{}, fmt.Errorf("audit: %w", err)
	}
	return v, nil
}

// flip turns a value for one side into the value for the other.
func flip(v endgame.Value) endgame.Value {
	switch v.Outcome {
	case endgame.Win:
		v.Outcome = endgame.Loss
	case endgame.Loss:
		v.Outcome = endgame.Win
	}
	return v
}

// findThrow walks the known positions (known[k] after from+k actions; the
// last one is the final position) backwards to the last one with loser to
// move that the solver does not prove lost.
func (v *valuer) findThrow(known []snapshot, from, loser int, actions []submarine.Action) (*Throw, error) {
	for k := len(known) - 2; k >= 0; k-- {
		sn := &known[k]
		if sn.turn != loser {
			continue
		}
		before, err := v.value(sn, false)
		if err != nil {
			return nil, err
		}
		if before.Outcome == endgame.Loss {
			continue
		}
		t := &Throw{Seat: loser, Ply: from + k + 1, Action: actions[from+k], Before: before,
			After: endgame.Value{Outcome: endgame.Loss}}
		if next := &known[k+1]; next.fleet[1-loser].Alive != 0 && next.fleet[loser].Alive != 0 {
			val, err := v.value(next, false)
			if err != nil {
				return nil, err
			}
			t.After = flip(val)
		}
		return t, nil
	}
	return nil, nil
}

// Replay audits a recorded game (its rules must be the auditor's board and
// fleet; use ForReplay to make an auditor from the replay itself).
func (a *Auditor) Replay(rp *subrecord.Replay) (Report, error) {
	r, err := rp.Rules()
	if err != nil {
		return Report{}, fmt.Errorf("audit: %w", err)
	}
	var place [2]submarine.Placement
	for s := range place {
		place[s] = rp.Placement(r, s)
	}
	acts := make([]submarine.Action, 0, len(rp.Steps))
	for i := range rp.Steps {
		act, err := rp.Steps[i].Action.Decode(r)
		if err != nil {
			return Report{}, fmt.Errorf("%w: step %d: %w", ErrGame, rp.Steps[i].N, err)
		}
		acts = append(acts, act)
	}
	if n := len(rp.Steps); n > 0 && rp.Steps[n-1].Error != "" {
		acts = acts[:n-1] // a forfeit by an illegal action: audit up to it
	}
	return a.Game(place, rp.Header.First, acts)
}

// ForReplay returns an Auditor for the rules recorded in rp.
func ForReplay(rp *subrecord.Replay, opt Options) (*Auditor, error) {
	r, err := rp.Rules()
	if err != nil {
		return nil, fmt.Errorf("audit: %w", err)
	}
	return New(r, opt)
}
