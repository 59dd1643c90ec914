package cli

import (
	"encoding/json"
	"fmt"

	"github.com/kaisen-ai/kaisen/audit"
	"github.com/kaisen-ai/kaisen/replay"
)

// replayAuditJSON is kaisen replay --audit --json.
type replayAuditJSON struct {
	File   string       `json:"file"`
	Seed   uint64       `json:"seed"`
	Known  int          `json:"known"` // actions played when both fleets became common knowledge, -1: never
	Loser  int          `json:"loser"` // seat, -1: none
	Throw  *replayThrow `json:"throw"` // the loser's losing action, null when none
	Proven bool         `json:"proven"`
}

type replayThrow struct {
	Seat   int           `json:"seat"`
	Name   string        `json:"name"`
	Ply    int           `json:"ply"`
	Action replay.Action `json:"action"`
	Before string        `json:"before"`
	After  string        `json:"after"`
}

// auditReplay is kaisen replay --audit: the replay is verified against the
// rules, then audited with the exact solver.
func auditReplay(e *env, path string, asJSON bool) error {
	rp, err := replay.ReadSubmarineFile(path)
	if err != nil {
		return err
	}
	if err := replay.VerifySubmarine(rp); err != nil {
		return fmt.Errorf("%s: %w", path, err)
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
	out := replayAuditJSON{File: path, Seed: rp.Header.Seed, Known: rep.Known, Loser: rep.Loser}
	if t := rep.Throw; t != nil {
		out.Throw = &replayThrow{Seat: t.Seat, Name: rp.Header.Players[t.Seat].Name, Ply: t.Ply,
			Action: replay.EncodeAction(r, t.Action), Before: t.Before.String(), After: t.After.String()}
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
	return err
}
