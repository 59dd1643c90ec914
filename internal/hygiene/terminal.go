package hygiene

import (
	"bufio"
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/kaisen-ai/kaisen/explain"
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
	opp := &subScript{place: g.Place[1-seat], acts: theirs}
	var ai players.Player = opp
	if opts.Shadow != "" {
		f, err := players.New(opts.Shadow, r, nil)
		if err != nil {
			return nil, fmt.Errorf("hygiene: shadow: %w", err)
		}
		sh := f(rand.New(rand.NewPCG(1, 2)))
		if _, ok := sh.(explain.Explainer); !ok {
			return nil, fmt.Errorf("hygiene: shadow %s does not explain itself", opts.Shadow)
		}
		opp.shadow = sh
		ai = &explainedSub{opp}
	}
	var out bytes.Buffer
	h := human.New(r, bufio.NewReader(strings.NewReader(in.String())), &out, rand.New(rand.NewPCG(3, 4)))
	if opts.Why && opp.shadow != nil {
		h.AfterOpponent = func() string { d := ai.(explain.Explainer).Explain(); return replay.Summarize(&d) }
	}
	human.PlayAgainst(r, h, ai, seat)
	return terminalCapture(out.String(), opts), nil
}

// subScript is the scripted submarine opponent: its placement, then its
// actions in order, then it resigns. A shadow AI, when set, is told
// everything and asked for its action at every turn (its choice is not
// played), so that it can explain itself.
type subScript struct {
	place  submarine.Placement
	acts   []submarine.Action
	shadow players.Player
}

func (s *subScript) Place() submarine.Placement {
	if s.shadow != nil {
		s.shadow.Place()
	}
	return s.place
}

func (s *subScript) Act() submarine.Action {
	if s.shadow != nil {
		s.shadow.Act()
	}
	if len(s.acts) == 0 {
		return invalidAction
	}
	a := s.acts[0]
	s.acts = s.acts[1:]
	return a
}

func (s *subScript) Observe(ev submarine.Event, v *submarine.View) {
	if s.shadow != nil {
		s.shadow.Observe(ev, v)
	}
}

// explainedSub is a subScript with a shadow: it explains itself.
type explainedSub struct{ *subScript }

func (e *explainedSub) Explain() explain.Decision {
	return e.shadow.(explain.Explainer).Explain()
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
	opp := &bsScript{place: g.Place[1-seat]}
	for _, c := range g.Shots {
		if gm.ToAct() == seat {
			in.WriteString(r.Coord(c, false) + "\n")
		} else {
			opp.shots = append(opp.shots, c)
		}
		gm.Apply(c)
	}
	var ai bsplayers.Player = opp
	if opts.Shadow != "" {
		f, err := bsplayers.New(opts.Shadow, r, nil)
		if err != nil {
			return nil, fmt.Errorf("hygiene: shadow: %w", err)
		}
		sh := f(rand.New(rand.NewPCG(1, 2)))
		if _, ok := sh.(explain.Explainer); !ok {
			return nil, fmt.Errorf("hygiene: shadow %s does not explain itself", opts.Shadow)
		}
		opp.shadow = sh
		ai = &explainedBS{opp}
	}
	var out bytes.Buffer
	h := human.NewBattleship(r, bufio.NewReader(strings.NewReader(in.String())), &out, rand.New(rand.NewPCG(3, 4)))
	if opts.Why && opp.shadow != nil {
		h.AfterOpponent = func() string { d := ai.(explain.Explainer).Explain(); return replay.Summarize(&d) }
	}
	human.PlayBattleshipAgainst(r, h, ai, seat)
	return terminalCapture(out.String(), opts), nil
}

// bsScript is the scripted Battleship opponent (see subScript).
type bsScript struct {
	place  battleship.Placement
	shots  []grid.Cell
	shadow bsplayers.Player
}

func (s *bsScript) Place() battleship.Placement {
	if s.shadow != nil {
		s.shadow.Place()
	}
	return s.place
}

func (s *bsScript) Shoot() grid.Cell {
	if s.shadow != nil {
		s.shadow.Shoot()
	}
	if len(s.shots) == 0 {
		return grid.None // off the board: the opponent forfeits
	}
	c := s.shots[0]
	s.shots = s.shots[1:]
	return c
}

func (s *bsScript) Observe(ev battleship.Event) {
	if s.shadow != nil {
		s.shadow.Observe(ev)
	}
}

// explainedBS is a bsScript with a shadow: it explains itself.
type explainedBS struct{ *bsScript }

func (e *explainedBS) Explain() explain.Decision {
	return e.shadow.(explain.Explainer).Explain()
}
