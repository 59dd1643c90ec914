package record

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/replay"
)

// Name is the header's "game" value of submarine-game replays.
const Name = submarine.Name

const TypeStep = "step"

// Pos is a position [x, y]: x is the column, y the row (cell y*width + x).
// Cells that are not on the board keep their index: x = cell % width and
// y = cell / width (Go's truncated division), so every cell round-trips.
type Pos [2]int

func posOf(r *submarine.Rules, c grid.Cell) Pos {
	w := r.Board.Width()
	return Pos{int(c) % w, int(c) / w}
}

func (p Pos) cell(r *submarine.Rules) grid.Cell {
	return grid.Cell(p[1]*r.Board.Width() + p[0])
}

// Ship is one ship type of the fleet.
type Ship struct {
	Name string `json:"name"`
	HP   int    `json:"hp"`
}

// Rules is the JSON form of submarine.Rules.
type Rules struct {
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	Rocks     []Pos  `json:"rocks"` // unusable cells, in index order
	Fleet     []Ship `json:"fleet"`
	DrawLimit int    `json:"draw_limit"`
}

// RulesOf returns the JSON form of r.
func RulesOf(r *submarine.Rules) Rules {
	out := Rules{Width: r.Board.Width(), Height: r.Board.Height(), Rocks: []Pos{}, DrawLimit: r.DrawLimit}
	for _, c := range r.Board.Rocks() {
		out.Rocks = append(out.Rocks, posOf(r, c))
	}
	for _, s := range r.Fleet {
		out.Fleet = append(out.Fleet, Ship(s))
	}
	return out
}

// Build returns the submarine.Rules the JSON form describes, validated.
func (jr Rules) Build() (*submarine.Rules, error) {
	if jr.Width < 1 || jr.Height < 1 || jr.Width > grid.MaxCells || jr.Height > grid.MaxCells || jr.Width*jr.Height > grid.MaxCells {
		return nil, fmt.Errorf("%w: board %dx%d", replay.ErrFormat, jr.Width, jr.Height)
	}
	rocks := make([]grid.Cell, 0, len(jr.Rocks))
	for _, p := range jr.Rocks {
		if p[0] < 0 || p[0] >= jr.Width || p[1] < 0 || p[1] >= jr.Height {
			return nil, fmt.Errorf("%w: rock [%d,%d] is off the %dx%d board", replay.ErrFormat, p[0], p[1], jr.Width, jr.Height)
		}
		rocks = append(rocks, grid.Cell(p[1]*jr.Width+p[0]))
	}
	b, err := grid.NewBoard(jr.Width, jr.Height, rocks)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", replay.ErrFormat, err)
	}
	r := &submarine.Rules{Board: b, DrawLimit: jr.DrawLimit}
	for _, s := range jr.Fleet {
		r.Fleet = append(r.Fleet, submarine.ShipSpec(s))
	}
	if err := r.Validate(); err != nil {
		return nil, fmt.Errorf("%w: %w", replay.ErrFormat, err)
	}
	return r, nil
}

// Header is the first line of a replay.
type Header struct {
	Type    string             `json:"type"`    // replay.TypeHeader
	Game    string             `json:"game"`    // Name
	Version string             `json:"version"` // kaisen version that wrote the file
	Seed    uint64             `json:"seed"`    // the game's seed: the players' random streams derive from it
	Match   *replay.MatchRef   `json:"match,omitempty"`
	Rules   Rules              `json:"rules"`
	Players [2]replay.SeatInfo `json:"players"` // by seat
	First   int                `json:"first"`   // the seat that acts first
	// Adjudication is how the host ended games early (a research run's
	// kaisen match --adjudicate, --max-actions); absent: by the rules only.
	Adjudication *replay.Adjudication `json:"adjudication,omitempty"`
}

// Placement is one seat's initial placement: Cells[i] is the cell of fleet
// ship i. It records what the player returned, valid or not.
type Placement struct {
	Type  string `json:"type"` // replay.TypePlacement
	Seat  int    `json:"seat"`
	Cells []Pos  `json:"cells"`
}

// Action is the JSON form of submarine.Action.
//
//	{"kind":"attack","to":[x,y]}
//	{"kind":"move","ship":"w","to":[x,y]}
//	{"kind":"invalid"}
//
// A move of a ship index outside the fleet records it as ship_index.
type Action struct {
	Kind      string `json:"kind"`
	Ship      string `json:"ship,omitempty"`
	ShipIndex *int   `json:"ship_index,omitempty"`
	To        *Pos   `json:"to,omitempty"`
}

// EncodeAction returns the JSON form of a.
func EncodeAction(r *submarine.Rules, a submarine.Action) Action {
	switch a.Kind {
	case submarine.Attack:
		to := posOf(r, a.To)
		return Action{Kind: a.Kind.String(), To: &to}
	case submarine.Move:
		to := posOf(r, a.To)
		out := Action{Kind: a.Kind.String(), To: &to}
		if a.Ship >= 0 && a.Ship < len(r.Fleet) {
			out.Ship = r.Fleet[a.Ship].Name
		} else {
			i := a.Ship
			out.ShipIndex = &i
		}
		return out
	default:
		return Action{Kind: submarine.Invalid.String()}
	}
}

// Decode returns the submarine.Action a describes.
func (a Action) Decode(r *submarine.Rules) (submarine.Action, error) {
	switch a.Kind {
	case "attack":
		if a.To == nil {
			return submarine.Action{}, fmt.Errorf("%w: attack without \"to\"", replay.ErrFormat)
		}
		return submarine.AttackAt(a.To.cell(r)), nil
	case "move":
		if a.To == nil {
			return submarine.Action{}, fmt.Errorf("%w: move without \"to\"", replay.ErrFormat)
		}
		ship := submarine.NoShip
		switch {
		case a.Ship != "":
			i, ok := r.ShipIndex(a.Ship)
			if !ok {
				return submarine.Action{}, fmt.Errorf("%w: move of unknown ship %q", replay.ErrFormat, a.Ship)
			}
			ship = i
		case a.ShipIndex != nil:
			ship = *a.ShipIndex
		}
		return submarine.MoveTo(ship, a.To.cell(r)), nil
	case "invalid":
		return submarine.Action{Kind: submarine.Invalid, Ship: submarine.NoShip, To: grid.None}, nil
	default:
		return submarine.Action{}, fmt.Errorf("%w: action kind %q", replay.ErrFormat, a.Kind)
	}
}

// Event is the JSON form of submarine.Event, what one side was told:
//
//	{"mine":true,"kind":"attack","at":[2,1],"hit":"c","sunk":true,"near":["w"]}
//	{"mine":true,"kind":"move","ship":"w","to":[0,3],"d":[0,2]}   (the mover)
//	{"kind":"move","ship":"w","d":[0,2]}                          (the other side)
//	{"kind":"attack","illegal":true}
//
// Absent keys are the zero value: no hit, not sunk, nothing near.
type Event struct {
	Mine    bool     `json:"mine,omitempty"`
	Kind    string   `json:"kind"`
	Illegal bool     `json:"illegal,omitempty"`
	At      *Pos     `json:"at,omitempty"`
	Hit     string   `json:"hit,omitempty"`
	Sunk    bool     `json:"sunk,omitempty"`
	Near    []string `json:"near,omitempty"`
	Ship    string   `json:"ship,omitempty"`
	To      *Pos     `json:"to,omitempty"`
	D       *[2]int  `json:"d,omitempty"` // a move's displacement [dx, dy]
}

func shipName(r *submarine.Rules, i int) string {
	if i >= 0 && i < len(r.Fleet) {
		return r.Fleet[i].Name
	}
	return fmt.Sprintf("#%d", i)
}

// EncodeEvent returns the JSON form of ev.
func EncodeEvent(r *submarine.Rules, ev submarine.Event) Event {
	e := Event{Mine: ev.Mine, Kind: ev.Kind.String(), Illegal: ev.Illegal, Sunk: ev.Sunk}
	if ev.At != grid.None {
		p := posOf(r, ev.At)
		e.At = &p
	}
	if ev.Hit != submarine.NoShip {
		e.Hit = shipName(r, ev.Hit)
	}
	for i := range len(r.Fleet) {
		if ev.Near.Has(i) {
			e.Near = append(e.Near, r.Fleet[i].Name)
		}
	}
	if ev.Ship != submarine.NoShip {
		e.Ship = shipName(r, ev.Ship)
	}
	if ev.To != grid.None {
		p := posOf(r, ev.To)
		e.To = &p
	}
	if ev.DX != 0 || ev.DY != 0 {
		e.D = &[2]int{ev.DX, ev.DY}
	}
	return e
}

// Decode returns the submarine.Event e describes.
func (e Event) Decode(r *submarine.Rules) (submarine.Event, error) {
	ev := submarine.Event{Mine: e.Mine, Illegal: e.Illegal, Sunk: e.Sunk,
		At: grid.None, Hit: submarine.NoShip, Ship: submarine.NoShip, To: grid.None}
	switch e.Kind {
	case "attack":
		ev.Kind = submarine.Attack
	case "move":
		ev.Kind = submarine.Move
	case "invalid":
		ev.Kind = submarine.Invalid
	default:
		return ev, fmt.Errorf("%w: event kind %q", replay.ErrFormat, e.Kind)
	}
	ship := func(name string) (int, error) {
		if name == "" {
			return submarine.NoShip, nil
		}
		i, ok := r.ShipIndex(name)
		if !ok {
			return submarine.NoShip, fmt.Errorf("%w: event names unknown ship %q", replay.ErrFormat, name)
		}
		return i, nil
	}
	var err error
	if e.At != nil {
		ev.At = e.At.cell(r)
	}
	if ev.Hit, err = ship(e.Hit); err != nil {
		return ev, err
	}
	for _, n := range e.Near {
		i, err := ship(n)
		if err != nil {
			return ev, err
		}
		ev.Near = ev.Near.With(i)
	}
	if ev.Ship, err = ship(e.Ship); err != nil {
		return ev, err
	}
	if e.To != nil {
		ev.To = e.To.cell(r)
	}
	if e.D != nil {
		ev.DX, ev.DY = e.D[0], e.D[1]
	}
	return ev, nil
}

// String is e's JSON form.
func (e Event) String() string {
	b, _ := json.Marshal(e)
	return string(b)
}

// Equal reports whether e and o are the same event.
func (e Event) Equal(o Event) bool {
	eqPos := func(a, b *Pos) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	eqD := func(a, b *[2]int) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	return e.Mine == o.Mine && e.Kind == o.Kind && e.Illegal == o.Illegal && eqPos(e.At, o.At) &&
		e.Hit == o.Hit && e.Sunk == o.Sunk && slices.Equal(e.Near, o.Near) && e.Ship == o.Ship &&
		eqPos(e.To, o.To) && eqD(e.D, o.D)
}

// Step is one action of the game and what each side was told about it.
type Step struct {
	Type     string            `json:"type"` // TypeStep
	N        int               `json:"n"`    // action number, from 1
	Seat     int               `json:"seat"` // who acted
	Action   Action            `json:"action"`
	Actor    Event             `json:"actor"`           // what the actor was told
	Other    Event             `json:"other"`           // what the other side was told
	Error    string            `json:"error,omitempty"` // why the action was illegal
	Decision *explain.Decision `json:"decision,omitempty"`
}

// Result is the last line of a replay.
type Result struct {
	Type     string           `json:"type"`    // replay.TypeResult
	Outcome  string           `json:"outcome"` // replay.OutcomeWin, replay.OutcomeDraw or replay.OutcomeAborted
	Winner   int              `json:"winner"`  // the winning seat, -1 on a draw or when aborted
	Actions  int              `json:"actions"` // number of actions played
	Forfeits []replay.Forfeit `json:"forfeits,omitempty"`
	// Adjudicated is why the host adjudicated the game a draw
	// (replay.AdjudicatedDraw, replay.AdjudicatedCap; the header's
	// adjudication), absent when it ended by the rules or a forfeit.
	Adjudicated string `json:"adjudicated,omitempty"`
}

// Replay is a whole replay file.
type Replay struct {
	Header     Header
	Placements [2]Placement // by seat
	Steps      []Step
	Result     Result
}

// Rules builds the rules recorded in the header.
func (rp *Replay) Rules() (*submarine.Rules, error) { return rp.Header.Rules.Build() }

// Placement decodes seat's recorded placement.
func (rp *Replay) Placement(r *submarine.Rules, seat int) submarine.Placement {
	cells := rp.Placements[seat].Cells
	p := make(submarine.Placement, len(cells))
	for i, c := range cells {
		p[i] = c.cell(r)
	}
	return p
}

// EncodePlacement returns the recorded form of p.
func EncodePlacement(r *submarine.Rules, seat int, p submarine.Placement) Placement {
	out := Placement{Type: replay.TypePlacement, Seat: seat, Cells: make([]Pos, len(p))}
	for i, c := range p {
		out.Cells[i] = posOf(r, c)
	}
	return out
}

func fleetNames(r *submarine.Rules) string {
	names := make([]string, len(r.Fleet))
	for i, s := range r.Fleet {
		names[i] = fmt.Sprintf("%s(%d)", s.Name, s.HP)
	}
	return strings.Join(names, " ")
}
