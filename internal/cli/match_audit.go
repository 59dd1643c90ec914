package cli

import (
	"fmt"
	"io"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/replay"
)

// auditJSON is kaisen match --audit's "audit" object.
type auditJSON struct {
	Games    int             `json:"games"`     // games audited (forfeits are not)
	Known    int             `json:"known"`     // games that reached perfect information
	P1Thrown int             `json:"p1_thrown"` // proven throws by p1
	P2Thrown int             `json:"p2_thrown"` // proven throws by p2
	Thrown   []auditGameJSON `json:"thrown"`    // the games lost after a drawn or won position
	Unproved []auditGameJSON `json:"unproved"`  // lost from a position the search could not value
}

// auditGameJSON is one flagged game.
type auditGameJSON struct {
	Index  int           `json:"index"`
	Seed   uint64        `json:"seed"`
	Player string        `json:"player"` // p1 or p2: who threw the position
	Name   string        `json:"name"`
	Ply    int           `json:"ply"` // the action's number, from 1
	Action replay.Action `json:"action"`
	Before string        `json:"before"` // the value for the player before the action
	After  string        `json:"after"`  // and after it
}

func auditJSONOf(s *arena.Summary) *auditJSON {
	a := s.Audit
	if a == nil {
		return nil
	}
	out := &auditJSON{Games: a.Games, Known: a.Known, Thrown: auditGames(a, a.Thrown), Unproved: auditGames(a, a.Unproved)}
	out.P1Thrown, out.P2Thrown = a.ThrownBy()
	return out
}

func auditGames(a *arena.AuditSummary, gs []arena.AuditedGame) []auditGameJSON {
	out := make([]auditGameJSON, 0, len(gs))
	for _, g := range gs {
		out = append(out, auditGameJSON{Index: g.Index, Seed: g.Seed, Player: g.Player, Name: g.Name, Ply: g.Throw.Ply,
			Action: replay.EncodeAction(a.Rules, g.Throw.Action), Before: g.Throw.Before.String(), After: g.Throw.After.String()})
	}
	return out
}

// writeAuditTable prints the audit under kaisen match's table.
func writeAuditTable(w io.Writer, s *arena.Summary) error {
	a := s.Audit
	if a == nil {
		return nil
	}
	p1, p2 := a.ThrownBy()
	fmt.Fprintf(w, "\nsolver audit: %d games audited, %d reached perfect information\n", a.Games, a.Known)
	fmt.Fprintf(w, "lost after a position the solver holds (drawn or won): p1 %s %d, p2 %s %d\n", s.P1, p1, s.P2, p2)
	list := func(gs []arena.AuditedGame) {
		for _, g := range gs {
			fmt.Fprintf(w, "  game %d (seed %d): %s %s, %s\n", g.Index, g.Seed, g.Player, g.Name, g.Throw.Describe(a.Rules))
		}
	}
	list(a.Thrown)
	_, err := fmt.Fprintf(w, "lost from a position the bounded search could not value (3 ships against 2 or 3): %d\n", len(a.Unproved))
	list(a.Unproved)
	return err
}
