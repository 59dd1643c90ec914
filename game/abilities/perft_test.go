package abilities_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// naiveLegal lists the legal actions of the seat to act straight from the
// rules text, using only the game's plain accessors (ships, shots, what is
// used and suppressed): an independent check of Game.Legal.
func naiveLegal(g *abilities.Game) []string {
	if g.Status() != game.Running {
		return nil
	}
	r := g.Rules()
	b := r.Base.Board
	w, h := b.Width(), b.Height()
	cell := func(x, y int) (grid.Cell, bool) {
		if x < 0 || y < 0 || x >= w || y >= h {
			return 0, false
		}
		c := grid.Cell(y*w + x)
		return c, b.IsUsable(c)
	}
	var out []string
	if q := g.Pending(); q != nil {
		if q.Ask != abilities.AskReveal {
			return []string{"defend(false)", "defend(true)"}
		}
		cells := q.Cells.Cells()
		for mask := 0; mask < 1<<len(cells); mask++ {
			var pick []grid.Cell
			for i, c := range cells {
				if mask&(1<<i) != 0 {
					pick = append(pick, c)
				}
			}
			if len(pick) == q.Count {
				out = append(out, abilities.Action{Kind: abilities.Reveal, Cells: pick}.String())
			}
		}
		slices.Sort(out)
		return out
	}
	seat, enemy := g.Turn(), 1-g.Turn()
	ships := g.Ships(seat)
	has := func(l int) bool {
		for i, s := range ships {
			if len(s) == l && g.Afloat(seat, i) && !g.Suppressed(seat, i) {
				return true
			}
		}
		return false
	}
	for y := range h {
		for x := range w {
			c, ok := cell(x, y)
			if !ok {
				continue
			}
			out = append(out, fmt.Sprintf("shoot(%d)", c))
			if !g.Used(3) && has(3) {
				out = append(out, fmt.Sprintf("shoot*(%d)", c))
			}
		}
	}
	if !g.Used(1) {
		for i, s := range ships {
			if len(s) != 1 || !g.Afloat(seat, i) || g.Suppressed(seat, i) {
				continue
			}
			x0, y0 := b.XY(s[0])
			for _, d := range [][2]int{{0, -1}, {1, 0}, {0, 1}, {-1, 0}} {
				to, ok := cell(x0+d[0], y0+d[1])
				if !ok || g.Shot(seat).Has(to) {
					continue
				}
				free := true
				for j, o := range ships {
					if j == i {
						continue
					}
					for _, oc := range o {
						ox, oy := b.XY(oc)
						tx, ty := b.XY(to)
						dx, dy := ox-tx, oy-ty
						if oc == to || (!r.Options.MoveMayTouch && dx >= -1 && dx <= 1 && dy >= -1 && dy <= 1) {
							free = false
						}
					}
				}
				if free {
					out = append(out, fmt.Sprintf("move(%d->%d)", s[0], to))
				}
			}
		}
	}
	if !g.Used(2) && has(2) {
		for y := range h {
			for x := range w {
				c, ok := cell(x, y)
				if !ok {
					continue
				}
				if r.Sides[seat] == abilities.AI {
					for _, d := range [][2]int{{1, 0}, {0, 1}} {
						if n, ok := cell(x+d[0], y+d[1]); ok {
							out = append(out, fmt.Sprintf("salvo(%d,%d)", c, n))
						}
					}
					continue
				}
				open := false
				for dy := -1; dy <= 1; dy++ {
					for dx := -1; dx <= 1; dx++ {
						if n, ok := cell(x+dx, y+dy); ok && !g.Shot(enemy).Has(n) {
							open = true
						}
					}
				}
				if open {
					out = append(out, fmt.Sprintf("salvo(%d,%d)", c, c))
				}
			}
		}
	}
	slices.Sort(out)
	return out
}

func legalStrings(g *abilities.Game) []string {
	var out []string
	for _, a := range g.Legal() {
		out = append(out, a.String())
	}
	slices.Sort(out)
	return out
}

// perft counts the action sequences of length depth from g, checking Legal
// against naiveLegal at every node.
func perft(t *testing.T, g *abilities.Game, depth int) int {
	legal := g.Legal()
	require.Equal(t, naiveLegal(g), legalStrings(g))
	if depth == 1 {
		return len(legal)
	}
	n := 0
	for _, a := range legal {
		c := g.Clone()
		_, err := c.Apply(a)
		require.NoError(t, err, a.String())
		n += perft(t, c, depth-1)
	}
	return n
}

// TestPerft pins the number of legal action sequences from fixed positions
// (the counts come from the engine and every node is cross-checked against
// the naive generator above).
func TestPerft(t *testing.T) {
	const ai, hu = abilities.AI, abilities.Humans
	for _, tt := range []struct {
		name   string
		s0, s1 abilities.Side
		opt    abilities.Options
		setup  []abilities.Action
		counts []int // perft(1), perft(2), ...
	}{
		// 36 shots + 36 with the 3-deck + 4 moves (12, 19 for 13; 15, 27
		// for 21) + 60 pair salvos
		{"AI vs Humans, start", ai, hu, abilities.Options{}, nil, []int{136, 10929}},
		// 72 shots + 4 moves + 36 salvo centres
		{"Humans vs AI, start", hu, ai, abilities.Options{}, nil, []int{112, 9716}},
		{"AI mirror, start", ai, ai, abilities.Options{}, nil, []int{136, 15989}},
		{"Humans mirror, start", hu, hu, abilities.Options{}, nil, []int{112, 7334}},
		{"Humans mirror, touching moves", hu, hu, abilities.Options{MoveMayTouch: true}, nil, []int{116, 7945}},
		{"Humans salvo asked to reveal", ai, hu, abilities.Options{}, []abilities.Action{shoot(35), centre(7)}, []int{84, 2822}},
		{"after a move and a 3-deck shot hit", ai, hu, abilities.Options{}, []abilities.Action{move(13, 12), special(29)}, []int{96, 7257}},
		{"suppressed 1-decks", ai, hu, abilities.Options{}, []abilities.Action{shoot(35), special(20)}, []int{132, 10345}},
		// a defence asked: 2 answers; then declined, the Humans shoot on
		// (112) or, lied to, the AI's turn (136); air defence or not, the
		// Humans' turn (112 each)
		{"false miss asked", hu, ai, abilities.Options{}, []abilities.Action{shoot(1)}, []int{2, 248}},
		{"air defence asked", ai, hu, abilities.Options{}, []abilities.Action{shoot(7)}, []int{2, 224}},
		// the AI moved this turn: 36 shots, 36 with the 3-deck, 60 salvos
		{"every option, after a lie and a move", hu, ai, abilities.Options{SalvoShootsAgain: true, FalseMissAnyHit: true, MoveMayTouch: true,
			HideMoves: true, ScanAfloatOnly: true, SuppressPassive: true}, []abilities.Action{shoot(0), defend(true), move(13, 14)}, []int{132, 9902}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			g := newGame(t, tt.s0, tt.s1, tt.opt)
			play(t, g, tt.setup...)
			var got []int
			for d := 1; d <= len(tt.counts); d++ {
				got = append(got, perft(t, g, d))
			}
			require.Equal(t, tt.counts, got)
		})
	}
}

// TestApplyAcceptsExactlyLegal tries a superset of the actions (every kind
// on every cell pair, off-board cells included) and checks that Apply
// accepts exactly the listed ones, from the positions on a random game.
func TestApplyAcceptsExactlyLegal(t *testing.T) {
	for _, sides := range [][2]abilities.Side{{abilities.AI, abilities.Humans}, {abilities.Humans, abilities.Humans}, {abilities.AI, abilities.AI}} {
		g := newGame(t, sides[0], sides[1], abilities.Options{})
		rng := rand.New(rand.NewPCG(7, uint64(sides[0])))
		for ply := 0; ply < 40 && g.Status() == game.Running; ply++ {
			legal := map[string]bool{}
			for _, s := range legalStrings(g) {
				legal[s] = true
			}
			for _, a := range candidates(g) {
				_, err := g.Clone().Apply(a)
				require.Equal(t, legal[a.String()], err == nil, "%s: %v", a, err)
			}
			all := g.Legal()
			_, err := g.Apply(all[rng.IntN(len(all))])
			require.NoError(t, err)
		}
	}
}

// candidates is every action of every kind on every cell pair near the
// board (Reveal: the 3-subsets of the 3x3 of the pending question, and a
// few malformed ones).
func candidates(g *abilities.Game) []abilities.Action {
	n := grid.Cell(g.Rules().Base.Board.Size())
	var out []abilities.Action
	for c := grid.Cell(-1); c <= n; c++ {
		out = append(out, shoot(c), special(c))
		for d := grid.Cell(-1); d <= n; d++ {
			out = append(out, move(c, d), salvo(c, d))
		}
	}
	out = append(out, defend(false), defend(true), reveal(), reveal(0, 1, 2, 3))
	if q := g.Pending(); q != nil && q.Ask == abilities.AskReveal {
		cells := g.Rules().Base.Board.Around(q.At).Cells()
		for i := range cells {
			for j := i; j < len(cells); j++ {
				for k := j; k < len(cells); k++ {
					out = append(out, reveal(cells[i], cells[j], cells[k]))
				}
			}
		}
	}
	return out
}
