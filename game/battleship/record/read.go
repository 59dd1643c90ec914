package record

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/replay"
)

var (
	bsHeaderKeys    = keySet{req: []string{"type", "game", "seed", "rules", "players", "first"}, opt: []string{"version", "match", "adjudication"}}
	bsRulesKeys     = keySet{req: []string{"width", "height", "rocks", "fleet", "draw_limit"}}
	bsMatchKeys     = keySet{req: []string{"seed", "index"}}
	bsSeatKeys      = keySet{req: []string{"seat", "name"}, opt: []string{"role"}}
	bsPlacementKeys = keySet{req: []string{"type", "seat", "ships"}, null: []string{"ships"}}
	bsShotKeys      = keySet{req: []string{"type", "n", "seat"},
		opt: []string{"at", "cell", "illegal", "outcome", "sunk", "repeat", "again", "decision"}}
	bsResultKeys  = keySet{req: []string{"type", "outcome", "winner", "shots"}, opt: []string{"forfeits", "adjudicated"}}
	bsForfeitKeys = keySet{req: []string{"seat", "kind", "reason"}}
)

// keySet lists the keys a JSON object must have (req) and may have (opt),
// and which of them may be null.
type keySet struct {
	req, opt, null []string
}

// check decodes raw as an object and checks its keys: every required key
// present, no key outside req and opt, no null but where allowed. It
// returns the members.
func (ks keySet) check(raw []byte, what string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", what, err)
	}
	if m == nil {
		return nil, fmt.Errorf("%s: null, want an object", what)
	}
	var errs []string
	for _, k := range ks.req {
		if _, ok := m[k]; !ok {
			errs = append(errs, fmt.Sprintf("no %q", k))
		}
	}
	var unknown []string
	for k, v := range m {
		known := slices.Contains(ks.req, k) || slices.Contains(ks.opt, k)
		switch {
		case !known:
			unknown = append(unknown, fmt.Sprintf("%q", k))
		case string(v) == "null" && !slices.Contains(ks.null, k):
			errs = append(errs, fmt.Sprintf("%q is null", k))
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		errs = append(errs, "unknown key "+strings.Join(unknown, ", "))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s: %s", what, strings.Join(errs, "; "))
	}
	return m, nil
}

// checkList checks that raw is an array whose elements have the keys ks.
func (ks keySet) checkList(raw json.RawMessage, what string) error {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	for i, it := range items {
		if _, err := ks.check(it, fmt.Sprintf("%s[%d]", what, i)); err != nil {
			return err
		}
	}
	return nil
}

// Read parses a whole Battleship replay strictly: a header with
// valid rules, the two placements in seat order, shots numbered 1, 2, ...
// and one result line at the end (blank lines are ignored). Every line must
// have exactly its documented keys (an unknown, missing or null key is an
// error; a recorded Decision is read as it comes), cells must be on the
// recorded board, and each line must be consistent in itself (a legal shot
// has an outcome, sunk cells only on a kill, ...). Errors wrap replay.ErrFormat
// and name the line. Whether the game is what the rules produce is
// Verify's job.
func Read(r io.Reader) (*Replay, error) {
	p := bsParser{rp: &Replay{}}
	if err := replay.ScanLines(r, p.line); err != nil {
		return nil, err
	}
	if p.stage != bsDone {
		what := [...]string{"empty file", "truncated: no placements", "truncated: no placement of seat 1", "truncated: no result line"}[p.stage]
		return nil, fmt.Errorf("%w: %s", replay.ErrFormat, what)
	}
	return p.rp, nil
}

// ReadFile is Read of the file at path.
func ReadFile(path string) (*Replay, error) {
	return replay.ReadFile(path, Read)
}

// Stages of the parser: what the next line must be.
const (
	bsWantHeader = iota
	bsWantPlacement0
	bsWantPlacement1
	bsWantShot // a shot or the result
	bsDone
)

type bsParser struct {
	rp    *Replay
	rules *battleship.Rules
	stage int
}

func (p *bsParser) line(line []byte) error {
	var probe struct {
		Type string `json:"type"`
	}
	if err := json.Unmarshal(line, &probe); err != nil {
		return err
	}
	want := [...]string{replay.TypeHeader, replay.TypePlacement, replay.TypePlacement, TypeShot, ""}[p.stage]
	if p.stage == bsWantShot && probe.Type == replay.TypeResult {
		want = replay.TypeResult
	}
	if probe.Type != want {
		if p.stage == bsDone {
			return fmt.Errorf("%q line after the result", probe.Type)
		}
		if p.stage == bsWantShot {
			return fmt.Errorf("%q line where a %q or %q line belongs", probe.Type, TypeShot, replay.TypeResult)
		}
		return fmt.Errorf("%q line where a %q line belongs", probe.Type, want)
	}
	switch probe.Type {
	case replay.TypeHeader:
		return p.header(line)
	case replay.TypePlacement:
		return p.placement(line)
	case TypeShot:
		return p.shot(line)
	default:
		return p.result(line)
	}
}

func (p *bsParser) header(line []byte) error {
	m, err := bsHeaderKeys.check(line, "header")
	if err != nil {
		return err
	}
	if _, err := bsRulesKeys.check(m["rules"], "header: rules"); err != nil {
		return err
	}
	if raw, ok := m["match"]; ok {
		if _, err := bsMatchKeys.check(raw, "header: match"); err != nil {
			return err
		}
	}
	if err := bsSeatKeys.checkList(m["players"], "header: players"); err != nil {
		return err
	}
	var n []json.RawMessage
	if err := json.Unmarshal(m["players"], &n); err == nil && len(n) != 2 {
		return fmt.Errorf("header: %d players, want 2", len(n))
	}
	h := &p.rp.Header
	if err := json.Unmarshal(line, h); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	if h.Game != Name {
		return fmt.Errorf("header: game %q, want %q", h.Game, Name)
	}
	if h.First != 0 && h.First != 1 {
		return fmt.Errorf("header: first seat %d, want 0 or 1", h.First)
	}
	for s, pl := range h.Players {
		if pl.Seat != s {
			return fmt.Errorf("header: players[%d] has seat %d", s, pl.Seat)
		}
	}
	if p.rules, err = h.Rules.build(); err != nil {
		return fmt.Errorf("header: rules: %w", err)
	}
	p.stage = bsWantPlacement0
	return nil
}

func (p *bsParser) placement(line []byte) error {
	if _, err := bsPlacementKeys.check(line, "placement"); err != nil {
		return err
	}
	seat := p.stage - bsWantPlacement0
	pl := &p.rp.Placements[seat]
	if err := json.Unmarshal(line, pl); err != nil {
		return fmt.Errorf("placement: %w", err)
	}
	if pl.Seat != seat {
		return fmt.Errorf("placement of seat %d, want seat %d", pl.Seat, seat)
	}
	if _, err := p.rp.placement(p.rules, seat); err != nil {
		return err
	}
	p.stage++
	return nil
}

func (p *bsParser) shot(line []byte) error {
	if _, err := bsShotKeys.check(line, "shot"); err != nil {
		return err
	}
	var s Shot
	if err := json.Unmarshal(line, &s); err != nil {
		return fmt.Errorf("shot: %w", err)
	}
	if want := len(p.rp.Shots) + 1; s.N != want {
		return fmt.Errorf("shot %d, want shot %d", s.N, want)
	}
	bad := func(format string, args ...any) error {
		return fmt.Errorf("shot %d: %s", s.N, fmt.Sprintf(format, args...))
	}
	if s.Seat != 0 && s.Seat != 1 {
		return bad("by seat %d", s.Seat)
	}
	b := p.rules.Board
	switch {
	case (s.At == nil) == (s.Cell == nil):
		return bad(`want exactly one of "at" and "cell"`)
	case s.At != nil && s.At[0] == -1:
		return bad(`"at" %v: an off-board cell is written "cell": index`, *s.At)
	case s.At != nil:
		if _, err := s.At.Cell(b); err != nil {
			return fmt.Errorf("shot %d: at: %w", s.N, err)
		}
	case !s.Illegal:
		return bad(`"cell" %d on a legal shot`, *s.Cell)
	case *s.Cell >= 0 && *s.Cell < b.Size():
		return bad(`"cell" %d is on the board: write it "at": [row, col]`, *s.Cell)
	}
	if s.Illegal {
		if s.Outcome != "" || s.Sunk != nil || s.Repeat || s.Again {
			return bad("an illegal shot has no outcome, sunk, repeat or again")
		}
	} else {
		switch s.Outcome {
		case OutcomeMiss, OutcomeHit, OutcomeKill:
		case "":
			return bad(`a legal shot needs an "outcome"`)
		default:
			return bad("outcome %q, want %s, %s or %s", s.Outcome, OutcomeMiss, OutcomeHit, OutcomeKill)
		}
		if (s.Outcome == OutcomeKill) != (len(s.Sunk) > 0) {
			return bad(`"sunk" lists the cells of the ship a kill sinks, and only then`)
		}
		for _, rc := range s.Sunk {
			if _, err := rc.Cell(b); err != nil || rc[0] == -1 {
				return bad("sunk cell %v is off the board", rc)
			}
		}
	}
	p.rp.Shots = append(p.rp.Shots, s)
	return nil
}

func (p *bsParser) result(line []byte) error {
	m, err := bsResultKeys.check(line, "result")
	if err != nil {
		return err
	}
	if raw, ok := m["forfeits"]; ok {
		if err := bsForfeitKeys.checkList(raw, "result: forfeits"); err != nil {
			return err
		}
	}
	var shots []int
	if err := json.Unmarshal(m["shots"], &shots); err != nil {
		return fmt.Errorf("result: shots: %w", err)
	}
	if len(shots) != 2 {
		return fmt.Errorf("result: shots %s, want [seat 0's, seat 1's]", m["shots"])
	}
	res := &p.rp.Result
	if err := json.Unmarshal(line, res); err != nil {
		return fmt.Errorf("result: %w", err)
	}
	switch {
	case res.Outcome == replay.OutcomeWin && (res.Winner == 0 || res.Winner == 1):
	case (res.Outcome == replay.OutcomeDraw || res.Outcome == replay.OutcomeAborted) && res.Winner == -1:
	default:
		return fmt.Errorf("result: outcome %q with winner %d (a win has winner 0 or 1, a draw or an aborted game -1)", res.Outcome, res.Winner)
	}
	if res.Shots[0] < 0 || res.Shots[1] < 0 {
		return fmt.Errorf("result: shots %v", res.Shots)
	}
	for i, f := range res.Forfeits {
		if f.Seat != 0 && f.Seat != 1 {
			return fmt.Errorf("result: forfeits[%d]: seat %d", i, f.Seat)
		}
		switch f.Kind {
		case replay.ForfeitIllegal, replay.ForfeitPlacement, replay.ForfeitPanic, replay.ForfeitWaiting, replay.ForfeitProtocol:
		default:
			return fmt.Errorf("result: forfeits[%d]: kind %q, want %s, %s, %s, %s or %s", i, f.Kind,
				replay.ForfeitIllegal, replay.ForfeitPlacement, replay.ForfeitPanic, replay.ForfeitWaiting, replay.ForfeitProtocol)
		}
	}
	p.stage = bsDone
	return nil
}
