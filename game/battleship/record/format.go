package record

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/replay"
)

// Name is the header's "game" value of Battleship replays.
const Name = battleship.Name

// TypeShot is the "type" of a Battleship replay's shot lines (Battleship
// replays have shot lines where submarine replays have step lines).
const TypeShot = "shot"

// Shot outcomes as written in shot lines (battleship.Outcome's names).
const (
	OutcomeMiss = "miss"
	OutcomeHit  = "hit"
	OutcomeKill = "kill"
)

// RC is a Battleship cell as [row, col], the Battleship wire's order. A cell
// that is not on the board (only in a recorded placement) keeps its index
// as [-1, index].
type RC [2]int

// UnmarshalJSON reads exactly two integers.
func (p *RC) UnmarshalJSON(b []byte) error {
	var v []int
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	if len(v) != 2 {
		return fmt.Errorf("cell %s: want [row, col]", b)
	}
	*p = RC{v[0], v[1]}
	return nil
}

// String formats p as [row,col].
func (p RC) String() string { return "[" + strconv.Itoa(p[0]) + "," + strconv.Itoa(p[1]) + "]" }

// RCOf returns the recorded form of c: [row, col] on the board, [-1, c]
// off it.
func RCOf(b *grid.Board, c grid.Cell) RC {
	if c < 0 || int(c) >= b.Size() {
		return RC{-1, int(c)}
	}
	x, y := b.XY(c)
	return RC{y, x}
}

// Cell returns the cell p names on b: [-1, index] is index; [row, col]
// must be on the board.
func (p RC) Cell(b *grid.Board) (grid.Cell, error) {
	if p[0] == -1 {
		if c := p[1]; c >= 0 && c < b.Size() {
			return grid.None, fmt.Errorf("cell [-1,%d] is on the board: write it [row, col]", c)
		}
		return grid.Cell(p[1]), nil
	}
	c, ok := b.At(p[1], p[0])
	if !ok {
		return grid.None, fmt.Errorf("cell %v is off the board (%d rows, %d columns)", p, b.Height(), b.Width())
	}
	return c, nil
}

func RCsOf(b *grid.Board, cs []grid.Cell) []RC {
	out := make([]RC, len(cs))
	for i, c := range cs {
		out[i] = RCOf(b, c)
	}
	return out
}

// Rules is the JSON form of battleship.Rules (the header's
// "rules").
type Rules struct {
	Width     int   `json:"width"`
	Height    int   `json:"height"`
	Rocks     []RC  `json:"rocks"` // [row, col], in index order
	Fleet     []int `json:"fleet"` // ship lengths, longest first
	DrawLimit int   `json:"draw_limit"`
}

// RulesOf returns the JSON form of r.
func RulesOf(r *battleship.Rules) Rules {
	b := r.Board
	return Rules{Width: b.Width(), Height: b.Height(), Rocks: RCsOf(b, b.Rocks()),
		Fleet: r.Fleet, DrawLimit: r.DrawLimit}
}

// Build returns the battleship.Rules the JSON form describes, validated.
func (jr Rules) Build() (*battleship.Rules, error) {
	r, err := jr.build()
	if err != nil {
		return nil, fmt.Errorf("%w: rules: %w", replay.ErrFormat, err)
	}
	return r, nil
}

func (jr Rules) build() (*battleship.Rules, error) {
	if jr.Width < 1 || jr.Height < 1 || jr.Width > grid.MaxCells || jr.Height > grid.MaxCells || jr.Width*jr.Height > grid.MaxCells {
		return nil, fmt.Errorf("board %dx%d (width x height): want at least 1x1 and at most %d cells", jr.Width, jr.Height, grid.MaxCells)
	}
	rocks := make([]grid.Cell, 0, len(jr.Rocks))
	for _, p := range jr.Rocks {
		if p[0] < 0 || p[0] >= jr.Height || p[1] < 0 || p[1] >= jr.Width {
			return nil, fmt.Errorf("rock %v is off the board", p)
		}
		rocks = append(rocks, grid.Cell(p[0]*jr.Width+p[1]))
	}
	b, err := grid.NewBoard(jr.Width, jr.Height, rocks)
	if err != nil {
		return nil, err
	}
	r := &battleship.Rules{Board: b, Fleet: jr.Fleet, DrawLimit: jr.DrawLimit}
	if err := r.Validate(); err != nil {
		return nil, err
	}
	return r, nil
}

// Header is the first line of a Battleship replay.
type Header struct {
	Type    string             `json:"type"`              // replay.TypeHeader
	Game    string             `json:"game"`              // Name
	Version string             `json:"version,omitempty"` // kaisen version that wrote the file
	Seed    uint64             `json:"seed"`              // the game's seed
	Match   *replay.MatchRef   `json:"match,omitempty"`   // the game's place in a match (kaisen match)
	Rules   Rules              `json:"rules"`
	Players [2]replay.SeatInfo `json:"players"` // by seat
	First   int                `json:"first"`   // the seat that shoots first
	// Adjudication is how the host ended games early (a research run's
	// kaisen match --max-actions); absent: by the rules only.
	Adjudication *replay.Adjudication `json:"adjudication,omitempty"`
}

// Placement is one seat's fleet as the player returned it, valid
// or not: one list of [row, col] cells per ship. Ships is nil ("ships":null)
// when there was no placement at all: the player crashed before placing, or
// (turn server) sent none or one that could not be decoded.
type Placement struct {
	Type  string `json:"type"` // replay.TypePlacement
	Seat  int    `json:"seat"`
	Ships [][]RC `json:"ships"`
}

// Shot is one shot of a Battleship game and its answer. A legal shot has
// At and Outcome (with Sunk on a kill, the sunk ship's cells sorted by
// index), Repeat when the cell had been shot before and Again when the
// shooter shoots again. An illegal shot (off the board, at a rock; the
// shooter forfeits) has Illegal, no outcome, and At for a rock or Cell (the
// raw index) off the board.
type Shot struct {
	Type     string            `json:"type"` // TypeShot
	N        int               `json:"n"`    // shot number, from 1, both seats counted
	Seat     int               `json:"seat"` // who shot
	At       *RC               `json:"at,omitempty"`
	Cell     *int              `json:"cell,omitempty"`
	Illegal  bool              `json:"illegal,omitempty"`
	Outcome  string            `json:"outcome,omitempty"` // OutcomeMiss, OutcomeHit or OutcomeKill
	Sunk     []RC              `json:"sunk,omitempty"`
	Repeat   bool              `json:"repeat,omitempty"`
	Again    bool              `json:"again,omitempty"`
	Decision *explain.Decision `json:"decision,omitempty"`
}

// Result is the last line of a Battleship replay.
type Result struct {
	Type     string           `json:"type"`    // replay.TypeResult
	Outcome  string           `json:"outcome"` // replay.OutcomeWin, replay.OutcomeDraw or replay.OutcomeAborted
	Winner   int              `json:"winner"`  // the winning seat, -1 on a draw
	Shots    [2]int           `json:"shots"`   // shots fired by each seat
	Forfeits []replay.Forfeit `json:"forfeits,omitempty"`
	// Adjudicated is why the host adjudicated the game a draw
	// (replay.AdjudicatedCap; the header's adjudication), absent when it
	// ended by the rules or a forfeit.
	Adjudicated string `json:"adjudicated,omitempty"`
}

// Replay is a whole Battleship replay file.
type Replay struct {
	Header     Header
	Placements [2]Placement // by seat
	Shots      []Shot
	Result     Result
}

// Rules builds the rules recorded in the header.
func (rp *Replay) Rules() (*battleship.Rules, error) { return rp.Header.Rules.Build() }

// Placement decodes seat's recorded fleet (nil when none was recorded).
func (rp *Replay) Placement(r *battleship.Rules, seat int) (battleship.Placement, error) {
	p, err := rp.placement(r, seat)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", replay.ErrFormat, err)
	}
	return p, nil
}

func (rp *Replay) placement(r *battleship.Rules, seat int) (battleship.Placement, error) {
	return DecodeFleet(r.Board, seat, rp.Placements[seat].Ships)
}

// DecodeFleet decodes seat's recorded ships on b (nil when none were
// recorded); the error names the seat and ship.
func DecodeFleet(b *grid.Board, seat int, ships [][]RC) (battleship.Placement, error) {
	if ships == nil {
		return nil, nil
	}
	p := make(battleship.Placement, len(ships))
	for i, sh := range ships {
		p[i] = make(battleship.Ship, len(sh))
		for k, rc := range sh {
			c, err := rc.Cell(b)
			if err != nil {
				return nil, fmt.Errorf("placement of seat %d: ship %d: %w", seat, i, err)
			}
			p[i][k] = c
		}
	}
	return p, nil
}

// EncodeShot returns shot number n as recorded: st and illegal are what the
// engine's Apply returned (illegal is nil for a legal shot) and d, when not
// nil, the shooter's explanation.
func EncodeShot(r *battleship.Rules, n int, st *battleship.Step, illegal error, d *explain.Decision) Shot {
	b := r.Board
	line := Shot{Type: TypeShot, N: n, Seat: st.Seat, Illegal: illegal != nil, Decision: d}
	if st.At >= 0 && int(st.At) < b.Size() {
		at := RCOf(b, st.At)
		line.At = &at
	} else {
		c := int(st.At)
		line.Cell = &c
	}
	if illegal == nil {
		ev := st.Shooter
		line.Outcome, line.Repeat, line.Again = ev.Outcome.String(), ev.Repeat, ev.Again
		if ev.Outcome == battleship.Kill {
			line.Sunk = RCsOf(b, ev.Sunk)
		}
	}
	return line
}

// Writer writes one Battleship replay, line by line, in the order
// header, placements, shots, result. Errors are sticky: after the first
// failed write every call does nothing and Flush returns that error.
type Writer struct {
	FleetWriter
	rules *battleship.Rules
}

// NewWriter starts a replay of a game under rules r on w and
// writes the header h. Type, Game and Rules of h are filled in; an empty
// Version is replaced by replay.Version().
func NewWriter(w io.Writer, r *battleship.Rules, h Header) *Writer {
	rw := &Writer{FleetWriter: NewFleetWriter(w, r.Board), rules: r}
	h.Type, h.Game, h.Rules = replay.TypeHeader, Name, RulesOf(r)
	if h.Version == "" {
		h.Version = replay.Version()
	}
	rw.Line(h)
	return rw
}

// Shot records shot number n (from 1): st and illegal are what the engine's
// Apply returned (illegal is nil for a legal shot) and d, when not nil, the
// shooter's explanation of it.
func (w *Writer) Shot(n int, st *battleship.Step, illegal error, d *explain.Decision) {
	w.Line(EncodeShot(w.rules, n, st, illegal, d))
}

// FleetWriter is the part of a replay writer that Battleship and its
// abilities variant share: the line writer, the board, and the placement and
// result lines.
type FleetWriter struct {
	replay.LineWriter
	board *grid.Board
}

func NewFleetWriter(w io.Writer, b *grid.Board) FleetWriter {
	return FleetWriter{LineWriter: replay.NewLineWriter(w, 16<<10), board: b}
}

// Placement records seat's fleet as the player returned it (a nil p is
// recorded as no ships, "ships":[]).
func (w *FleetWriter) Placement(seat int, p battleship.Placement) {
	ships := make([][]RC, len(p))
	for i, sh := range p {
		ships[i] = RCsOf(w.board, sh)
	}
	w.Line(Placement{Type: replay.TypePlacement, Seat: seat, Ships: ships})
}

// NoPlacement records that seat placed no fleet at all ("ships":null): it
// crashed first, or sent nothing usable.
func (w *FleetWriter) NoPlacement(seat int) {
	w.Line(Placement{Type: replay.TypePlacement, Seat: seat})
}

// Result records the end of the game.
func (w *FleetWriter) Result(r Result) {
	r.Type = replay.TypeResult
	w.Line(r)
}

// WriteTo writes rp in the replay format (Read's inverse).
func (rp *Replay) WriteTo(w io.Writer) (int64, error) {
	return replay.WriteReplay(w, rp.Header, rp.Placements, TypeShot, rp.Shots, rp.Result)
}
