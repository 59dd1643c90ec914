package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/audit"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
)

// errNoReplays is wrapped when a directory holds no replays to audit
// together.
var errNoReplays = errors.New("replay: nothing to audit")

// replayAuditJSON is kaisen replay --audit --json.
type replayAuditJSON struct {
	File   string       `json:"file"`
	Seed   uint64       `json:"seed"`
	Known  int          `json:"known"` // actions played when both fleets became common knowledge, -1: never
	Loser  int          `json:"loser"` // seat, -1: none
	Throw  *replayThrow `json:"throw"` // the loser's losing action, null when none
	Proven bool         `json:"proven"`
	Winner int          `json:"winner"` // seat, -1: none
	// Located is, by seat, the actions played when that seat's fleet
	// became common knowledge, -1: never.
	Located [2]int `json:"located"`
	// First is the first position where both fleets are common knowledge,
	// null when none; its material and value are seat 0's.
	First *replayPoint `json:"first"`
	// Classes is, by seat, how its game went (the keys of kaisen match
	// --audit --json's "classes").
	Classes [2]string `json:"classes"`
	// Missed is, by seat, the first known position won for it that it did
	// not convert (material and value for that seat), null when none.
	Missed [2]*replayPoint `json:"missed"`
	// SunkBefore is, by seat, its ships sunk before perfect information
	// (all of them when it never came); Sunk in the whole game.
	SunkBefore [2]int `json:"sunk_before"`
	Sunk       [2]int `json:"sunk"`
}

// replayPoint is a known position seen by one seat.
type replayPoint struct {
	Ply      int    `json:"ply"` // actions played before it
	Turn     int    `json:"turn"`
	Material string `json:"material"`
	Value    string `json:"value"`
}

func replayPointOf(p *audit.Point, seat int) *replayPoint {
	if p == nil {
		return nil
	}
	return &replayPoint{Ply: p.Ply, Turn: p.Turn, Material: p.Material(seat), Value: p.For(seat).String()}
}

type replayThrow struct {
	Seat   int              `json:"seat"`
	Name   string           `json:"name"`
	Ply    int              `json:"ply"`
	Action subrecord.Action `json:"action"`
	Before string           `json:"before"`
	After  string           `json:"after"`
}

// readAudited reads and verifies a submarine replay.
func readAudited(path string) (*subrecord.Replay, error) {
	rp, err := subrecord.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if err := subrecord.Verify(rp); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rp, nil
}

// auditReplay is kaisen replay --audit: the replay is verified against the
// rules, then audited with the exact solver. A directory audits every
// replay in it (auditReplayDir).
func auditReplay(e *env, path string, asJSON bool) error {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return auditReplayDir(e, path, asJSON)
	}
	rp, err := readAudited(path)
	if err != nil {
		return err
	}
	a, err := audit.ForReplay(rp, audit.Options{})
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	rep, err := a.Replay(rp)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	r, err := rp.Rules()
	if err != nil {
		return err
	}
	out := replayAuditJSON{File: path, Seed: rp.Header.Seed, Known: rep.Known, Loser: rep.Loser, Winner: rep.Winner,
		Located: rep.Located, First: replayPointOf(rep.First, 0), SunkBefore: rep.SunkBefore, Sunk: rep.Sunk}
	for seat := range out.Classes {
		out.Classes[seat] = auditClassKeys[rep.Class(seat)]
		out.Missed[seat] = replayPointOf(rep.Missed[seat], seat)
	}
	if t := rep.Throw; t != nil {
		out.Throw = &replayThrow{Seat: t.Seat, Name: rp.Header.Players[t.Seat].Name, Ply: t.Ply,
			Action: subrecord.EncodeAction(r, t.Action), Before: t.Before.String(), After: t.After.String()}
		out.Proven = t.Proven()
	}
	if asJSON {
		return json.NewEncoder(e.stdout).Encode(out)
	}
	w := e.stdout
	switch {
	case rep.Known < 0:
		fmt.Fprintf(w, "%s: both fleets never became common knowledge\n", path)
	default:
		fmt.Fprintf(w, "%s: both fleets common knowledge after action %d\n", path, rep.Known)
	}
	switch t := rep.Throw; {
	case rep.Loser < 0:
		_, err = fmt.Fprintln(w, "no loser: nothing to audit")
	case t == nil:
		_, err = fmt.Fprintf(w, "seat %d (%s) lost; no position the solver holds was thrown away\n", rep.Loser, rp.Header.Players[rep.Loser].Name)
	case t.Proven():
		_, err = fmt.Fprintf(w, "seat %d (%s) lost a position the solver holds: %s\n", t.Seat, out.Throw.Name, t.Describe(r))
	default:
		_, err = fmt.Fprintf(w, "seat %d (%s) lost from a position the bounded search could not value: %s\n", t.Seat, out.Throw.Name, t.Describe(r))
	}
	if err != nil {
		return err
	}
	return writeReplayClasses(w, rp, &rep)
}

// writeReplayClasses says how the game went for each seat by the solver.
func writeReplayClasses(w io.Writer, rp *subrecord.Replay, rep *audit.Report) error {
	for seat := range 2 {
		name := rp.Header.Players[seat].Name
		c := rep.Class(seat)
		fmt.Fprintf(w, "seat %d (%s): %s", seat, name, c)
		switch {
		case c.Won():
			fmt.Fprintf(w, "; the loser's ships sunk before perfect information: %d of %d", rep.SunkBefore[1-seat], rep.Sunk[1-seat])
		case c == audit.MissedWin:
			m := rep.Missed[seat]
			fmt.Fprintf(w, ": after action %d, %s, %s", m.Ply, m.Material(seat), m.For(seat))
		}
		if rep.First != nil {
			fmt.Fprintf(w, "; first known position after action %d: %s, %s for it", rep.First.Ply, rep.First.Material(seat), rep.First.For(seat))
		}
		if _, err := fmt.Fprintln(w); err != nil {
			return err
		}
	}
	return nil
}

// replayDirJSON is kaisen replay --audit DIR --json.
type replayDirJSON struct {
	Dir string `json:"dir"`
	resultJSON
	Forfeits       int        `json:"forfeits"`        // games lost by an illegal action (not audited)
	LongestDecided int        `json:"longest_decided"` // actions of the longest game won by a player
	Audit          *auditJSON `json:"audit"`
}

// auditReplayDir audits every replay (*.jsonl) of a directory, as kaisen
// match --audit audits the games it plays: the players are the header's
// roles p1 and p2 (seat 0 is p1 when there are none), the game numbers the
// header's match index (else the file's rank).
func auditReplayDir(e *env, dir string, asJSON bool) error {
	files, err := filepath.Glob(filepath.Join(dir, "*.jsonl"))
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return fmt.Errorf("%s: %w: no replay (*.jsonl) in the directory", dir, errNoReplays)
	}
	out := replayDirJSON{Dir: dir}
	var (
		a     *audit.Auditor
		rules subrecord.Rules
		sum   arena.AuditSummary
	)
	for i, path := range files {
		rp, err := readAudited(path)
		if err != nil {
			return err
		}
		p1 := 0
		if rp.Header.Players[1].Role == "p1" {
			p1 = 1
		}
		if a == nil {
			if a, err = audit.ForReplay(rp, audit.Options{}); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			rules = rp.Header.Rules
			if sum.Rules, err = rp.Rules(); err != nil {
				return fmt.Errorf("%s: %w", path, err)
			}
			out.P1, out.P2 = rp.Header.Players[p1].Name, rp.Header.Players[1-p1].Name
		} else if !reflect.DeepEqual(rp.Header.Rules, rules) {
			return fmt.Errorf("%s: %w: its rules differ from those of %s", path, errNoReplays, files[0])
		}
		if n := len(rp.Steps); n > 0 && rp.Steps[n-1].Error != "" {
			out.Forfeits++
			continue
		}
		rep, err := a.Replay(rp)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		res := arena.GameResult{Index: i, Seed: rp.Header.Seed, P1Seat: p1, Winner: rep.Winner, Actions: len(rp.Steps), Audit: &rep}
		if rp.Header.Match != nil {
			res.Index = rp.Header.Match.Index
		}
		switch {
		case rep.Winner < 0:
			out.Draws++
		case rep.Winner == p1:
			out.P1Wins++
		default:
			out.P2Wins++
		}
		if rep.Winner >= 0 {
			out.LongestDecided = max(out.LongestDecided, res.Actions)
		}
		sum.Add(&res)
	}
	out.Games = len(files)
	sum.Finish(out.P1, out.P2)
	s := &arena.Summary{P1: out.P1, P2: out.P2, Audit: &sum}
	out.Audit = auditJSONOf(s)
	if asJSON {
		return json.NewEncoder(e.stdout).Encode(out)
	}
	w := e.stdout
	n := out.Games
	d := len(fmt.Sprint(n))
	fmt.Fprintf(w, "%d replays in %s: p1 %s vs p2 %s\n", n, dir, out.P1, out.P2)
	fmt.Fprintf(w, "p1 wins %s\ndraws   %s\np2 wins %s\nforfeits %d (not audited)\n", share(out.P1Wins, n, d), share(out.Draws, n, d), share(out.P2Wins, n, d), out.Forfeits)
	fmt.Fprintf(w, "longest game won by a player: %d actions\n", out.LongestDecided)
	return writeAuditTable(w, s)
}
