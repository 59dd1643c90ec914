package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/placements"
)

type placementsFlags struct {
	player string
	out    string
	json   bool
}

func newPlacementsCmd(e *env) *cobra.Command {
	var f placementsFlags
	cmd := &cobra.Command{
		Use:   "placements --player NAME DIR|FILE...",
		Short: "Learn where a submarine player places its fleet, from a corpus of replays",
		Long: `Read submarine replays (the *.jsonl files of each DIR, and each FILE) and
show where the player named --player (its name in the replays' headers)
placed its ships at the start of its games: for each ship, the share of the
games it started on each cell (a heatmap, row 0 first), how often it
started in a corner or on the edge, and the smallest distance (Chebyshev)
between two of its ships.

Replays written by kaisen match --replays and by kaisen serve --replay-dir
record both fleets, so a server's replays of the games a bot played on it
are a corpus of that bot's placements. A placement the rules refuse is not
counted (it lost its game); replays of other games (Battleship) are skipped.

--out writes admiral weights holding the learnt prior (belief.enemy_prior,
docs/admiral.md "Learning the enemy's placement"): admiral weighs the enemy
placements by it from its first game on, as admiral-series does with the
placements it locates during a series. Give the file to admiral with
--p1-weights (kaisen match), --weights (kaisen play), --house-weights (kaisen serve),
or copy its belief section into your own weights file.`,
		Example: `  kaisen match --p1 random --p2 hirota -n 400 --seed 7100 --replays corpus/
  kaisen placements --player hirota corpus/
  kaisen placements --player hirota corpus/ --out admiral-vs-hirota.yaml
  kaisen match --p1 admiral --p1-weights admiral-vs-hirota.yaml --p2 hirota -n 200 --seed 2050
  kaisen placements --player mybot --json replays/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if f.player == "" {
				return usageError("--player NAME is required: whose placements to learn")
			}
			return runPlacements(e, &f, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.player, "player", "", "the player whose placements are learnt (its name in the replays)")
	fl.StringVar(&f.out, "out", "", "write admiral weights with the learnt prior (belief.enemy_prior) to this YAML file")
	addJSONFlag(cmd, &f.json, "print the result as one JSON object")
	return cmd
}

func runPlacements(e *env, f *placementsFlags, args []string) error {
	s, err := placements.Read(f.player, args)
	if err != nil {
		return placementsError(err, args)
	}
	if f.out != "" {
		var b bytes.Buffer
		if err := s.WriteAdmiralWeights(&b, args); err != nil {
			return err
		}
		if err := os.WriteFile(f.out, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	if f.json {
		return json.NewEncoder(e.stdout).Encode(placementsJSONOf(s))
	}
	return writePlacements(e.stdout, s)
}

// placementsError words the refusals of placements.Read for the command
// line: a corpus that cannot make a prior is a usage error.
func placementsError(err error, args []string) error {
	var other *placements.OtherRulesError
	var none *placements.NotFoundError
	switch {
	case errors.Is(err, placements.ErrNoReplays):
		return fmt.Errorf("%w: no submarine replay (*.jsonl) in %s", errNoReplays, strings.Join(args, ", "))
	case errors.As(err, &other):
		return usageError("%s: another board or fleet than the replays before it (a prior is for one board and fleet)", other.Path)
	case errors.As(err, &none):
		return usageError("no placement of %q in %d replays (players found: %s)", none.Player, none.Replays, strings.Join(none.Others, ", "))
	}
	return err
}

type placementsJSON struct {
	Player  string            `json:"player"`
	Games   int               `json:"games"`
	Replays int               `json:"replays"`
	Skipped int               `json:"skipped"` // replays of other games
	Illegal int               `json:"illegal"`
	Width   int               `json:"width"`
	Height  int               `json:"height"`
	Ships   []placements.Ship `json:"ships"`
	// MinDistance counts the placements by the smallest Chebyshev distance
	// between two of their ships.
	MinDistance map[int]int `json:"min_distance"`
}

func placementsJSONOf(s *placements.Stats) placementsJSON {
	return placementsJSON{Player: s.Player, Games: s.Games, Replays: s.Replays, Skipped: s.Skipped, Illegal: s.Illegal,
		Width: s.Rules.Board.Width(), Height: s.Rules.Board.Height(), Ships: s.Ships(), MinDistance: s.MinDist}
}

// writePlacements prints the heatmaps side by side, then the shares.
func writePlacements(w io.Writer, s *placements.Stats) error {
	b := s.Rules.Board
	fmt.Fprintf(w, "%s: %d placements in %d submarine replays", s.Player, s.Games, s.Replays)
	if s.Illegal > 0 {
		fmt.Fprintf(w, " (%d illegal ones not counted)", s.Illegal)
	}
	if s.Skipped == 1 {
		fmt.Fprint(w, "; 1 replay of another game skipped")
	} else if s.Skipped > 1 {
		fmt.Fprintf(w, "; %d replays of other games skipped", s.Skipped)
	}
	fmt.Fprintf(w, "\nwhere each ship started, %% of the games (row 0 first):\n\n")
	var cols [][]string
	width := 4*b.Width() - 1
	for i, sp := range s.Rules.Fleet {
		p := make([]float64, b.Size())
		for c, n := range s.Counts[i] {
			p[c] = float64(n) / float64(s.Games)
		}
		lines := strings.Split(strings.TrimSuffix(belief.Heatmap(b, p, belief.Percent), "\n"), "\n")
		cols = append(cols, append([]string{fmt.Sprintf("%-*s", width, fmt.Sprintf("%s (%d hp)", sp.Name, sp.HP))}, lines...))
	}
	for row := range cols[0] {
		parts := make([]string, len(cols))
		for i := range cols {
			parts[i] = fmt.Sprintf("%-*s", width, cols[i][row])
		}
		fmt.Fprintln(w, strings.TrimRight(strings.Join(parts, "    "), " "))
	}
	fmt.Fprintln(w)
	for _, sh := range s.Ships() {
		fmt.Fprintf(w, "%s: corner %.1f%%, edge %.1f%%\n", sh.Name, 100*sh.Corner, 100*sh.Edge)
	}
	if len(s.MinDist) > 0 {
		fmt.Fprint(w, "closest two ships (Chebyshev):")
		for _, d := range slices.Sorted(maps.Keys(s.MinDist)) {
			fmt.Fprintf(w, " %d: %.1f%%", d, 100*float64(s.MinDist[d])/float64(s.Games))
		}
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintln(w, "(a uniform placement puts a ship in a corner", fmt.Sprintf("%.1f%%", 100*placements.UniformShare(b, true)),
		"and on the edge", fmt.Sprintf("%.1f%%", 100*placements.UniformShare(b, false))+" of the time)")
	return err
}
