package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/replay"
)

// replayFlags are kaisen replay's flags.
type replayFlags struct {
	turn, from          int
	verifyOnly, heatmap bool
	boards              string
	cyrillic            bool
}

func newReplayCmd(e *env) *cobra.Command {
	var f replayFlags
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Show a recorded game turn by turn as ASCII boards",
		Long: `Show a replay written by kaisen match --replays or kaisen serve. The game
(submarine or battleship) is read from the file's header.

Submarine: both fleets side by side after every action, the attacked cell in
[ ], the sea around it (where the defender's "near" report looks) as ~, each
move as ( ) with the cell it left, sunk ships as x, and in words what
happened: hit, sunk, splash, displacement. With --heatmap, each board gets a
second grid below it: what the opponent can know of that fleet from
everything it was told, as the probability (in percent) that a ship is on
each cell, exact over every consistent placement.

Battleship: every shot on one line, in letter+number coordinates (columns A,
B, C, ... J, rows 1 to 10; A1 is the wire's [0,0]): miss, hit, kill with the
sunk ship, a shot again, an illegal shot; then both boards with ships (O),
hits (x), sunk ships (#), misses (o) and the last shot in [ ]. --boards turn
or --boards shot also draws them after every turn (a turn ends on a miss) or
every shot; --cyrillic names the columns а б в г д е ж з и к.

The replay is re-played through the rules engine first; a file that does not
match the rules (edited, corrupted, from an incompatible version) is refused.
docs/replays.md and docs/battleship.md describe the file formats.

Examples:
  kaisen replay out/game-000003.jsonl             the whole game
  kaisen replay out/game-000003.jsonl --turn 0    the placements only
  kaisen replay out/game-000003.jsonl --turn 42   the position after action (shot) 42
  kaisen replay out/game-000003.jsonl --from 40   action (shot) 40 to the end
  kaisen replay out/game-000003.jsonl --turn 42 --heatmap   with each side's belief (submarine)
  kaisen replay out/game-000003.jsonl --verify    check the file, print a one-line summary
  kaisen match --game battleship -n 3 --replays bs/ && kaisen replay bs/game-000001.jsonl --boards turn
  kaisen replay bs/game-000001.jsonl --cyrillic   columns а б в г д е ж з и к`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if game, err := replay.GameOfFile(args[0]); err == nil && game == replay.GameBattleship {
				return runBattleshipReplay(e, cmd, args[0], &f)
			}
			for _, name := range []string{"boards", "cyrillic"} {
				if cmd.Flags().Changed(name) {
					return usageError("--%s is for battleship replays", name)
				}
			}
			rp, err := replay.ReadSubmarineFile(args[0])
			if err != nil {
				return err
			}
			if f.verifyOnly {
				if err := replay.VerifySubmarine(rp); err != nil {
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
			opt := replay.SubmarineRenderOptions{From: f.from, To: -1, Heatmap: f.heatmap}
			if cmd.Flags().Changed("turn") {
				if cmd.Flags().Changed("from") {
					return usageError("--turn and --from exclude each other")
				}
				opt = replay.SubmarineRenderOptions{From: f.turn, To: f.turn, Heatmap: f.heatmap}
			}
			if n := len(rp.Steps); opt.From < 0 || opt.From > n {
				return usageError("action %d: the game has actions 1 to %d (0 is the start)", opt.From, n)
			}
			return replay.RenderSubmarine(e.stdout, rp, opt)
		},
	}
	cmd.Flags().IntVar(&f.turn, "turn", 0, "show only the position after this action or shot (0 = the start)")
	cmd.Flags().IntVar(&f.from, "from", 0, "start at this action or shot and go on to the end")
	cmd.Flags().BoolVar(&f.verifyOnly, "verify", false, "only check the replay against the rules")
	cmd.Flags().BoolVar(&f.heatmap, "heatmap", false, "under each board, what the opponent can know of that fleet (% ship per cell; submarine)")
	cmd.Flags().StringVar(&f.boards, "boards", replay.BoardsEnd, "battleship: draw the boards at the end, after every turn or every shot (end, turn, shot)")
	cmd.Flags().BoolVar(&f.cyrillic, "cyrillic", false, "battleship: name the columns а б в г д е ж з и к instead of A to J")
	return cmd
}

// runBattleshipReplay is kaisen replay of a Battleship replay.
func runBattleshipReplay(e *env, cmd *cobra.Command, path string, f *replayFlags) error {
	if f.heatmap {
		return usageError("--heatmap is for submarine replays")
	}
	switch f.boards {
	case replay.BoardsEnd, replay.BoardsTurn, replay.BoardsShot:
	default:
		return usageError("--boards %q: want %s, %s or %s", f.boards, replay.BoardsEnd, replay.BoardsTurn, replay.BoardsShot)
	}
	rp, err := replay.ReadBattleshipFile(path)
	if err != nil {
		return err
	}
	if f.verifyOnly {
		if err := replay.VerifyBattleship(rp); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		res := rp.Result
		who := "draw"
		if res.Outcome == replay.OutcomeWin {
			who = fmt.Sprintf("seat %d %s wins", res.Winner, rp.Header.Players[res.Winner].Name)
		}
		_, err := fmt.Fprintf(e.stdout, "%s: ok: %d shots (%d by seat 0, %d by seat 1), %s\n",
			path, len(rp.Shots), res.Shots[0], res.Shots[1], who)
		return err
	}
	opt := replay.BattleshipRenderOptions{From: f.from, To: -1, Boards: f.boards, Cyrillic: f.cyrillic}
	if cmd.Flags().Changed("turn") {
		if cmd.Flags().Changed("from") {
			return usageError("--turn and --from exclude each other")
		}
		opt.From, opt.To = f.turn, f.turn
	}
	if n := len(rp.Shots); opt.From < 0 || opt.From > n {
		return usageError("shot %d: the game has shots 1 to %d (0 is the start)", opt.From, n)
	}
	return replay.RenderBattleship(e.stdout, rp, opt)
}
