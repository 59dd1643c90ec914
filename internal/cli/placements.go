package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/replay"
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

// placementStats are the placements of one player found in a corpus.
type placementStats struct {
	rules   *submarine.Rules
	form    replay.SubmarineRules // the rules as recorded, to compare the replays' boards and fleets
	games   int                   // placements counted
	replays int                   // submarine replays read
	skipped int                   // other games' replays
	illegal int                   // the player's placements the rules refuse
	counts  [][]int               // by fleet index, by cell
	minDist map[int]int           // placements by the smallest Chebyshev distance between two ships
	others  map[string]bool       // names of the other players seen
}

// add counts the placement p.
func (s *placementStats) add(p submarine.Placement) {
	if err := s.rules.ValidatePlacement(p); err != nil {
		s.illegal++
		return
	}
	s.games++
	b := s.rules.Board
	d := -1
	for i, c := range p {
		s.counts[i][c]++
		x, y := b.XY(c)
		for _, o := range p[:i] {
			ox, oy := b.XY(o)
			if k := max(abs(x-ox), abs(y-oy)); d < 0 || k < d {
				d = k
			}
		}
	}
	if len(p) > 1 {
		s.minDist[d]++
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// replayPaths lists the files of args: a directory's *.jsonl files, in
// name order, and every other argument as given.
func replayPaths(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		st, err := os.Stat(a)
		if err != nil {
			return nil, err
		}
		if !st.IsDir() {
			out = append(out, a)
			continue
		}
		files, err := filepath.Glob(filepath.Join(a, "*.jsonl"))
		if err != nil {
			return nil, err
		}
		out = append(out, files...)
	}
	return out, nil
}

// readPlacements reads the replays of args and counts player's placements.
func readPlacements(player string, args []string) (*placementStats, error) {
	paths, err := replayPaths(args)
	if err != nil {
		return nil, err
	}
	s := &placementStats{minDist: map[int]int{}, others: map[string]bool{}}
	for _, path := range paths {
		game, err := replay.GameOfFile(path)
		if err != nil {
			return nil, err
		}
		if game != replay.GameSubmarine {
			s.skipped++
			continue
		}
		rp, err := replay.ReadSubmarineFile(path)
		if err != nil {
			return nil, err
		}
		s.replays++
		if s.rules == nil {
			if s.rules, err = rp.Rules(); err != nil {
				return nil, fmt.Errorf("%s: %w", path, err)
			}
			s.form = rp.Header.Rules
			s.counts = make([][]int, len(s.rules.Fleet))
			for i := range s.counts {
				s.counts[i] = make([]int, s.rules.Board.Size())
			}
		} else if !sameBoardAndFleet(s.form, rp.Header.Rules) {
			return nil, usageError("%s: another board or fleet than the replays before it (a prior is for one board and fleet)", path)
		}
		for seat, who := range rp.Header.Players {
			if who.Name != player {
				s.others[who.Name] = true
				continue
			}
			s.add(rp.Placement(s.rules, seat))
		}
	}
	if s.replays == 0 {
		return nil, fmt.Errorf("%w: no submarine replay (*.jsonl) in %s", errNoReplays, strings.Join(args, ", "))
	}
	if s.games == 0 {
		return nil, usageError("no placement of %q in %d replays (players found: %s)", player, s.replays,
			strings.Join(slices.Sorted(maps.Keys(s.others)), ", "))
	}
	return s, nil
}

// sameBoardAndFleet reports whether two replays' rules have the same board
// and fleet: the draw limit does not change where a player places.
func sameBoardAndFleet(a, b replay.SubmarineRules) bool {
	a.DrawLimit, b.DrawLimit = 0, 0
	return reflect.DeepEqual(a, b)
}

func runPlacements(e *env, f *placementsFlags, args []string) error {
	s, err := readPlacements(f.player, args)
	if err != nil {
		return err
	}
	if f.out != "" {
		if err := os.WriteFile(f.out, []byte(priorYAML(f.player, s, args)), 0o644); err != nil {
			return err
		}
	}
	if f.json {
		return json.NewEncoder(e.stdout).Encode(placementsJSONOf(f.player, s))
	}
	return writePlacements(e.stdout, f.player, s)
}

// edgeCells are the board's corner cells and its edge cells (corners
// included).
func edgeCells(b *grid.Board) (corner, edge grid.Set) {
	w, h := b.Width(), b.Height()
	for c := range b.Usable().All() {
		x, y := b.XY(c)
		ex, ey := x == 0 || x == w-1, y == 0 || y == h-1
		if ex && ey {
			corner.Add(c)
		}
		if ex || ey {
			edge.Add(c)
		}
	}
	return corner, edge
}

// shipShares is, for ship i, the share of the games it started in a
// corner and on the edge.
func (s *placementStats) shipShares(i int) (corner, edge float64) {
	cs, es := edgeCells(s.rules.Board)
	for c, n := range s.counts[i] {
		if cs.Has(grid.Cell(c)) {
			corner += float64(n)
		}
		if es.Has(grid.Cell(c)) {
			edge += float64(n)
		}
	}
	return corner / float64(s.games), edge / float64(s.games)
}

type placementsShipJSON struct {
	Name   string  `json:"name"`
	HP     int     `json:"hp"`
	Counts []int   `json:"counts"` // by cell index, row-major
	Corner float64 `json:"corner"` // share of the games in a corner
	Edge   float64 `json:"edge"`   // share on the edge (corners included)
}

type placementsJSON struct {
	Player  string               `json:"player"`
	Games   int                  `json:"games"`
	Replays int                  `json:"replays"`
	Skipped int                  `json:"skipped"` // replays of other games
	Illegal int                  `json:"illegal"`
	Width   int                  `json:"width"`
	Height  int                  `json:"height"`
	Ships   []placementsShipJSON `json:"ships"`
	// MinDistance counts the placements by the smallest Chebyshev distance
	// between two of their ships.
	MinDistance map[int]int `json:"min_distance"`
}

func placementsJSONOf(player string, s *placementStats) placementsJSON {
	out := placementsJSON{Player: player, Games: s.games, Replays: s.replays, Skipped: s.skipped, Illegal: s.illegal,
		Width: s.rules.Board.Width(), Height: s.rules.Board.Height(), MinDistance: s.minDist}
	for i, sp := range s.rules.Fleet {
		corner, edge := s.shipShares(i)
		out.Ships = append(out.Ships, placementsShipJSON{Name: sp.Name, HP: sp.HP, Counts: s.counts[i], Corner: corner, Edge: edge})
	}
	return out
}

// writePlacements prints the heatmaps side by side, then the shares.
func writePlacements(w io.Writer, player string, s *placementStats) error {
	b := s.rules.Board
	fmt.Fprintf(w, "%s: %d placements in %d submarine replays", player, s.games, s.replays)
	if s.illegal > 0 {
		fmt.Fprintf(w, " (%d illegal ones not counted)", s.illegal)
	}
	if s.skipped == 1 {
		fmt.Fprint(w, "; 1 replay of another game skipped")
	} else if s.skipped > 1 {
		fmt.Fprintf(w, "; %d replays of other games skipped", s.skipped)
	}
	fmt.Fprintf(w, "\nwhere each ship started, %% of the games (row 0 first):\n\n")
	var cols [][]string
	width := 4*b.Width() - 1
	for i, sp := range s.rules.Fleet {
		p := make([]float64, b.Size())
		for c, n := range s.counts[i] {
			p[c] = float64(n) / float64(s.games)
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
	for i, sp := range s.rules.Fleet {
		corner, edge := s.shipShares(i)
		fmt.Fprintf(w, "%s: corner %.1f%%, edge %.1f%%\n", sp.Name, 100*corner, 100*edge)
	}
	if len(s.minDist) > 0 {
		fmt.Fprint(w, "closest two ships (Chebyshev):")
		for _, d := range slices.Sorted(maps.Keys(s.minDist)) {
			fmt.Fprintf(w, " %d: %.1f%%", d, 100*float64(s.minDist[d])/float64(s.games))
		}
		fmt.Fprintln(w)
	}
	_, err := fmt.Fprintln(w, "(a uniform placement puts a ship in a corner", fmt.Sprintf("%.1f%%", 100*uniformShare(b, true)),
		"and on the edge", fmt.Sprintf("%.1f%%", 100*uniformShare(b, false))+" of the time)")
	return err
}

// uniformShare is the share of the usable cells in a corner (corner) or
// on the edge: where a ship placed uniformly starts that often.
func uniformShare(b *grid.Board, corner bool) float64 {
	cs, es := edgeCells(b)
	n := es.Count()
	if corner {
		n = cs.Count()
	}
	return float64(n) / float64(b.Usable().Count())
}

// priorYAML is admiral weights holding the learnt counts as
// belief.enemy_prior, with a header saying where they come from.
func priorYAML(player string, s *placementStats, args []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Admiral weights: the placement prior of %q learnt by kaisen placements\n", player)
	fmt.Fprintf(&b, "# from %d placements in the replays of %s\n", s.games, strings.Join(args, ", "))
	fmt.Fprintf(&b, "# (board %dx%d). Every other weight keeps admiral's default. Use:\n", s.rules.Board.Width(), s.rules.Board.Height())
	fmt.Fprintf(&b, "#   kaisen match --p1 admiral --p1-weights THIS.yaml --p2 %s\n", player)
	b.WriteString("belief:\n  # By ship (fleet order), the games it started on each cell, row-major.\n  enemy_prior:\n")
	for i, row := range s.counts {
		parts := make([]string, len(row))
		for c, n := range row {
			parts[c] = fmt.Sprint(n)
		}
		fmt.Fprintf(&b, "    - [%s] # %s\n", strings.Join(parts, ", "), s.rules.Fleet[i].Name)
	}
	return b.String()
}
