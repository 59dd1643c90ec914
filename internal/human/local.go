package human

import (
	"fmt"
	"io"
	"strings"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	bsrecord "github.com/kaisen-ai/kaisen/game/battleship/record"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/players"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/replay"
)

// Options are the settings of a game between a seat and an AI in-process
// (PlayAgainstWith, PlayBattleshipAgainstWith). The zero value plays a
// game whose every line before its end is a function of what the rules
// told the person, and prints the AI's reasons after the end.
type Options struct {
	// Reveal prints the AI's explanation of each of its actions during
	// play, after the action is reported (kaisen play --reveal-ai). It
	// reveals the AI's fleet: an attack candidate lies within reach of a
	// hidden ship, a move names its row or column, a shot's reason says
	// where the AI's ships are not.
	Reveal bool
	// Replay, when not nil, receives the game's replay (the format kaisen
	// match --replays --explain writes) with the AI's explanation of each
	// of its actions, written as the game is played; it is the caller's to
	// keep from the person until the game is over. A write error is
	// returned at the end.
	Replay io.Writer
	// Seed and AI are recorded in the replay header: the seed the caller
	// derived the AI's stream from, and the AI's name ("" = "ai").
	Seed uint64
	AI   string
}

// Human is the replay's name of the person's seat.
const Human = "human"

// EndHeader is the first line the host prints after a game is over: the
// lines before it are the game as the person was told it, those after it
// the AI's secrets (its fleet, its reasons).
const EndHeader = "game over: the enemy's secrets follow"

func (o Options) seats(seat int) [2]replay.SeatInfo {
	ai := o.AI
	if ai == "" {
		ai = "ai"
	}
	var s [2]replay.SeatInfo
	s[seat], s[1-seat] = replay.SeatInfo{Seat: seat, Name: Human}, replay.SeatInfo{Seat: 1 - seat, Name: ai}
	return s
}

// reasons are the AI's explanations of its actions, kept for the end of
// the game.
type reasons struct {
	ex    explain.Explainer // nil: the AI gives none
	lines []string          // "n action: why", one per explained action
	last  string            // the summary of the AI's last action, for Options.Reveal
}

func newReasons(ai any) *reasons {
	ex, _ := ai.(explain.Explainer)
	return &reasons{ex: ex}
}

// take asks the AI why it chose its last action (n, said as action) and
// returns the decision for the replay (nil when it gives none).
func (rs *reasons) take(n int, action string) *explain.Decision {
	if rs.ex == nil {
		rs.last = ""
		return nil
	}
	d := explain.Full(rs.ex)
	rs.last = replay.Summarize(&d)
	if rs.last != "" {
		rs.lines = append(rs.lines, fmt.Sprintf("%4d %s: %s", n, action, rs.last))
	}
	return &d
}

// print writes the AI's reasons, one line per explained action.
func (rs *reasons) print(w io.Writer, ai string) {
	if ai == "" {
		ai = "the AI"
	}
	if len(rs.lines) == 0 {
		fmt.Fprintf(w, "%s gave no reasons\n", ai)
		return
	}
	fmt.Fprintf(w, "why %s chose each of its actions (action number, action: reason):\n", ai)
	for _, l := range rs.lines {
		fmt.Fprintln(w, l)
	}
}

// PlayAgainst is PlayAgainstWith with the zero Options: no why lines
// during play, no replay.
func PlayAgainst(r *submarine.Rules, h *Seat, ai players.Player, seat int) (game.Status, int) {
	o, w, _ := PlayAgainstWith(r, h, ai, seat, Options{})
	return o, w
}

// PlayAgainstWith plays one game in-process between the seat h, in seat
// `seat` (seat 0 acts first), and ai, reporting to h's output. During
// play the person is told only what the rules tell a seat (the AI's
// reasons only with opt.Reveal). When the game is over it prints
// EndHeader, the AI's fleet, the result and the AI's reasons for each of
// its actions, and returns the outcome, the winning seat (-1 on a draw)
// and the replay's write error. A seat that placed illegally (the human's
// input ended) loses, as on a server.
func PlayAgainstWith(r *submarine.Rules, h *Seat, ai players.Player, seat int, opt Options) (game.Status, int, error) {
	why := newReasons(ai)
	if opt.Reveal {
		h.AfterOpponent = func() string { return why.last }
	}
	var rec *subrecord.Writer
	if opt.Replay != nil {
		rec = subrecord.NewWriter(opt.Replay, r, subrecord.Header{Seed: opt.Seed, Players: opt.seats(seat)})
	}
	var p [2]players.Player
	p[seat], p[1-seat] = h, ai
	var place [2]submarine.Placement
	for s := range 2 {
		place[s] = p[s].Place()
		if rec != nil {
			rec.Placement(s, place[s])
		}
	}
	g, err := submarine.NewGame(r, place[0], place[1], 0)
	if err != nil {
		// The AI's placements are valid: only the human's can fail.
		fmt.Fprintf(h.out, "no game: %v\n", err)
		if rec != nil {
			rec.Result(subrecord.Result{Outcome: replay.OutcomeWin, Winner: 1 - seat,
				Forfeits: []replay.Forfeit{{Seat: seat, Kind: replay.ForfeitPlacement, Reason: err.Error()}}})
			return game.Won, 1 - seat, rec.Flush()
		}
		return game.Won, 1 - seat, nil
	}
	var v submarine.View
	for s := range 2 {
		g.ViewInto(s, &v)
		p[s].Observe(submarine.Event{Kind: submarine.Invalid}, &v)
	}
	var forfeits []replay.Forfeit
	for g.Status() == game.Running {
		s := g.ToAct()
		a := p[s].Act()
		var d *explain.Decision
		if s != seat {
			d = why.take(g.Actions()+1, actionText(r, a))
		}
		st, err := g.Apply(a)
		if err != nil {
			forfeits = append(forfeits, replay.Forfeit{Seat: s, Kind: replay.ForfeitIllegal, Reason: err.Error()})
		}
		if rec != nil {
			rec.Step(g.Actions(), &st, err, d)
		}
		g.ViewInto(s, &v)
		p[s].Observe(st.Actor, &v)
		g.ViewInto(1-s, &v)
		p[1-s].Observe(st.Other, &v)
	}
	fmt.Fprintln(h.out, EndHeader)
	enemy := g.Fleet(1 - seat)
	var cells []string
	for i, sh := range r.Fleet {
		if enemy.HP[i] > 0 {
			cells = append(cells, fmt.Sprintf("%s at %s", sh.Name, r.CellName(enemy.Pos[i])))
		} else {
			cells = append(cells, sh.Name+" sunk")
		}
	}
	fmt.Fprintf(h.out, "the enemy fleet: %s\n", strings.Join(cells, ", "))
	switch {
	case g.Status() == game.Drawn:
		fmt.Fprintf(h.out, "draw after %d actions\n", g.Actions())
	case g.Winner() == seat:
		fmt.Fprintf(h.out, "you win after %d actions\n", g.Actions())
	default:
		fmt.Fprintf(h.out, "you lose after %d actions\n", g.Actions())
	}
	why.print(h.out, opt.AI)
	winner := g.Winner()
	if g.Status() == game.Drawn {
		winner = -1
	}
	if rec == nil {
		return g.Status(), winner, nil
	}
	res := subrecord.Result{Outcome: replay.OutcomeWin, Winner: winner, Actions: g.Actions(), Forfeits: forfeits}
	if g.Status() == game.Drawn {
		res.Outcome = replay.OutcomeDraw
	}
	rec.Result(res)
	return g.Status(), winner, rec.Flush()
}

// actionText says a submarine action in the seat's words ("attack [2,3]",
// "move w to [1,0]").
func actionText(r *submarine.Rules, a submarine.Action) string {
	switch a.Kind {
	case submarine.Attack:
		return "attack " + r.CellName(a.To)
	case submarine.Move:
		if a.Ship >= 0 && a.Ship < len(r.Fleet) {
			return fmt.Sprintf("move %s to %s", r.Fleet[a.Ship].Name, r.CellName(a.To))
		}
	}
	return a.Kind.String()
}

// PlayBattleshipAgainst is PlayBattleshipAgainstWith with the zero
// Options: no why lines during play, no replay.
func PlayBattleshipAgainst(r *battleship.Rules, h *BattleshipSeat, ai bsplayers.Player, seat int) bsplayers.Result {
	res, _ := PlayBattleshipAgainstWith(r, h, ai, seat, Options{})
	return res
}

// PlayBattleshipAgainstWith plays one Battleship game in-process between
// the seat h, in seat `seat` (seat 0 shoots first), and ai, reporting to
// h's output. During play the person is told only what the rules tell a
// seat (the AI's reasons only with opt.Reveal). When the game is over it
// prints EndHeader, the AI's fleet, the result and the AI's reasons for
// each of its shots, and returns how the game ended and the replay's
// write error. A seat whose fleet is not legal loses, as on a server.
func PlayBattleshipAgainstWith(r *battleship.Rules, h *BattleshipSeat, ai bsplayers.Player, seat int, opt Options) (bsplayers.Result, error) {
	why := newReasons(ai)
	if opt.Reveal {
		h.AfterOpponent = func() string { return why.last }
	}
	var rec *bsrecord.Writer
	if opt.Replay != nil {
		rec = bsrecord.NewWriter(opt.Replay, r, bsrecord.Header{Seed: opt.Seed, Players: opt.seats(seat)})
	}
	var ps [2]bsplayers.Player
	ps[seat], ps[1-seat] = h, ai
	res := bsplayers.Result{Winner: -1}
	var (
		layouts  [2]battleship.Placement
		forfeits []replay.Forfeit
	)
	for s, p := range ps {
		layouts[s] = p.Place()
		if rec != nil {
			rec.Placement(s, layouts[s])
		}
		if err := r.ValidatePlacement(layouts[s]); err != nil {
			forfeits = append(forfeits, replay.Forfeit{Seat: s, Kind: replay.ForfeitPlacement, Reason: err.Error()})
			res.Err = fmt.Errorf("human: seat %d placement: %w", s, err)
		}
	}
	var g *battleship.Game
	if res.Err == nil {
		var err error
		if g, err = battleship.NewGame(r, layouts[0], layouts[1], 0); err != nil {
			res.Err = err // the placements were validated
		}
	}
	if g == nil {
		fmt.Fprintf(h.out, "no game: %v\n", res.Err)
		res.Status = game.Drawn
		if len(forfeits) == 1 {
			res.Status, res.Winner = game.Won, 1-forfeits[0].Seat
		}
	} else {
		for n := 1; g.Status() == game.Running; n++ {
			s := g.ToAct()
			c := ps[s].Shoot()
			var d *explain.Decision
			if s != seat {
				d = why.take(n, shotText(r, c))
			}
			st, err := g.Apply(c)
			if err != nil {
				forfeits = append(forfeits, replay.Forfeit{Seat: s, Kind: replay.ForfeitIllegal, Reason: err.Error()})
				res.Err = fmt.Errorf("human: seat %d: %w", s, err)
			}
			if rec != nil {
				rec.Shot(n, &st, err, d)
			}
			ps[s].Observe(st.Shooter)
			ps[1-s].Observe(st.Defender)
		}
		res.Status, res.Winner = g.Status(), g.Winner()
		res.Shots = [2]int{g.Shots(0), g.Shots(1)}
	}
	fmt.Fprintln(h.out, EndHeader)
	if l := layouts[1-seat]; l != nil {
		names := make([]string, len(l))
		for i, s := range l.Normalize() {
			names[i] = r.ShipCoord(s, false)
		}
		fmt.Fprintf(h.out, "the enemy fleet: %s\n", strings.Join(names, " "))
	}
	switch res.Winner {
	case seat:
		fmt.Fprintf(h.out, "you win: %d shots (the enemy fired %d)\n", res.Shots[seat], res.Shots[1-seat])
	case 1 - seat:
		fmt.Fprintf(h.out, "you lose: the enemy sank your fleet in %d shots (you fired %d)\n", res.Shots[1-seat], res.Shots[seat])
	default:
		fmt.Fprintf(h.out, "draw after %d shots\n", res.Shots[0]+res.Shots[1])
	}
	why.print(h.out, opt.AI)
	if rec == nil {
		return res, nil
	}
	out := bsrecord.Result{Outcome: replay.OutcomeWin, Winner: res.Winner, Shots: res.Shots, Forfeits: forfeits}
	if res.Winner == -1 {
		out.Outcome = replay.OutcomeDraw
	}
	rec.Result(out)
	return res, rec.Flush()
}

// shotText says a shot as the seat types it ("E5"), or its raw cell when
// it is off the board.
func shotText(r *battleship.Rules, c grid.Cell) string {
	if c < 0 || int(c) >= r.Board.Size() {
		return fmt.Sprintf("cell %d", c)
	}
	return "shot " + r.Coord(c, false)
}
