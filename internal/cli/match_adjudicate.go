package cli

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/replay"
)

// adjudicateFlags are match's adjudication settings (--adjudicate,
// --max-actions): research runs only, off by default.
type adjudicateFlags struct {
	spec       string // --adjudicate: "draw=K"
	maxActions int    // --max-actions: the cap, 0 for none
	// parsed is the settings once checked (runMatch), nil when off.
	parsed *replay.Adjudication
}

// adjudicateHelp is match's help on adjudication.
const adjudicateHelp = `

Adjudication (research runs; off by default, never part of the served
rules, so the published figures stay): --adjudicate draw=K (submarine)
ends a game as a draw after an action that leaves both fleets common
knowledge (the public beliefs of kaisen match --audit), a position the
exact endgame solver's tablebase values drawn, and none of the last K
actions a hit. --max-actions N ends a game still running after N actions
as a draw (every game), distinct from the rules' draw limit. The summary
counts the adjudicated games ("adjudicated: ..."; --json "adjudicated"),
and a replay records the settings in its header ("adjudication") and the
reason in its result line ("adjudicated": "solver draw" or "cap"): it
verifies only when the adjudication it records fires exactly there. The
results stay the same for a --seed whatever --workers. Not with exec:
players, --shard or --nats.`

// addAdjudicateFlags registers --adjudicate and --max-actions.
func addAdjudicateFlags(cmd *cobra.Command, f *adjudicateFlags) {
	fl := cmd.Flags()
	fl.StringVar(&f.spec, "adjudicate", "", "end games early as draws: draw=K (submarine), once both fleets are common knowledge, the endgame solver values the position drawn and K actions passed without a hit (research runs; off by default)")
	fl.IntVar(&f.maxActions, "max-actions", 0, "end a game still running after this many actions as a draw, adjudicated (0: no cap; research runs)")
}

// settings are the adjudication of the flags, nil when off.
func (f *adjudicateFlags) settings() (*replay.Adjudication, error) {
	a, err := parseAdjudication(f.spec)
	if err != nil {
		return nil, &UsageError{Err: fmt.Errorf("--adjudicate: %w", err)}
	}
	if f.maxActions < 0 {
		return nil, usageError("--max-actions %d: want 0 (no cap) or more", f.maxActions)
	}
	a.MaxActions = f.maxActions
	if !a.On() {
		return nil, nil
	}
	return &a, nil
}

// parseAdjudication reads --adjudicate's key=value list: "draw=K" (K >= 1).
func parseAdjudication(text string) (replay.Adjudication, error) {
	var a replay.Adjudication
	for field := range strings.SplitSeq(text, ",") {
		field = strings.TrimSpace(field)
		if field == "" {
			continue
		}
		k, v, ok := strings.Cut(field, "=")
		if !ok {
			return a, fmt.Errorf("%q: want key=value, e.g. draw=200", field)
		}
		switch strings.TrimSpace(k) {
		case "draw":
			n, err := strconv.Atoi(strings.TrimSpace(v))
			if err != nil || n < 1 {
				return a, fmt.Errorf("draw=%s: want a number of actions without a hit, 1 or more", v)
			}
			a.Draw = n
		default:
			return a, fmt.Errorf("unknown key %q (keys: draw)", k)
		}
	}
	return a, nil
}

// adjudicatedJSON is the "adjudicated" object of match's --json: the
// settings and the games the adjudication ended.
type adjudicatedJSON struct {
	Settings   string `json:"settings"`              // e.g. "draw=200, max-actions=5000"
	Draw       int    `json:"draw,omitempty"`        // K of --adjudicate draw=K
	MaxActions int    `json:"max_actions,omitempty"` // --max-actions
	Games      int    `json:"games"`                 // games adjudicated
	SolverDraw int    `json:"solver_draw"`           // of them, solver draws
	Cap        int    `json:"cap"`                   // of them, at the cap
}

// adjudicatedJSONOf is the "adjudicated" object of s, nil when the match
// adjudicated nothing.
func adjudicatedJSONOf(s *arena.Summary) *adjudicatedJSON {
	a := s.Adjudication
	if !a.On() {
		return nil
	}
	return &adjudicatedJSON{Settings: a.String(), Draw: a.Draw, MaxActions: a.MaxActions,
		Games: s.AdjudicatedDraw + s.AdjudicatedCap, SolverDraw: s.AdjudicatedDraw, Cap: s.AdjudicatedCap}
}

// writeAdjudicationTable prints the adjudication line of match's table,
// nothing when the match adjudicated nothing.
func writeAdjudicationTable(w io.Writer, s *arena.Summary) {
	a := s.Adjudication
	if !a.On() {
		return
	}
	fmt.Fprintf(w, "adjudicated (%s): %d of %d games, %d solver draws, %d at the cap\n",
		a, s.AdjudicatedDraw+s.AdjudicatedCap, s.Games, s.AdjudicatedDraw, s.AdjudicatedCap)
}
