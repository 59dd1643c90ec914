package arena

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/audit"
	"github.com/kaisen-ai/kaisen/endgame"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// AuditSummary is the solver audit of a match (Match.Audit, package audit):
// which games a player lost after a position that the exact endgame solver
// holds for it.
type AuditSummary struct {
	Rules *submarine.Rules `json:"-"` // the match's rules (to name the actions)
	Games int              // games audited
	Known int              // games that reached perfect information (both fleets common knowledge)
	// Thrown lists the games lost by an action that turned a position the
	// solver valued drawn or won for the loser into a lost one (proven
	// throws), by game index.
	Thrown []AuditedGame
	// Unproved lists the games whose losing action left a position the
	// solver's bounded search could not value (three ships against two or
	// three: probably drawn, not proved) for a lost one.
	Unproved []AuditedGame
	// Players is, by player (0: P1, 1: P2), how its games went by the
	// solver (audit.Report.Class).
	Players [2]AuditPlayer
}

// AuditPlayer is how one player's games of a match went by the solver.
type AuditPlayer struct {
	Classes [audit.NumClasses]int // games by class
	// WinSunkBefore counts the player's wins after perfect information (the
	// classes audit.WonFrom*) by the number of the loser's ships sunk
	// before it (0 to the fleet's size).
	WinSunkBefore [submarine.MaxShips + 1]int
	// Forced lists the draws forced under perfect information
	// (audit.ForcedDraw) with their first known position; Missed the known
	// positions won for the player that it did not convert
	// (audit.MissedWin). By game index.
	Forced, Missed []AuditedPoint
}

// AuditedPoint is a known position of one game, seen by one player.
type AuditedPoint struct {
	Index int    // game number in the match
	Seed  uint64 // the game's seed
	Seat  int    // the player's seat in that game
	Lost  bool   // the player lost the game
	Point audit.Point
}

// Material is the point's material for the player (audit.Point.Material).
func (p *AuditedPoint) Material() string { return p.Point.Material(p.Seat) }

// Value is the point's value for the player.
func (p *AuditedPoint) Value() endgame.Value { return p.Point.For(p.Seat) }

// AuditedGame is one game the audit flags.
type AuditedGame struct {
	Index  int    // game number in the match
	Seed   uint64 // the game's seed
	Player string // "p1" or "p2": who threw the position
	Name   string // that player's name
	Throw  audit.Throw
}

// ThrownBy counts the proven throws by P1 and by P2.
func (a *AuditSummary) ThrownBy() (p1, p2 int) {
	for _, g := range a.Thrown {
		if g.Player == "p1" {
			p1++
		} else {
			p2++
		}
	}
	return p1, p2
}

func (a *AuditSummary) add(r *GameResult) {
	if r.Audit == nil {
		return
	}
	a.Games++
	rep := r.Audit
	if rep.Known >= 0 {
		a.Known++
	}
	for pl := range a.Players {
		seat := r.P1Seat
		if pl == 1 {
			seat = 1 - seat
		}
		a.Players[pl].add(r, rep, seat)
	}
	if rep.Throw == nil {
		return
	}
	g := AuditedGame{Index: r.Index, Seed: r.Seed, Player: "p1", Throw: *rep.Throw}
	if rep.Throw.Seat != r.P1Seat {
		g.Player = "p2"
	}
	if rep.Throw.Proven() {
		a.Thrown = append(a.Thrown, g)
	} else {
		a.Unproved = append(a.Unproved, g)
	}
}

func (p *AuditPlayer) add(r *GameResult, rep *audit.Report, seat int) {
	c := rep.Class(seat)
	p.Classes[c]++
	if c.Won() && rep.First != nil {
		p.WinSunkBefore[rep.SunkBefore[1-seat]]++
	}
	pt := AuditedPoint{Index: r.Index, Seed: r.Seed, Seat: seat, Lost: rep.Loser == seat}
	switch c {
	case audit.ForcedDraw:
		pt.Point = *rep.First
		p.Forced = append(p.Forced, pt)
	case audit.MissedWin:
		pt.Point = *rep.Missed[seat]
		p.Missed = append(p.Missed, pt)
	}
}

func (a *AuditSummary) merge(b *AuditSummary) {
	a.Games += b.Games
	a.Known += b.Known
	a.Thrown = append(a.Thrown, b.Thrown...)
	a.Unproved = append(a.Unproved, b.Unproved...)
	for pl := range a.Players {
		p, q := &a.Players[pl], &b.Players[pl]
		for c := range p.Classes {
			p.Classes[c] += q.Classes[c]
		}
		for k := range p.WinSunkBefore {
			p.WinSunkBefore[k] += q.WinSunkBefore[k]
		}
		p.Forced = append(p.Forced, q.Forced...)
		p.Missed = append(p.Missed, q.Missed...)
	}
}

// finish sorts the flagged games by index and names their players.
func (a *AuditSummary) finish(p1, p2 string) {
	for _, l := range [][]AuditedGame{a.Thrown, a.Unproved} {
		slices.SortFunc(l, func(x, y AuditedGame) int { return cmp.Compare(x.Index, y.Index) })
		for i := range l {
			l[i].Name = p1
			if l[i].Player == "p2" {
				l[i].Name = p2
			}
		}
	}
	for pl := range a.Players {
		for _, l := range [][]AuditedPoint{a.Players[pl].Forced, a.Players[pl].Missed} {
			slices.SortFunc(l, func(x, y AuditedPoint) int { return cmp.Compare(x.Index, y.Index) })
		}
	}
}

// auditGame audits one finished game of the table (the actions it
// recorded), unless a seat forfeited (the game did not end by the rules).
func (t *subAudit) auditGame(res *GameResult) error {
	if res.Forfeit[0] || res.Forfeit[1] {
		return nil
	}
	if t.auditor == nil {
		a, err := audit.New(t.rules, audit.Options{})
		if err != nil {
			return fmt.Errorf("arena: %w", err)
		}
		t.auditor = a
	}
	rep, err := t.auditor.Game(t.placed, 0, t.moves)
	if err != nil {
		return fmt.Errorf("arena: game %d: %w", res.Index, err)
	}
	res.Audit = &rep
	return nil
}

// Add counts one audited game (r.Audit set; a game without it is skipped)
// as a match does, for summaries of games audited elsewhere (from their
// replays, say); Finish then sorts the lists and names the players.
func (a *AuditSummary) Add(r *GameResult) { a.add(r) }

// Merge adds b's games to a (a match's shards, say); Finish then sorts
// the lists as a whole match's.
func (a *AuditSummary) Merge(b *AuditSummary) { a.merge(b) }

// Finish sorts the flagged games and points by index and names the
// players of the flagged games, as a match does at its end.
func (a *AuditSummary) Finish(p1, p2 string) { a.finish(p1, p2) }
