package replay

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// GameBattleship is the header's "game" value of Battleship replays.
const GameBattleship = battleship.Name

// TypeShot is the "type" of a Battleship replay's shot lines (Battleship
// replays have shot lines where submarine replays have step lines).
const TypeShot = "shot"

// ForfeitProtocol is a Battleship forfeit kind: the seat whose turn it was
// broke the protocol instead of shooting (no shot within the time limit, a
// line that is not a shot, a disconnect). No shot line is recorded for it.
// Recorded by the turn server.
const ForfeitProtocol = "protocol"

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

// rcOf returns the recorded form of c: [row, col] on the board, [-1, c]
// off it.
func rcOf(b *grid.Board, c grid.Cell) RC {
	if c < 0 || int(c) >= b.Size() {
		return RC{-1, int(c)}
	}
	x, y := b.XY(c)
	return RC{y, x}
}

// cell returns the cell p names on b: [-1, index] is index; [row, col]
// must be on the board.
func (p RC) cell(b *grid.Board) (grid.Cell, error) {
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

func rcsOf(b *grid.Board, cs []grid.Cell) []RC {
	out := make([]RC, len(cs))
	for i, c := range cs {
		out[i] = rcOf(b, c)
	}
	return out
}

// BattleshipRules is the JSON form of battleship.Rules (the header's
// "rules").
type BattleshipRules struct {
	Width     int   `json:"width"`
	Height    int   `json:"height"`
	Rocks     []RC  `json:"rocks"` // [row, col], in index order
	Fleet     []int `json:"fleet"` // ship lengths, longest first
	DrawLimit int   `json:"draw_limit"`
}

// BattleshipRulesOf returns the JSON form of r.
func BattleshipRulesOf(r *battleship.Rules) BattleshipRules {
	b := r.Board
	return BattleshipRules{Width: b.Width(), Height: b.Height(), Rocks: rcsOf(b, b.Rocks()),
		Fleet: r.Fleet, DrawLimit: r.DrawLimit}
}

// Build returns the battleship.Rules the JSON form describes, validated.
func (jr BattleshipRules) Build() (*battleship.Rules, error) {
	r, err := jr.build()
	if err != nil {
		return nil, fmt.Errorf("%w: rules: %w", ErrFormat, err)
	}
	return r, nil
}

func (jr BattleshipRules) build() (*battleship.Rules, error) {
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

// BattleshipHeader is the first line of a Battleship replay.
type BattleshipHeader struct {
	Type    string          `json:"type"`              // TypeHeader
	Game    string          `json:"game"`              // GameBattleship
	Version string          `json:"version,omitempty"` // kaisen version that wrote the file
	Seed    uint64          `json:"seed"`              // the game's seed
	Match   *MatchRef       `json:"match,omitempty"`   // the game's place in a match (kaisen match)
	Rules   BattleshipRules `json:"rules"`
	Players [2]SeatInfo     `json:"players"` // by seat
	First   int             `json:"first"`   // the seat that shoots first
}

// BattleshipPlacement is one seat's fleet as the player returned it, valid
// or not: one list of [row, col] cells per ship. Ships is nil ("ships":null)
// when there was no placement at all: the player crashed before placing, or
// (turn server) sent none or one that could not be decoded.
type BattleshipPlacement struct {
	Type  string `json:"type"` // TypePlacement
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

// BattleshipResult is the last line of a Battleship replay.
type BattleshipResult struct {
	Type     string    `json:"type"`    // TypeResult
	Outcome  string    `json:"outcome"` // OutcomeWin, OutcomeDraw or OutcomeAborted
	Winner   int       `json:"winner"`  // the winning seat, -1 on a draw
	Shots    [2]int    `json:"shots"`   // shots fired by each seat
	Forfeits []Forfeit `json:"forfeits,omitempty"`
}

// BattleshipReplay is a whole Battleship replay file.
type BattleshipReplay struct {
	Header     BattleshipHeader
	Placements [2]BattleshipPlacement // by seat
	Shots      []Shot
	Result     BattleshipResult
}

// Rules builds the rules recorded in the header.
func (rp *BattleshipReplay) Rules() (*battleship.Rules, error) { return rp.Header.Rules.Build() }

// Placement decodes seat's recorded fleet (nil when none was recorded).
func (rp *BattleshipReplay) Placement(r *battleship.Rules, seat int) (battleship.Placement, error) {
	p, err := rp.placement(r, seat)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return p, nil
}

func (rp *BattleshipReplay) placement(r *battleship.Rules, seat int) (battleship.Placement, error) {
	return decodeFleet(r.Board, seat, rp.Placements[seat].Ships)
}

// decodeFleet decodes seat's recorded ships on b (nil when none were
// recorded); the error names the seat and ship.
func decodeFleet(b *grid.Board, seat int, ships [][]RC) (battleship.Placement, error) {
	if ships == nil {
		return nil, nil
	}
	p := make(battleship.Placement, len(ships))
	for i, sh := range ships {
		p[i] = make(battleship.Ship, len(sh))
		for k, rc := range sh {
			c, err := rc.cell(b)
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
		at := rcOf(b, st.At)
		line.At = &at
	} else {
		c := int(st.At)
		line.Cell = &c
	}
	if illegal == nil {
		ev := st.Shooter
		line.Outcome, line.Repeat, line.Again = ev.Outcome.String(), ev.Repeat, ev.Again
		if ev.Outcome == battleship.Kill {
			line.Sunk = rcsOf(b, ev.Sunk)
		}
	}
	return line
}

// BattleshipWriter writes one Battleship replay, line by line, in the order
// header, placements, shots, result. Errors are sticky: after the first
// failed write every call does nothing and Flush returns that error.
type BattleshipWriter struct {
	fleetWriter
	rules *battleship.Rules
}

// NewBattleshipWriter starts a replay of a game under rules r on w and
// writes the header h. Type, Game and Rules of h are filled in; an empty
// Version is replaced by Version().
func NewBattleshipWriter(w io.Writer, r *battleship.Rules, h BattleshipHeader) *BattleshipWriter {
	rw := &BattleshipWriter{fleetWriter: newFleetWriter(w, r.Board), rules: r}
	h.Type, h.Game, h.Rules = TypeHeader, GameBattleship, BattleshipRulesOf(r)
	if h.Version == "" {
		h.Version = Version()
	}
	rw.write(h)
	return rw
}

// Shot records shot number n (from 1): st and illegal are what the engine's
// Apply returned (illegal is nil for a legal shot) and d, when not nil, the
// shooter's explanation of it.
func (w *BattleshipWriter) Shot(n int, st *battleship.Step, illegal error, d *explain.Decision) {
	w.write(EncodeShot(w.rules, n, st, illegal, d))
}

// fleetWriter is the part of a replay writer that Battleship and its
// abilities variant share: the line writer, the board, and the placement and
// result lines.
type fleetWriter struct {
	lineWriter
	board *grid.Board
}

func newFleetWriter(w io.Writer, b *grid.Board) fleetWriter {
	return fleetWriter{lineWriter: newLineWriter(w, 16<<10), board: b}
}

// Placement records seat's fleet as the player returned it (a nil p is
// recorded as no ships, "ships":[]).
func (w *fleetWriter) Placement(seat int, p battleship.Placement) {
	ships := make([][]RC, len(p))
	for i, sh := range p {
		ships[i] = rcsOf(w.board, sh)
	}
	w.write(BattleshipPlacement{Type: TypePlacement, Seat: seat, Ships: ships})
}

// NoPlacement records that seat placed no fleet at all ("ships":null): it
// crashed first, or sent nothing usable.
func (w *fleetWriter) NoPlacement(seat int) {
	w.write(BattleshipPlacement{Type: TypePlacement, Seat: seat})
}

// Result records the end of the game.
func (w *fleetWriter) Result(r BattleshipResult) {
	r.Type = TypeResult
	w.write(r)
}

// WriteTo writes rp in the replay format (ReadBattleship's inverse).
func (rp *BattleshipReplay) WriteTo(w io.Writer) (int64, error) {
	return writeLines(w, func(lw *lineWriter) {
		h := rp.Header
		h.Type = TypeHeader
		lw.write(h)
		for _, p := range rp.Placements {
			p.Type = TypePlacement
			lw.write(p)
		}
		for _, s := range rp.Shots {
			s.Type = TypeShot
			lw.write(s)
		}
		res := rp.Result
		res.Type = TypeResult
		lw.write(res)
	})
}
