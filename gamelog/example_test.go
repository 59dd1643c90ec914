package gamelog_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/gamelog"
)

// Example records two games of a run, then resumes the run as --recover
// does: the games in the file come back with their results.
func Example() {
	dir, _ := os.MkdirTemp("", "gamelog")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "games.jsonl")
	settings := map[string]any{"command": "match", "seed": 1}

	w, _ := gamelog.Create(path, settings)
	for i := range 2 {
		r := arena.GameResult{Index: i, P1Seat: i % 2, Winner: 0, Actions: 40 + i}
		_ = w.Add("random", "simple", &r, []byte(`{"type":"header"}`+"\n"+`{"type":"result"}`+"\n"))
	}
	_ = w.Close()

	w, done, err := gamelog.Resume(path, settings)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Close()
	for _, g := range done {
		fmt.Printf("game %d: %s vs %s, p1 won %v, %d actions\n", g.Index, g.P1, g.P2, g.Result.Arena().P1Won(), g.Result.Actions)
	}
	fmt.Println("next game:", w.Next())
	// Output:
	// game 0: random vs simple, p1 won true, 40 actions
	// game 1: random vs simple, p1 won false, 41 actions
	// next game: 2
}
