package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	bsoptimal "github.com/kaisen-ai/kaisen/players/battleship/optimal"
)

type optimalFlags struct {
	policy    string
	json      bool
	maxStates int
	worst     int
}

func newOptimalCmd(e *env) *cobra.Command {
	var f optimalFlags
	cmd := &cobra.Command{
		Use:   "optimal BOARD:FLEET...",
		Short: "Solve small Battleship boards exactly: the optimal expected shots, and greedy's",
		Long: `Compute, exactly, how many shots on average the best possible shooter needs
to sink a fleet placed uniformly at random (every valid layout equally
likely) on a small board, and how many the greedy strategy needs (the
"greedy" AI: shoot the unshot cell the most consistent layouts cover, ties
broken uniformly), and where greedy loses the difference.

Each argument is a board and a fleet: 4x4:2,1 is a 4x4 board with a 2-cell
and a 1-cell ship (the fleet as --fleet of kaisen shots reads it). The
rules are the classic ones: straight ships that never touch, not even at a
corner; answers miss, hit, or kill with the sunk ship's cells.

No sampling: the optimum is a memoised search over every state of
knowledge (the layouts consistent with the answers so far), greedy's value
is averaged over its tied cells. Columns:
  layouts   layouts of the empty board
  optimal   least expected shots over all policies
  greedy    greedy's expected shots
  gap, %    greedy − optimal, in shots and in % of optimal
  hunt      the part of the gap lost in positions without an unsunk hit
  target    the part lost with one (hunt + target = gap)
  tie       the part lost where one of greedy's tied cells is optimal
            and greedy may pick another
  states    knowledge states the optimal search valued
The time of each board is printed on stderr.

The search grows exponentially with the board: 4x4 boards take about a
second, 4x5 with a 2- and a 1-cell ship half a minute, and boards of more
than 64 cells (10x10) are refused. --max-states bounds the states (about
100 bytes each); a board that needs more is refused with an error.
--policy evaluates another policy in greedy's place (its column is named
after it): entropy-tie (greedy, its ties broken by the entropy of the
answer: miss, hit, kill), entropy:W (share + W × that entropy, every cell;
density's entropy_weight), lookahead (share + the expected share of the
best next shot; density's lookahead with weight 1, every cell).
Ctrl-C stops the search (exit code 130).
--worst K also prints, per board, the K positions where greedy's move
costs most (reach × extra expected shots), with greedy's cells and the
optimal ones (cells as [row,col]).

With --json the last line of stdout is
  {"boards":[{"board":"4x4","fleet":"2,1","layouts":184,"optimal":x,"policy":"greedy","value":y,"gap":d,"gap_pct":p,"hunt":h,"target":t,"tie":b,"states":n,"positions":k,"losing":m},...]}
(positions: the positions the policy reaches; losing: those where its
move costs more than 1e-9 shots).`,
		Example: `  kaisen optimal 4x4:2,1
  kaisen optimal 4x4:2,1 4x4:3,2,1 4x4:2,1,1 --json
  kaisen optimal 4x4:3,2,1 --worst 3
  kaisen optimal 4x4:2,2,1 --policy entropy-tie`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runOptimal(cmd.Context(), e, &f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.policy, "policy", "greedy", "the policy compared with the optimum: "+bsoptimal.PolicyNames)
	addJSONFlag(cmd, &f.json, "print one JSON line instead of the table")
	fl.IntVar(&f.maxStates, "max-states", bsoptimal.DefaultMaxStates, "refuse a board whose search needs more knowledge states than this")
	fl.IntVar(&f.worst, "worst", 0, "also print the K positions of each board where greedy loses most")
	return cmd
}

// optimalRow is one board's result (the --json fields).
type optimalRow struct {
	Board   string  `json:"board"`
	Fleet   string  `json:"fleet"`
	Layouts int     `json:"layouts"`
	Optimal float64 `json:"optimal"`
	Policy  string  `json:"policy"`
	Value   float64 `json:"value"`
	Gap     float64 `json:"gap"`
	GapPct  float64 `json:"gap_pct"`
	Hunt    float64 `json:"hunt"`
	Target  float64 `json:"target"`
	Tie     float64 `json:"tie"`
	States  int     `json:"states"`
	// Positions the policy reaches; Losing, those where its move costs
	// more than 1e-9 shots.
	Positions int `json:"positions"`
	Losing    int `json:"losing"`

	rules *battleship.Rules
	worst []bsoptimal.Costly
}

// parseCase reads BOARD:FLEET.
func parseCase(arg string) (*battleship.Rules, error) {
	size, fleetText, ok := strings.Cut(arg, ":")
	if !ok {
		return nil, usageError("%q: want BOARD:FLEET, e.g. 4x4:2,1", arg)
	}
	w, h, err := parseSize(size)
	if err != nil {
		return nil, usageError("%q: board %q: want WIDTHxHEIGHT, e.g. 4x4", arg, size)
	}
	fleet, err := battleship.ParseFleet(fleetText)
	if err != nil {
		return nil, usageError("%q: %v", arg, err)
	}
	b, err := grid.NewBoard(w, h, nil)
	if err != nil {
		return nil, usageError("%q: %v", arg, err)
	}
	r, err := battleship.NewRules(b, fleet)
	if err != nil {
		return nil, usageError("%q: %v", arg, err)
	}
	return r, nil
}

func runOptimal(ctx context.Context, e *env, f *optimalFlags, args []string) error {
	if f.maxStates < 1 {
		return usageError("--max-states %d: want at least 1", f.maxStates)
	}
	if f.worst < 0 {
		return usageError("--worst %d: want 0 or more", f.worst)
	}
	pol, err := bsoptimal.ParsePolicy(f.policy)
	if err != nil {
		return usageError("--policy: %v", err)
	}
	var all []*battleship.Rules
	for _, a := range args {
		r, err := parseCase(a)
		if err != nil {
			return err
		}
		all = append(all, r)
	}
	var rows []optimalRow
	for i, r := range all {
		start := time.Now()
		row, err := solveCase(ctx, r, pol, f)
		if err != nil {
			return fmt.Errorf("%s: %w", args[i], err)
		}
		fmt.Fprintf(e.stderr, "%s: %.1f s\n", args[i], time.Since(start).Seconds())
		rows = append(rows, row)
	}
	if f.json {
		return json.NewEncoder(e.stdout).Encode(map[string]any{"boards": rows})
	}
	return printOptimal(e.stdout, rows)
}

func solveCase(ctx context.Context, r *battleship.Rules, pol bsoptimal.Policy, f *optimalFlags) (optimalRow, error) {
	s, err := bsoptimal.New(r, bsoptimal.Options{MaxStates: f.maxStates, Done: ctx.Done()})
	if err != nil {
		return optimalRow{}, err
	}
	if _, err := s.Optimal(); err != nil {
		return optimalRow{}, err
	}
	states := s.States()
	l, err := s.Losses(pol, f.worst)
	if err != nil {
		return optimalRow{}, err
	}
	gap := l.Policy - l.Optimal
	if math.Abs(gap) < 1e-9 {
		gap = 0 // rounding, where greedy is optimal: not "-0.0000"
	}
	return optimalRow{
		Board: fmt.Sprintf("%dx%d", r.Board.Width(), r.Board.Height()), Fleet: battleship.FormatFleet(r.Fleet),
		Layouts: s.Layouts(), Optimal: l.Optimal, Policy: f.policy, Value: l.Policy, Gap: gap,
		GapPct: 100 * gap / l.Optimal, Hunt: l.Hunt, Target: l.Target, Tie: l.TieBreak,
		States: states, Positions: l.Positions, Losing: l.Losing, rules: r, worst: l.Worst,
	}, nil
}

func printOptimal(w io.Writer, rows []optimalRow) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "board\tfleet\tlayouts\toptimal\t%s\tgap\t%%\thunt\ttarget\ttie\tstates\t\n", rows[0].Policy)
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%.4f\t%.4f\t%.4f\t%.2f\t%.4f\t%.4f\t%.4f\t%d\t\n",
			r.Board, r.Fleet, r.Layouts, r.Optimal, r.Value, r.Gap, r.GapPct, r.Hunt, r.Target, r.Tie, r.States)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range rows {
		for i, c := range r.worst {
			fmt.Fprintf(w, "\n%s %s, position %d: reach %.4f, %s loses %.4f shots there (%.4f on average)\n", r.Board, r.Fleet, i+1, c.Reach, r.Policy, c.Regret, c.Cost())
			fmt.Fprint(w, c.Position)
			fmt.Fprintf(w, "%s: %s   optimal: %s\n", r.Policy, cellNames(r.rules, c.Chosen), cellNames(r.rules, c.Better))
		}
	}
	return nil
}

func cellNames(r *battleship.Rules, cells []grid.Cell) string {
	names := make([]string, len(cells))
	for i, c := range cells {
		names[i] = r.CellName(c)
	}
	return strings.Join(names, " ")
}
