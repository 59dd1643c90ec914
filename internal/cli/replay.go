package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/replay"
)

func newReplayCmd(e *env) *cobra.Command {
	var turn, from int
	var verifyOnly, heatmap bool
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Show a recorded game turn by turn as ASCII boards",
		Long: `Show a replay written by kaisen match --replays: both fleets side by side
after every action, the attacked cell in [ ], the sea around it (where the
defender's "near" report looks) as ~, each move as ( ) with the cell it left,
sunk ships as x, and in words what happened: hit, sunk, splash, displacement.

With --heatmap, each board gets a second grid below it: what the opponent
can know of that fleet from everything it was told, as the probability (in
percent) that a ship is on each cell, exact over every consistent placement.

The replay is re-played through the rules engine first; a file that does not
match the rules (edited, corrupted, from an incompatible version) is refused.
docs/replays.md describes the file format.

Examples:
  kaisen replay out/game-000003.jsonl             the whole game
  kaisen replay out/game-000003.jsonl --turn 0    the placements only
  kaisen replay out/game-000003.jsonl --turn 42   the position after action 42
  kaisen replay out/game-000003.jsonl --from 40   action 40 to the end
  kaisen replay out/game-000003.jsonl --turn 42 --heatmap   with each side's belief
  kaisen replay out/game-000003.jsonl --verify    check the file, print a one-line summary`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			rp, err := replay.ReadFile(args[0])
			if err != nil {
				return err
			}
			if verifyOnly {
				if err := replay.Verify(rp); err != nil {
					return fmt.Errorf("%s: %w", args[0], err)
				}
				res := rp.Result
				who := "draw"
				if res.Outcome == replay.OutcomeWin {
					who = fmt.Sprintf("seat %d %s wins", res.Winner, rp.Header.Players[res.Winner].Name)
				}
				_, err := fmt.Fprintf(e.stdout, "%s: ok: %d actions, %s\n", args[0], res.Actions, who)
				return err
			}
			opt := replay.RenderOptions{From: from, To: -1, Heatmap: heatmap}
			if cmd.Flags().Changed("turn") {
				if cmd.Flags().Changed("from") {
					return usageError("--turn and --from exclude each other")
				}
				opt = replay.RenderOptions{From: turn, To: turn, Heatmap: heatmap}
			}
			if n := len(rp.Steps); opt.From < 0 || opt.From > n {
				return usageError("action %d: the game has actions 1 to %d (0 is the start)", opt.From, n)
			}
			return replay.Render(e.stdout, rp, opt)
		},
	}
	cmd.Flags().IntVar(&turn, "turn", 0, "show only the position after this action (0 = the start)")
	cmd.Flags().IntVar(&from, "from", 0, "start at this action and go on to the end")
	cmd.Flags().BoolVar(&verifyOnly, "verify", false, "only check the replay against the rules")
	cmd.Flags().BoolVar(&heatmap, "heatmap", false, "under each board, what the opponent can know of that fleet (% ship per cell)")
	return cmd
}
