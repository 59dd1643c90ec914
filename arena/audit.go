package arena

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/audit"
	"github.com/kaisen-ai/kaisen/game/submarine"
)

// AuditSummary is the solver audit of a match (Match.Audit, package audit):
// which games a player lost after a position that the exact endgame solver
// holds for it.
type AuditSummary struct {
	Rules *submarine.Rules // the match's rules (to name the actions)
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
}

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

func (a *AuditSummary) merge(b *AuditSummary) {
	a.Games += b.Games
	a.Known += b.Known
	a.Thrown = append(a.Thrown, b.Thrown...)
	a.Unproved = append(a.Unproved, b.Unproved...)
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
}

// auditGame audits one finished game of the table (the actions it
// recorded), unless a seat forfeited (the game did not end by the rules).
func (t *table) auditGame(res *GameResult, pl [2]submarine.Placement) error {
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
	rep, err := t.auditor.Game(pl, 0, t.moves)
	if err != nil {
		return fmt.Errorf("arena: game %d: %w", res.Index, err)
	}
	res.Audit = &rep
	return nil
}
