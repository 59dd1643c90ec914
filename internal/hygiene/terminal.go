package hygiene

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/human"
	"github.com/kaisen-ai/kaisen/players"
	_ "github.com/kaisen-ai/kaisen/players/admiral" // links admiral and admiral-series into the registry
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/replay"
)

// TerminalOptions configures RunSubmarineTerminal and
// RunBattleshipTerminal.
type TerminalOptions struct {
	// Shadow, when set, names an AI that explains itself: the scripted
	// opponent is then an explain.Explainer whose explanations are that
	// AI's, told everything the opponent is told (its own fleet
	// included), as an AI opponent of kaisen play --human --against is.
	// The host may show them during play only if they say nothing of the
	// opponent's fleet.
	Shadow string
	// Why prints the shadow's explanation of each opponent action during
	// play, as kaisen play --human --against did before "hidden stays
	// hidden" (a test plants that leak with it; needs Shadow).
	Why bool
	// Out, when set, rewrites the seat's output before it is captured (a
	// test plants a leak with it).
	Out func(string) string
}

// endMarkers start the part of the terminal seat's output that comes
// after the game and shows the opponent's secrets by design: the
// opponent's fleet and the AI's reasons (human.EndHeader; the fleet line
// as the seat printed it before the header existed).
var endMarkers = []string{human.EndHeader, "the enemy fleet: "}

// terminalCapture is the seat's output up to the first end marker.
func terminalCapture(out string, opts TerminalOptions) Capture {
	for _, m := range endMarkers {
		if i := strings.Index(out, m); i >= 0 {
			out = out[:i]
		}
	}
	if opts.Out != nil {
		out = opts.Out(out)
	}
	c := Capture{}
	c.Add(ChannelTerminal, out)
	return c
}

// RunSubmarineTerminal plays g in-process with the terminal seat
// (internal/human) in seat, typing seat's placement and actions, against
// the scripted opponent (which resigns when its actions run out; the seat
// resigns at the end of its input), and returns the seat's output up to
// the game's end.
func RunSubmarineTerminal(r *submarine.Rules, g *SubmarineGame, seat int, opts TerminalOptions) (Capture, error) {
	var in strings.Builder
	for _, c := range g.Place[seat] {
		x, y := r.Board.XY(c)
		fmt.Fprintf(&in, "%d %d ", x, y)
	}
	in.WriteString("\n")
	var theirs []submarine.Action
	for i, a := range g.Actions {
		if i%2 != seat {
			theirs = append(theirs, a)
			continue
		}
		x, y := r.Board.XY(a.To)
		switch a.Kind {
		case submarine.Attack:
			fmt.Fprintf(&in, "a %d %d\n", x, y)
		case submarine.Move:
			fmt.Fprintf(&in, "m %s %d %d\n", r.Fleet[a.Ship].Name, x, y)
		default:
			return nil, fmt.Errorf("hygiene: seat %d plays %v, which a person cannot type", seat, a)
		}
	}
	t := terminal[*submarine.Game, submarine.Placement, submarine.Action, submarine.Step, submarine.Told]{
		local: human.SubmarineLocal(r),
		text: func(out io.Writer, rng *rand.Rand) human.Text[submarine.Placement, submarine.Action, submarine.Told] {
			return human.SubmarineText(r, out, rng)
		},
		shadow: func(name string) (game.Factory[submarine.Placement, submarine.Action, submarine.Told], error) {
			f, err := players.New(name, r, nil)
			if err != nil {
				return nil, err
			}
			return players.Adapt(f), nil
		},
	}
	return t.run(in.String(), &script[submarine.Placement, submarine.Action, submarine.Told]{
		place: g.Place[1-seat], acts: theirs, resign: invalidAction}, seat, opts)
}

// RunBattleshipTerminal plays g in-process with the Battleship terminal
// seat in seat, typing seat's fleet and shots, against the scripted
// opponent (which shoots off the board, an illegal shot, when its shots
// run out; at the end of its input the seat passes), and returns the
// seat's output up to the game's end.
func RunBattleshipTerminal(r *battleship.Rules, g *BattleshipGame, seat int, opts TerminalOptions) (Capture, error) {
	var in strings.Builder
	var names []string
	for _, s := range g.Place[seat] {
		names = append(names, r.ShipCoord(s, false))
	}
	in.WriteString(strings.Join(names, " ") + "\n")
	gm, err := battleship.NewGame(r, g.Place[0], g.Place[1], 0)
	if err != nil {
		return nil, fmt.Errorf("hygiene: battleship game: %w", err)
	}
	// off the board once its shots run out: the opponent forfeits
	opp := &script[battleship.Placement, grid.Cell, battleship.Event]{place: g.Place[1-seat], resign: grid.None}
	for _, c := range g.Shots {
		if gm.ToAct() == seat {
			in.WriteString(r.Coord(c, false) + "\n")
		} else {
			opp.acts = append(opp.acts, c)
		}
		gm.Apply(c)
	}
	t := terminal[*battleship.Game, battleship.Placement, grid.Cell, battleship.Step, battleship.Event]{
		local: human.BattleshipLocal(r),
		text: func(out io.Writer, rng *rand.Rand) human.Text[battleship.Placement, grid.Cell, battleship.Event] {
			return human.BattleshipText(r, out, rng)
		},
		shadow: func(name string) (game.Factory[battleship.Placement, grid.Cell, battleship.Event], error) {
			f, err := bsplayers.New(name, r, nil)
			if err != nil {
				return nil, err
			}
			return bsplayers.Adapt(f), nil
		},
	}
	return t.run(in.String(), opp, seat, opts)
}

// terminal is what a game gives the terminal run: its part of the
// in-process loop (human.Play), its seat's words, and its AIs by name
// (the shadow's).
type terminal[G game.State[A, S], P, A, S, O any] struct {
	local  *human.Local[G, P, A, S, O]
	text   func(out io.Writer, rng *rand.Rand) human.Text[P, A, O]
	shadow func(name string) (game.Factory[P, A, O], error)
}

// run plays one game in-process between the terminal seat in seat,
// reading the typed lines in, and the scripted opponent opp (told of
// opts.Shadow), and returns the seat's output up to the game's end.
func (t terminal[G, P, A, S, O]) run(in string, opp *script[P, A, O], seat int, opts TerminalOptions) (Capture, error) {
	var ai game.Player[P, A, O] = opp
	var ex explain.Explainer
	if opts.Shadow != "" {
		f, err := t.shadow(opts.Shadow)
		if err != nil {
			return nil, fmt.Errorf("hygiene: shadow: %w", err)
		}
		opp.shadow = f(rand.New(rand.NewPCG(1, 2)), 1-seat)
		var ok bool
		if ex, ok = game.As[explain.Explainer](opp.shadow); !ok {
			return nil, fmt.Errorf("hygiene: shadow %s does not explain itself", opts.Shadow)
		}
		ai = explained[P, A, O]{opp, ex}
	}
	var out bytes.Buffer
	h := human.NewPerson(t.text(&out, rand.New(rand.NewPCG(3, 4))), bufio.NewReader(strings.NewReader(in)), &out)
	if opts.Why && ex != nil {
		h.AfterOpponent = func() string { d := ex.Explain(); return replay.Summarize(&d) }
	}
	if _, err := human.Play(t.local, h, ai, seat, 0, human.Options{}); err != nil {
		return nil, fmt.Errorf("hygiene: terminal game: %w", err)
	}
	return terminalCapture(out.String(), opts), nil
}

// script is the scripted opponent: its placement, then its actions in
// order, then resign (an illegal action: it forfeits). A shadow AI, when
// set, is told everything and asked for its action at every turn (its
// choice is not played), so that it can explain itself.
type script[P, A, O any] struct {
	place  P
	acts   []A
	resign A
	shadow game.Player[P, A, O]
}

func (s *script[P, A, O]) Place() P {
	if s.shadow != nil {
		s.shadow.Place()
	}
	return s.place
}

func (s *script[P, A, O]) Act() A {
	if s.shadow != nil {
		s.shadow.Act()
	}
	if len(s.acts) == 0 {
		return s.resign
	}
	a := s.acts[0]
	s.acts = s.acts[1:]
	return a
}

func (s *script[P, A, O]) Observe(o O) {
	if s.shadow != nil {
		s.shadow.Observe(o)
	}
}

// explained is a script with a shadow: it explains itself.
type explained[P, A, O any] struct {
	*script[P, A, O]
	ex explain.Explainer
}

func (e explained[P, A, O]) Explain() explain.Decision { return e.ex.Explain() }
