package jsonrecord

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/replay"
)

// Rules are the rules a file is played again under: the contract's, as
// replay.Rerun uses them.
type Rules[G game.State[A, S], P, A, S any] = replay.Rules[G, P, A, S]

// Rerun is rp ready to be played again under rules (replay.Rerun): its
// placements and actions decoded into the game's types. The header's
// rules must be rules as JSON.
func Rerun[G game.State[A, S], P, A, S any](rp *Replay, rules Rules[G, P, A, S]) (*replay.Rerun[G, P, A, S, Action], error) {
	want, err := json.Marshal(rules)
	if err != nil {
		return nil, fmt.Errorf("%w: rules: %w", replay.ErrFormat, err)
	}
	if !bytes.Equal(compact(rp.Header.Rules), want) {
		return nil, replay.Mismatch("the file was recorded under rules %s, not %s", rp.Header.Rules, want)
	}
	h := &rp.Header
	rr := &replay.Rerun[G, P, A, S, Action]{Rules: rules, Codec: codec[A, S]{}, First: h.First, Players: h.Players,
		Lines: rp.Actions, Protocol: true, Adjudication: h.Adjudication,
		End: replay.Ending{Outcome: rp.Result.Outcome, Winner: rp.Result.Winner, Forfeits: rp.Result.Forfeits,
			Count: game.Count{Actions: rp.Result.Actions, Shots: rp.Result.Shots}, Adjudicated: rp.Result.Adjudicated}}
	for s, p := range rp.Placements {
		if err := json.Unmarshal(p.Placement, &rr.Placements[s]); err != nil {
			return nil, fmt.Errorf("%w: placement of seat %d: %w", replay.ErrFormat, s, err)
		}
	}
	return rr, nil
}

// Verify plays rp again under rules and fails on any difference from what
// the rules do (errors wrap replay.ErrMismatch or replay.ErrFormat).
func Verify[G game.State[A, S], P, A, S any](rp *Replay, rules Rules[G, P, A, S]) error {
	rr, err := Rerun(rp, rules)
	if err != nil {
		return err
	}
	return rr.Play(nil)
}

// codec is the format of action lines (replay.Codec).
type codec[A, S any] struct{}

func (codec[A, S]) Noun() string { return "action" }

func (codec[A, S]) Move(l *Action) (n, seat int, illegal bool) { return l.N, l.Seat, l.Illegal != "" }

func (codec[A, S]) Where(l *Action) string { return " " + string(l.Action) }

func (codec[A, S]) Decode(l *Action) (A, error) {
	var a A
	if err := json.Unmarshal(l.Action, &a); err != nil {
		return a, fmt.Errorf("%w: action %d: %w", replay.ErrFormat, l.N, err)
	}
	return a, nil
}

// Check compares the recorded answer with the rules': the step's JSON
// byte for byte, or the reason an illegal action was refused.
func (codec[A, S]) Check(l *Action, st *S, err error) error {
	if err != nil {
		if l.Illegal != err.Error() {
			return replay.Mismatch("action %d: recorded illegal as %q, the rules say %q", l.N, l.Illegal, err)
		}
		return nil
	}
	want, merr := json.Marshal(*st)
	if merr != nil {
		return fmt.Errorf("%w: action %d: %w", replay.ErrFormat, l.N, merr)
	}
	if got := compact(l.Step); !bytes.Equal(got, want) {
		return replay.Mismatch("action %d %s: recorded %s, the rules say %s", l.N, l.Action, got, want)
	}
	return nil
}

func (codec[A, S]) Tally(c game.Count) string { return Tally(c) }

// compact is raw without insignificant space (as json.Marshal writes it).
func compact(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}
