package gamelog_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/gamelog"
)

// run is the settings of the test's run.
type run struct {
	Game string `json:"game"`
	Seed uint64 `json:"seed"`
}

// replayOf is a fake replay of n lines for game i.
func replayOf(i, n int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"type\":\"header\",\"game\":\"submarine\",\"index\":%d}\n", i)
	for k := 1; k < n; k++ {
		fmt.Fprintf(&b, "{\"type\":\"step\",\"n\":%d}\n", k)
	}
	return b.Bytes()
}

// write writes games games to a new file and returns its path.
func write(t *testing.T, games int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "games.jsonl")
	w, err := gamelog.Create(path, run{"submarine", 7})
	require.NoError(t, err)
	for i := range games {
		r := arena.GameResult{Index: i, Seed: uint64(100 + i), P1Seat: i % 2, Winner: i%3 - 1, Actions: 10 * i}
		require.NoError(t, w.Add("a", "b", &r, replayOf(i, 2+i)))
	}
	require.NoError(t, w.Close())
	return path
}

func TestReadBack(t *testing.T) {
	path := write(t, 4)
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r, err := gamelog.NewReader(f)
	require.NoError(t, err)
	require.JSONEq(t, `{"game":"submarine","seed":7}`, string(r.Run))
	for i := range 4 {
		g, err := r.Next(true)
		require.NoError(t, err)
		require.Equal(t, i, g.Index)
		require.Equal(t, 2+i, g.Lines)
		require.Equal(t, string(replayOf(i, 2+i)), string(g.Replay))
		require.Equal(t, arena.GameResult{Index: i, Seed: uint64(100 + i), P1Seat: i % 2, Winner: i%3 - 1, Actions: 10 * i}, g.Result.Arena())
	}
	_, err = r.Next(false)
	require.ErrorIs(t, err, io.EOF)
	require.True(t, gamelog.IsFile(path))
}

// TestResume: a file cut anywhere resumes after its last whole game, and
// appending the missing games gives the file of the uninterrupted run.
func TestResume(t *testing.T) {
	path := write(t, 5)
	full, err := os.ReadFile(path)
	require.NoError(t, err)
	for _, cut := range []int{len(full) - 1, len(full) / 2, len(full) / 3, 80} {
		require.NoError(t, os.WriteFile(path, full[:cut], 0o644))
		w, done, err := gamelog.Resume(path, run{"submarine", 7})
		require.NoError(t, err)
		require.Less(t, len(done), 5)
		for i, g := range done {
			require.Equal(t, i, g.Index)
		}
		require.Equal(t, len(done), w.Next())
		for i := len(done); i < 5; i++ {
			r := arena.GameResult{Index: i, Seed: uint64(100 + i), P1Seat: i % 2, Winner: i%3 - 1, Actions: 10 * i}
			require.NoError(t, w.Add("a", "b", &r, replayOf(i, 2+i)))
		}
		require.NoError(t, w.Close())
		got, err := os.ReadFile(path)
		require.NoError(t, err)
		require.Equal(t, string(full), string(got), "cut at %d", cut)
	}
}

func TestResumeErrors(t *testing.T) {
	path := write(t, 2)
	_, _, err := gamelog.Resume(path, run{"submarine", 8})
	require.ErrorIs(t, err, gamelog.ErrOtherRun)

	other := filepath.Join(t.TempDir(), "replay.jsonl")
	require.NoError(t, os.WriteFile(other, replayOf(0, 3), 0o644))
	_, _, err = gamelog.Resume(other, run{"submarine", 7})
	require.ErrorIs(t, err, gamelog.ErrNotGames)
	require.False(t, gamelog.IsFile(other))

	fresh := filepath.Join(t.TempDir(), "new.jsonl")
	w, done, err := gamelog.Resume(fresh, run{"submarine", 7})
	require.NoError(t, err)
	require.Empty(t, done)
	require.NoError(t, w.Close())
	require.True(t, gamelog.IsFile(fresh))
}

func TestReaderRejects(t *testing.T) {
	head := `{"type":"games","format":1,"run":{}}` + "\n"
	tests := []struct {
		name, text string
		want       error
	}{
		{"empty", "", gamelog.ErrNotGames},
		{"format", `{"type":"games","format":9,"run":{}}` + "\n", nil},
		{"torn frame", head + `{"type":"game","index":0,"li`, gamelog.ErrTorn},
		{"torn replay", head + `{"type":"game","index":0,"lines":2,"result":{}}` + "\n{}\n", gamelog.ErrTorn},
		{"bad line", head + `{"type":"game","index":0,"lines":1,"result":{}}` + "\nnot json\n", nil},
		{"bad frame", head + `{"type":"step"}` + "\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := gamelog.NewReader(bytes.NewReader([]byte(tt.text)))
			if err == nil {
				_, err = r.Next(true)
			}
			require.Error(t, err)
			require.False(t, errors.Is(err, io.EOF))
			if tt.want != nil {
				require.ErrorIs(t, err, tt.want)
			}
		})
	}
}

// TestLongLines: a replay line longer than the reader's buffer (an
// explained step's heatmaps) reads back whole.
func TestLongLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "games.jsonl")
	w, err := gamelog.Create(path, run{"submarine", 1})
	require.NoError(t, err)
	long := `{"type":"step","pad":"` + string(bytes.Repeat([]byte("x"), 300<<10)) + `"}` + "\n"
	rep := append(replayOf(0, 1), long...)
	require.NoError(t, w.Add("a", "b", &arena.GameResult{}, rep))
	require.NoError(t, w.Close())
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	r, err := gamelog.NewReader(f)
	require.NoError(t, err)
	g, err := r.Next(true)
	require.NoError(t, err)
	require.Equal(t, 2, g.Lines)
	require.Equal(t, string(rep), string(g.Replay))
}

// FuzzReader: any input reads as games or fails with an error, never a
// panic, and a game read has as many replay lines as its frame says.
func FuzzReader(f *testing.F) {
	head := `{"type":"games","format":1,"run":{}}` + "\n"
	f.Add([]byte(head + `{"type":"game","index":0,"lines":1,"result":{}}` + "\n{}\n"))
	f.Add([]byte(head + `{"type":"game","index":0,"lines":2,"result":{}}` + "\n{}\n"))
	f.Add([]byte("{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := gamelog.NewReader(bytes.NewReader(data))
		if err != nil {
			return
		}
		for range 100 {
			g, err := r.Next(true)
			if err != nil {
				return
			}
			require.Equal(t, g.Lines, bytes.Count(g.Replay, []byte{'\n'}))
		}
	})
}
