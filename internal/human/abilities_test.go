package human_test

import (
	"bufio"
	"bytes"
	"flag"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/abilities"
	abrecord "github.com/kaisen-ai/kaisen/game/abilities/record"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/internal/human"
	abplayers "github.com/kaisen-ai/kaisen/players/abilities"
)

var update = flag.Bool("update", false, "write a new golden transcript under testdata/ (never rewrites one)")

// typist is a scripted person who reads the screen: each line it types
// is decided from what the seat printed since the last one (next), as a
// person at the terminal would. After max lines its input ends.
type typist struct {
	screen *bytes.Buffer // the seat's output
	seen   int
	next   func(screen string) string
	typed  int
	max    int
}

func (t *typist) Read(p []byte) (int, error) {
	if t.typed >= t.max {
		return 0, io.EOF
	}
	s := string(t.screen.Bytes()[t.seen:])
	t.seen = t.screen.Len()
	t.typed++
	return copy(p, t.next(s)+"\n"), nil
}

// abPerson plays abilities from the screen: it tries the abilities the
// seat lists (a move of its first 1-deck, the 3-deck's shot, a salvo) on
// some turns, answers questions (the seat's example cells, y or n in
// turn), falls back to the next line when one is refused, and types a
// bad line now and then.
type abPerson struct {
	rng     *rand.Rand
	side    abilities.Side
	cells   []string // the cells in the order it shoots them
	shot    int
	turns   int
	answers int
	plan    []string
	placed  bool
	example string // the cells of the last salvo question ("" for a yes or no)
}

var (
	abilitiesLine = regexp.MustCompile(`your abilities this turn: (.*)`)
	moverCells    = regexp.MustCompile(`move \(1-decks on ([A-J0-9 ]+)\)`)
	exampleCells  = regexp.MustCompile(`\(e\.g\. "([A-J0-9 ]+)"\)`)
)

func newABPerson(seed uint64, side abilities.Side) *abPerson {
	p := &abPerson{rng: rand.New(rand.NewPCG(seed, 7)), side: side}
	for row := 1; row <= 10; row++ {
		for _, col := range "ABCDEFGHIJ" {
			p.cells = append(p.cells, fmt.Sprintf("%c%d", col, row))
		}
	}
	p.rng.Shuffle(len(p.cells), func(i, j int) { p.cells[i], p.cells[j] = p.cells[j], p.cells[i] })
	return p
}

// neighbour is the cell next to c in direction d (0 up, 1 right, 2 down,
// 3 left), off the board for an edge cell.
func neighbour(c string, d int) string {
	col, row := c[0], 0
	fmt.Sscanf(c[1:], "%d", &row)
	switch d {
	case 0:
		row--
	case 1:
		col++
	case 2:
		row++
	default:
		col--
	}
	return fmt.Sprintf("%c%d", col, row)
}

func (p *abPerson) nextShot() string {
	c := p.cells[p.shot%len(p.cells)]
	p.shot++
	return c
}

func (p *abPerson) next(screen string) string {
	switch {
	case strings.HasSuffix(screen, "placement> "):
		if !p.placed {
			p.placed = true
			return "A1-D2"
		}
		return "r"
	case strings.HasSuffix(screen, "answer> "):
		p.answers++
		if m := exampleCells.FindStringSubmatch(screen); m != nil {
			p.example = m[1]
		} else if strings.Contains(screen, "the enemy's shot at") {
			p.example = ""
		}
		if p.answers%4 == 1 && !strings.Contains(screen, "not sent") {
			return "maybe"
		}
		if p.example != "" {
			return p.example
		}
		return []string{"y", "n", "n"}[p.answers%3]
	}
	if m := abilitiesLine.FindStringSubmatch(screen); m != nil {
		p.turns++
		p.plan = p.plan[:0]
		if p.turns%9 == 4 {
			p.plan = append(p.plan, "zz", "help", "b", "move A0 A1")
		}
		if mv := moverCells.FindStringSubmatch(m[1]); mv != nil && p.turns%3 == 0 {
			from := strings.Fields(mv[1])[0]
			for d := range 4 {
				p.plan = append(p.plan, "move "+from+" "+neighbour(from, d))
			}
		}
		if strings.Contains(m[1], "special") && p.turns%2 == 0 {
			p.plan = append(p.plan, "special "+p.nextShot())
		}
		if strings.Contains(m[1], "salvo") && p.turns%3 == 1 {
			c := p.nextShot()
			if p.side == abilities.AI {
				p.plan = append(p.plan, "salvo "+c+" "+neighbour(c, 1), "salvo "+c+" "+neighbour(c, 3))
			} else {
				p.plan = append(p.plan, "salvo "+c)
			}
		}
	}
	if len(p.plan) > 0 {
		l := p.plan[0]
		p.plan = p.plan[1:]
		return l
	}
	return p.nextShot()
}

// abGame plays one scripted abilities game through the seat and returns
// the screen and the replay.
func abGame(t *testing.T, r *abilities.Rules, ai string, seat, first int, seed uint64, maxLines int) (string, string) {
	t.Helper()
	fac, err := abplayers.New(ai, r, nil)
	require.NoError(t, err)
	var screen, rp bytes.Buffer
	p := newABPerson(seed, r.Sides[seat])
	in := bufio.NewReader(&typist{screen: &screen, next: p.next, max: maxLines})
	h := human.NewAbilities(r, seat, in, &screen, rand.New(rand.NewPCG(seed, 2)))
	res, err := human.PlayAbilitiesAgainstWith(r, h, fac(rand.New(rand.NewPCG(seed, 3)), 1-seat), first, human.Options{Replay: &rp, AI: ai, Seed: seed})
	require.NoError(t, err)
	require.Empty(t, res.Forfeits[seat].Kind, "the person never forfeits: %+v", res.Forfeits[seat])
	rec, err := abrecord.Read(bytes.NewReader(rp.Bytes()))
	require.NoError(t, err)
	require.NoError(t, abrecord.Verify(rec), "the replay verifies")
	return screen.String(), rp.String()
}

// junk is a line a person may type by mistake: noise, half commands,
// cells off the board, answers out of turn, very long lines.
func junk(rng *rand.Rand) string {
	words := []string{"", " ", "zz", "move", "move A1", "move A1 A1", "salvo", "salvo A1 C1", "salvo A1 A2 A3", "special", "special K1",
		"reveal", "reveal A1 A1 A1", "y y", "n", "yes", "no", "3 A1", "A11", "Z9", "д5", "Ё1", "A-1", "1A", "\x00\xff", "shoot", "fire A1 B1",
		"A1 B1", "b b", "help me", "?", "\t", strings.Repeat("A1 ", 2000)}
	if rng.IntN(4) == 0 {
		b := make([]byte, rng.IntN(12))
		for i := range b {
			b[i] = byte(32 + rng.IntN(95))
		}
		return string(b)
	}
	return words[rng.IntN(len(words))]
}

// TestAbilitiesBadLinesReprompt: a person who types a bad line before
// most of their lines, at every prompt (placement, action, answer), of
// either side, is refused and asked again every time: the seat never
// panics nor sends a forfeit, and every game ends by the rules.
func TestAbilitiesBadLinesReprompt(t *testing.T) {
	for _, tt := range []struct {
		ai   string
		seat int
	}{{"ab-random", 0}, {"ab-random", 1}, {"ab-density", 1}} {
		t.Run(fmt.Sprintf("%s/seat%d", tt.ai, tt.seat), func(t *testing.T) {
			r := abilities.DefaultRules()
			fac, err := abplayers.New(tt.ai, r, nil)
			require.NoError(t, err)
			var screen bytes.Buffer
			p := newABPerson(uint64(10+tt.seat), r.Sides[tt.seat])
			rng := rand.New(rand.NewPCG(4, uint64(tt.seat)))
			bad, last, seen := 0, "", ""
			next := func(s string) string {
				seen += s // the person reads everything, typing junk or not
				if last == "" && rng.IntN(3) > 0 {
					last = junk(rng)
					bad++
					return last
				}
				last = ""
				s, seen = seen, ""
				return p.next(s)
			}
			in := bufio.NewReader(&typist{screen: &screen, next: next, max: 20000})
			h := human.NewAbilities(r, tt.seat, in, &screen, rand.New(rand.NewPCG(5, 5)))
			res, err := human.PlayAbilitiesAgainstWith(r, h, fac(rand.New(rand.NewPCG(6, 6)), 1-tt.seat), 0, human.Options{})
			require.NoError(t, err)
			require.True(t, res.Started)
			require.Empty(t, res.Forfeits[tt.seat].Kind, "%+v", res.Forfeits)
			require.Empty(t, res.Forfeits[1-tt.seat].Kind, "%+v", res.Forfeits)
			out := screen.String()
			i := max(0, strings.Index(out, "(end of input")-4000)
			require.False(t, h.EOF(), "the game ended by the rules, not by the end of the input: %s", out[i:min(len(out), i+4200)])
			require.NotContains(t, screen.String(), "panic")
			require.Contains(t, screen.String(), human.EndHeader)
			t.Logf("%d junk lines typed (refused, or played when one was a legal action); %d lines of output", bad, strings.Count(screen.String(), "\n"))
		})
	}
}

// FuzzParseAbilities: no line makes the abilities parser panic, and an
// action it reads names cells on the board (salvo cells in order).
func FuzzParseAbilities(f *testing.F) {
	for _, s := range []string{"E5", "shoot e5", "special J10", "3 A1", "move D4 D5", "m a1 a2", "salvo E5 F5", "salvo F5 E5", "salvo E5",
		"y", "no", "reveal A1 B2 C3", "A1 B2 C3", "help", "b", "", "д5", "zz", "move A1", "K1", "A0", "A-1", "\x00"} {
		f.Add(s, false, false)
		f.Add(s, true, true)
	}
	r := abilities.DefaultRules()
	q := &abilities.Question{Ask: abilities.AskReveal, Seat: 0, At: 44, Count: 3}
	f.Fuzz(func(t *testing.T, line string, humans, asked bool) {
		side := abilities.AI
		if humans {
			side = abilities.Humans
		}
		var pending *abilities.Question
		if asked {
			pending = q
		}
		a, err := human.ParseAbilities(r, side, pending, line)
		if err != nil {
			return
		}
		on := func(c grid.Cell) { require.True(t, r.Base.Board.IsUsable(c), "%q: cell %d", line, c) }
		switch a.Kind {
		case abilities.Shoot:
			on(a.At)
		case abilities.Move:
			on(a.At)
			on(a.To)
		case abilities.Salvo:
			on(a.At)
			on(a.To)
			require.LessOrEqual(t, a.At, a.To, line)
			require.Equal(t, humans, a.At == a.To, line)
		case abilities.Reveal:
			for _, c := range a.Cells {
				on(c)
			}
		case abilities.Defend:
		default:
			t.Fatalf("%q: kind %v", line, a.Kind)
		}
	})
}

// TestAbilitiesGolden: scripted abilities games typed into the seat, of
// either side, moving, firing salvoes and special shots, answering
// questions and having bad lines refused, are pinned byte for byte with
// their replays under testdata/.
func TestAbilitiesGolden(t *testing.T) {
	hidden, err := abilities.NewRules(battleship.DefaultRules(), abilities.AI, abilities.Humans, abilities.Options{HideMoves: true, SalvoShootsAgain: true})
	require.NoError(t, err)
	for _, tt := range []struct {
		name        string
		rules       *abilities.Rules
		ai          string
		seat, first int
		seed        uint64
		lines       int
	}{
		{"abilities-ai-side-ab-density", abilities.DefaultRules(), "ab-density", 0, 0, 1, 5000},
		{"abilities-humans-side-ab-belief-hide-moves", hidden, "ab-belief", 1, 1, 2, 5000},
		{"abilities-humans-side-ab-random-input-ends", abilities.DefaultRules(), "ab-random", 1, 0, 3, 40},
	} {
		t.Run(tt.name, func(t *testing.T) {
			screen, rp := abGame(t, tt.rules, tt.ai, tt.seat, tt.first, tt.seed, tt.lines)
			got := screen + "==> replay <==\n" + rp
			path := filepath.Join("testdata", tt.name+".golden")
			if *update {
				if _, err := os.Stat(path); err == nil {
					t.Fatalf("%s exists: a golden transcript is never rewritten", path)
				}
				require.NoError(t, os.MkdirAll("testdata", 0o755))
				require.NoError(t, os.WriteFile(path, []byte(got), 0o644))
			}
			want, err := os.ReadFile(path)
			require.NoError(t, err)
			require.Equal(t, string(want), got)
			for _, seen := range []string{"not sent: ", "answer> ", human.EndHeader} {
				require.Contains(t, screen, seen)
			}
		})
	}
}
