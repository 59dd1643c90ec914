package games

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/explain"
	"github.com/kaisen-ai/kaisen/game"
	"github.com/kaisen-ai/kaisen/game/conformance"
	"github.com/kaisen-ai/kaisen/replay"
)

// replayGames is the number of games the replay check records.
const replayGames = 6

// replayCheck is the conformance check of a game's record (Def.Record,
// OpenReplay; package jsonrecord's when the game has none of its own):
// games of the subject's AIs against its opponent (the seat to act first
// as in the game's matches), with and without
// explanations, are recorded, read back and verified, drawn as text with
// as many moves as were recorded, and refused once cut short or with an
// action taken out.
func replayCheck[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O], s *conformance.Subject[R, G, P, A, S, O]) conformance.Check {
	return conformance.Check{Name: "replay", Run: func(t conformance.T) {
		t.Helper()
		dir, err := os.MkdirTemp("", "kaisen-replay-check-")
		if err != nil {
			t.Fatalf("%v", err)
		}
		defer os.RemoveAll(dir)
		opp := max(s.Opponent, 0)
		for k := range replayGames {
			me := k % len(s.AIs)
			path := filepath.Join(dir, fmt.Sprintf("game-%d.jsonl", k))
			moves, err := recordGame(d, s, [2]int{me, opp}, k, path)
			if err != nil {
				t.Fatalf("game %d (%s against %s): record: %v", k, s.AIs[me].Name, s.AIs[opp].Name, err)
			}
			checkReplay(t, d.OpenReplay, path, moves)
		}
	}}
}

// recordGame plays game k between the subject's AIs ai (by seat) into the
// file at path and returns the moves recorded.
func recordGame[R game.Rules[G, P, A, S, O], G game.State[A, S], P, A, S, O any](d Def[R, G, P, A, S, O], s *conformance.Subject[R, G, P, A, S, O], ai [2]int, k int, path string) (int, error) {
	var buf bytes.Buffer
	first := 0 // as in the game's matches (Def.First)
	if f := d.firstOf(defaultConfig(d)); f != nil {
		first = f(k)
	}
	h := arena.RecordHeader{Seed: uint64(k + 1), First: first,
		Players: [2]replay.SeatInfo{{Seat: 0, Name: s.AIs[ai[0]].Name}, {Seat: 1, Name: s.AIs[ai[1]].Name}}}
	rec := &counted[P, A, S]{Recorder: d.Record(s.Rules, &buf, h)}
	tab := game.NewTable[G, P, A, S, O](s.Rules, nil)
	tab.Play(&game.Setup[P, A, S, O]{
		Factories: [2]game.Factory[P, A, O]{s.AIs[ai[0]].Factory, s.AIs[ai[1]].Factory},
		Rands:     [2]*rand.Rand{rand.New(rand.NewPCG(uint64(k), 1)), rand.New(rand.NewPCG(uint64(k), 2))},
		First:     h.First, Record: rec, Explain: k%2 == 0})
	if err := rec.Flush(); err != nil {
		return 0, err
	}
	return rec.moves, os.WriteFile(path, buf.Bytes(), 0o644)
}

// checkReplay reads the file at path back (it recorded moves actions),
// verifies and draws it, then checks that it is refused cut short and with
// an action line taken out.
func checkReplay(t conformance.T, open func(string) (Replay, error), path string, moves int) {
	t.Helper()
	rp, err := open(path)
	if err == nil {
		err = rp.Verify()
	}
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if rp.Moves() != moves {
		t.Errorf("%s: %d %ss read back, %d recorded", path, rp.Moves(), rp.Move(), moves)
	}
	if err := rp.Render(io.Discard, RenderOptions{To: -1}); err != nil {
		t.Errorf("%s: render: %v", path, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v", err)
	}
	lines := bytes.SplitAfter(bytes.TrimRight(data, "\n"), []byte("\n"))
	broken := map[string][][]byte{"without its result line": lines[:len(lines)-1]}
	if n := len(lines); moves >= 2 { // header, 2 placements, moves actions, result
		mid := 3 + moves/2
		broken["without action "+fmt.Sprint(mid-2)] = append(append([][]byte(nil), lines[:mid]...), lines[mid+1:n]...)
	}
	for what, ls := range broken {
		bad := path + ".broken"
		if err := os.WriteFile(bad, bytes.Join(ls, nil), 0o644); err != nil {
			t.Fatalf("%v", err)
		}
		rp, err := open(bad)
		if err == nil {
			err = rp.Verify()
		}
		if err == nil {
			t.Errorf("%s %s: read and verified", path, what)
		}
	}
}

// counted is a recorder that counts the actions it records.
type counted[P, A, S any] struct {
	arena.Recorder[P, A, S]
	moves int
}

func (c *counted[P, A, S]) Action(n, seat int, a A, st *S, err error, d *explain.Decision) {
	c.moves++
	c.Recorder.Action(n, seat, a, st, err, d)
}
