package cli

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/audit"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
)

// auditJSON is kaisen match --audit's "audit" object.
type auditJSON struct {
	Games    int             `json:"games"`     // games audited (forfeits are not)
	Known    int             `json:"known"`     // games that reached perfect information
	P1Thrown int             `json:"p1_thrown"` // proven throws by p1
	P2Thrown int             `json:"p2_thrown"` // proven throws by p2
	Thrown   []auditGameJSON `json:"thrown"`    // the games lost after a drawn or won position
	Unproved []auditGameJSON `json:"unproved"`  // lost from a position the search could not value
	// How each player's games went by the solver (audit.Report.Class): p1
	// then p2.
	Players []auditPlayerJSON `json:"players"`
}

// auditClassKeys name the classes of audit.Class in JSON.
var auditClassKeys = [audit.NumClasses]string{
	audit.WonHidden:      "won_hidden",
	audit.WonFromWon:     "won_from_won",
	audit.WonFromHeld:    "won_from_held",
	audit.WonFromUnknown: "won_from_unknown",
	audit.ForcedDraw:     "forced_draw",
	audit.ForcedLoss:     "forced_loss",
	audit.NotWonUnknown:  "not_won_unknown",
	audit.MissedWin:      "missed_win",
	audit.HiddenOneSided: "hidden_one_sided",
	audit.HiddenLocated:  "hidden_located",
	audit.HiddenBoth:     "hidden_both",
}

// auditPlayerJSON is one player's audit.
type auditPlayerJSON struct {
	Player  string         `json:"player"` // p1 or p2
	Name    string         `json:"name"`
	Classes map[string]int `json:"classes"` // games by class (auditClassKeys)
	// Wins after perfect information by the loser's ships sunk before it:
	// element k counts those with k sunk.
	WinSunkBefore []int            `json:"win_sunk_before"`
	Forced        []auditPointJSON `json:"forced"` // the forced draws, with their first known position
	Missed        []auditPointJSON `json:"missed"` // the known positions won for the player it did not convert
}

// auditPointJSON is a known position of one game, for one player.
type auditPointJSON struct {
	Index    int    `json:"index"`
	Seed     uint64 `json:"seed"`
	Seat     int    `json:"seat"`
	Lost     bool   `json:"lost"`     // the player lost the game in the end
	Ply      int    `json:"ply"`      // actions played before the position
	Material string `json:"material"` // the player's hp against the enemy's, e.g. "3+2 vs 2"
	Value    string `json:"value"`    // the solver's value for the player
}

// auditGameJSON is one flagged game.
type auditGameJSON struct {
	Index  int              `json:"index"`
	Seed   uint64           `json:"seed"`
	Player string           `json:"player"` // p1 or p2: who threw the position
	Name   string           `json:"name"`
	Ply    int              `json:"ply"` // the action's number, from 1
	Action subrecord.Action `json:"action"`
	Before string           `json:"before"` // the value for the player before the action
	After  string           `json:"after"`  // and after it
}

func auditJSONOf(s *arena.Summary) *auditJSON {
	a := s.Audit
	if a == nil {
		return nil
	}
	out := &auditJSON{Games: a.Games, Known: a.Known, Thrown: auditGames(a, a.Thrown), Unproved: auditGames(a, a.Unproved)}
	out.P1Thrown, out.P2Thrown = a.ThrownBy()
	for pl, name := range [2]string{s.P1, s.P2} {
		out.Players = append(out.Players, auditPlayerOf(&a.Players[pl], fmt.Sprintf("p%d", pl+1), name, len(a.Rules.Fleet)))
	}
	return out
}

func auditPlayerOf(p *arena.AuditPlayer, player, name string, ships int) auditPlayerJSON {
	out := auditPlayerJSON{Player: player, Name: name, Classes: make(map[string]int, audit.NumClasses),
		WinSunkBefore: append([]int(nil), p.WinSunkBefore[:ships+1]...)}
	for c, k := range auditClassKeys {
		out.Classes[k] = p.Classes[c]
	}
	points := func(l []arena.AuditedPoint) []auditPointJSON {
		ps := make([]auditPointJSON, 0, len(l))
		for i := range l {
			pt := &l[i]
			ps = append(ps, auditPointJSON{Index: pt.Index, Seed: pt.Seed, Seat: pt.Seat, Lost: pt.Lost,
				Ply: pt.Point.Ply, Material: pt.Material(), Value: pt.Value().String()})
		}
		return ps
	}
	out.Forced, out.Missed = points(p.Forced), points(p.Missed)
	return out
}

func auditGames(a *arena.AuditSummary, gs []arena.AuditedGame) []auditGameJSON {
	out := make([]auditGameJSON, 0, len(gs))
	for _, g := range gs {
		out = append(out, auditGameJSON{Index: g.Index, Seed: g.Seed, Player: g.Player, Name: g.Name, Ply: g.Throw.Ply,
			Action: subrecord.EncodeAction(a.Rules, g.Throw.Action), Before: g.Throw.Before.String(), After: g.Throw.After.String()})
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
	if err != nil {
		return err
	}
	return writeAuditClasses(w, s)
}

// writeAuditClasses prints how each player's games went by the solver: the
// classes, the wins by phase, the forced draws by material and the wins not
// converted.
func writeAuditClasses(w io.Writer, s *arena.Summary) error {
	a := s.Audit
	names := [2]string{"p1 " + s.P1, "p2 " + s.P2}
	fmt.Fprintln(w, "\nhow the games went, by the solver's value of the first position where both fleets are common knowledge:")
	width := len("not won:")
	for c := range audit.NumClasses {
		width = max(width, len(c.String()))
	}
	c1, c2 := max(len(names[0]), 5), max(len(names[1]), 5)
	fmt.Fprintf(w, "%-*s  %*s  %*s\n", width, "", c1, names[0], c2, names[1])
	for c := range audit.NumClasses {
		if c == audit.ForcedDraw {
			fmt.Fprintln(w, "not won:")
		}
		fmt.Fprintf(w, "%-*s  %*d  %*d\n", width, c, c1, a.Players[0].Classes[c], c2, a.Players[1].Classes[c])
	}
	ships := len(a.Rules.Fleet)
	for pl := range a.Players {
		p := &a.Players[pl]
		var parts []string
		for k, n := range p.WinSunkBefore[:ships+1] {
			if n > 0 {
				parts = append(parts, fmt.Sprintf("%d sunk before, %d after: %d", k, ships-k, n))
			}
		}
		if len(parts) > 0 {
			fmt.Fprintf(w, "%s's wins after perfect information, by the loser's ships sunk before it: %s\n", names[pl], strings.Join(parts, "; "))
		}
	}
	for pl := range a.Players {
		p := &a.Players[pl]
		if len(p.Forced) == 0 {
			continue
		}
		lost := 0
		byMat := map[string]int{}
		for i := range p.Forced {
			byMat[p.Forced[i].Material()]++
			if p.Forced[i].Lost {
				lost++
			}
		}
		mats := slices.Collect(maps.Keys(byMat))
		slices.SortFunc(mats, func(x, y string) int { return cmp.Or(cmp.Compare(byMat[y], byMat[x]), cmp.Compare(x, y)) })
		parts := make([]string, len(mats))
		for i, m := range mats {
			parts[i] = fmt.Sprintf("%s: %d", m, byMat[m])
		}
		fmt.Fprintf(w, "%s's forced draws (%d, later lost %d) by the first known position's material (its hp vs the enemy's): %s\n",
			names[pl], len(p.Forced), lost, strings.Join(parts, ", "))
	}
	var err error
	for pl := range a.Players {
		p := &a.Players[pl]
		_, err = fmt.Fprintf(w, "%s: known positions won for it not converted: %d\n", names[pl], len(p.Missed))
		for i := range p.Missed {
			pt := &p.Missed[i]
			_, err = fmt.Fprintf(w, "  game %d (seed %d): after action %d, %s: %s\n", pt.Index, pt.Seed, pt.Point.Ply, pt.Material(), pt.Value())
		}
	}
	return err
}
