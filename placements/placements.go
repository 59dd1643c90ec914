package placements

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/replay"
)

// ErrNoReplays is the error of a corpus that holds no submarine replay.
var ErrNoReplays = errors.New("placements: no submarine replay (*.jsonl)")

// OtherRulesError is the error of a replay whose board or fleet differs
// from those of the replays read before it.
type OtherRulesError struct{ Path string }

func (e *OtherRulesError) Error() string {
	return fmt.Sprintf("placements: %s: another board or fleet than the replays before it (a prior is for one board and fleet)", e.Path)
}

// NotFoundError is the error of a corpus with no placement of the player.
type NotFoundError struct {
	Player  string
	Replays int      // submarine replays read
	Others  []string // the players found instead, sorted
}

func (e *NotFoundError) Error() string {
	return fmt.Sprintf("placements: no placement of %q in %d replays (players found: %s)", e.Player, e.Replays, strings.Join(e.Others, ", "))
}

// Stats are the placements of one player found in a corpus.
type Stats struct {
	Player  string
	Rules   *submarine.Rules // of the corpus: nil until a replay is read
	Games   int              // placements counted
	Replays int              // submarine replays read
	Skipped int              // replays of other games
	Illegal int              // the player's placements the rules refuse (not counted)
	// Counts are, by fleet index, by cell (row-major), the placements
	// whose ship started there.
	Counts [][]int
	// MinDist counts the placements by the smallest Chebyshev distance
	// between two of their ships.
	MinDist map[int]int

	form   subrecord.Rules // the rules as recorded, to compare the replays' boards and fleets
	others map[string]bool // names of the other players seen
}

// NewStats returns empty statistics of player's placements.
func NewStats(player string) *Stats {
	return &Stats{Player: player, MinDist: map[int]int{}, others: map[string]bool{}}
}

// Read reads the corpus of paths (a directory's *.jsonl files in name
// order, and every other path as a file) and counts player's placements.
// It fails with ErrNoReplays, an *OtherRulesError or a *NotFoundError.
func Read(player string, paths []string) (*Stats, error) {
	files, err := Files(paths)
	if err != nil {
		return nil, err
	}
	s := NewStats(player)
	for _, path := range files {
		if err := s.AddFile(path); err != nil {
			return nil, err
		}
	}
	if s.Replays == 0 {
		return nil, fmt.Errorf("%w in %s", ErrNoReplays, strings.Join(paths, ", "))
	}
	if s.Games == 0 {
		return nil, &NotFoundError{Player: player, Replays: s.Replays, Others: slices.Sorted(maps.Keys(s.others))}
	}
	return s, nil
}

// Files lists the replay files of paths: a directory's *.jsonl files, in
// name order, and every other path as given.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, a := range paths {
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

// AddFile counts the player's placements in the replay at path; a replay
// of another game is skipped.
func (s *Stats) AddFile(path string) error {
	game, err := replay.GameOfFile(path)
	if err != nil {
		return err
	}
	if game != subrecord.Name {
		s.Skipped++
		return nil
	}
	rp, err := subrecord.ReadFile(path)
	if err != nil {
		return err
	}
	s.Replays++
	if s.Rules == nil {
		rules, err := rp.Rules()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		s.setRules(rules, rp.Header.Rules)
	} else if !sameBoardAndFleet(s.form, rp.Header.Rules) {
		return &OtherRulesError{Path: path}
	}
	for seat, who := range rp.Header.Players {
		if who.Name != s.Player {
			s.others[who.Name] = true
			continue
		}
		s.add(rp.Placement(s.Rules, seat))
	}
	return nil
}

// setRules makes rules (recorded as form) the corpus' rules.
func (s *Stats) setRules(rules *submarine.Rules, form subrecord.Rules) {
	s.Rules, s.form = rules, form
	s.Counts = make([][]int, len(rules.Fleet))
	for i := range s.Counts {
		s.Counts[i] = make([]int, rules.Board.Size())
	}
}

// sameBoardAndFleet reports whether two replays' rules have the same board
// and fleet: the draw limit does not change where a player places.
func sameBoardAndFleet(a, b subrecord.Rules) bool {
	a.DrawLimit, b.DrawLimit = 0, 0
	return reflect.DeepEqual(a, b)
}

// add counts the placement p under the corpus' rules; one the rules
// refuse counts as Illegal.
func (s *Stats) add(p submarine.Placement) {
	if err := s.Rules.ValidatePlacement(p); err != nil {
		s.Illegal++
		return
	}
	s.Games++
	b := s.Rules.Board
	d := -1
	for i, c := range p {
		s.Counts[i][c]++
		for _, o := range p[:i] {
			if k := b.Chebyshev(c, o); d < 0 || k < d {
				d = k
			}
		}
	}
	if len(p) > 1 {
		s.MinDist[d]++
	}
}

// Ship is what Stats learnt of one ship.
type Ship struct {
	Name   string  `json:"name"`
	HP     int     `json:"hp"`
	Counts []int   `json:"counts"` // by cell index, row-major
	Corner float64 `json:"corner"` // share of the games in a corner
	Edge   float64 `json:"edge"`   // share on the edge (corners included)
}

// Ships is what Stats learnt of each ship, in fleet order.
func (s *Stats) Ships() []Ship {
	var out []Ship
	for i, sp := range s.Rules.Fleet {
		corner, edge := s.shares(i)
		out = append(out, Ship{Name: sp.Name, HP: sp.HP, Counts: s.Counts[i], Corner: corner, Edge: edge})
	}
	return out
}

// shares is, for ship i, the share of the games it started in a corner
// and on the edge.
func (s *Stats) shares(i int) (corner, edge float64) {
	cs, es := edgeCells(s.Rules.Board)
	for c, n := range s.Counts[i] {
		if cs.Has(grid.Cell(c)) {
			corner += float64(n)
		}
		if es.Has(grid.Cell(c)) {
			edge += float64(n)
		}
	}
	return corner / float64(s.Games), edge / float64(s.Games)
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

// UniformShare is the share of the usable cells in a corner (corner) or
// on the edge: how often a ship placed uniformly starts there.
func UniformShare(b *grid.Board, corner bool) float64 {
	cs, es := edgeCells(b)
	n := es.Count()
	if corner {
		n = cs.Count()
	}
	return float64(n) / float64(b.Usable().Count())
}

// WriteAdmiralWeights writes admiral weights holding the counts as
// belief.enemy_prior, with a header saying where they come from (from:
// the corpus' paths).
func (s *Stats) WriteAdmiralWeights(w io.Writer, from []string) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# Admiral weights: the placement prior of %q learnt by kaisen placements\n", s.Player)
	fmt.Fprintf(&b, "# from %d placements in the replays of %s\n", s.Games, strings.Join(from, ", "))
	fmt.Fprintf(&b, "# (board %dx%d). Every other weight keeps admiral's default. Use:\n", s.Rules.Board.Width(), s.Rules.Board.Height())
	fmt.Fprintf(&b, "#   kaisen match --p1 admiral --p1-weights THIS.yaml --p2 %s\n", s.Player)
	b.WriteString("belief:\n  # By ship (fleet order), the games it started on each cell, row-major.\n  enemy_prior:\n")
	for i, row := range s.Counts {
		parts := make([]string, len(row))
		for c, n := range row {
			parts[c] = fmt.Sprint(n)
		}
		fmt.Fprintf(&b, "    - [%s] # %s\n", strings.Join(parts, ", "), s.Rules.Fleet[i].Name)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("placements: %w", err)
	}
	return nil
}
