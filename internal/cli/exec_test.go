package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/proctest"
	"github.com/kaisen-ai/kaisen/server"
)

// testBinDir is the directory of the test binary: every program these
// tests start names it on its command line (selfPlayer runs the binary,
// pyBot passes it as an argument), so that a survivor is found.
func testBinDir(t *testing.T) string {
	t.Helper()
	exe, err := os.Executable()
	require.NoError(t, err)
	return filepath.Dir(exe)
}

// pyBot is a hostile exec: program: it connects, reads the server's first
// line, then crashes (exit status 3) or sends garbage and waits. Its
// command has no comma (a --against list splits at commas).
func pyBot(t *testing.T, mode string) string {
	then := map[string]string{"crash": "sys.exit(3)", "garbage": "f.write(b'garbage\\n')\nf.flush()\nf.read()"}[mode]
	require.NotEmpty(t, then, mode)
	script := filepath.Join(t.TempDir(), mode+".py")
	code := "import socket, sys\ns = socket.create_connection((sys.argv[1], int(sys.argv[2])))\nf = s.makefile('rwb')\nf.readline()\n" + then + "\n"
	require.NoError(t, os.WriteFile(script, []byte(code), 0o644))
	return fmt.Sprintf("exec:python3 %s {host} {port} %s", script, testBinDir(t))
}

// requireNoProgramLeft fails when a program the test started is running.
func requireNoProgramLeft(t *testing.T) {
	t.Helper()
	proctest.RequireNoSurvivor(t, testBinDir(t))
}

// readResults reads a server's result log.
func readResults(t *testing.T, path string) []server.Result {
	t.Helper()
	b, err := os.ReadFile(path)
	require.NoError(t, err)
	var out []server.Result
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var r server.Result
		require.NoError(t, json.Unmarshal([]byte(line), &r), line)
		out = append(out, r)
	}
	return out
}

// TestServeHouseExec: kaisen serve --house exec: starts the program for
// every pairing; one that crashes or sends garbage forfeits its own games
// only, and the server goes on serving the next client.
func TestServeHouseExec(t *testing.T) {
	tests := []struct {
		name      string
		spec      func(t *testing.T) string
		forfeits  bool
		wantWhy   string
		wantGames int
	}{
		{"well-behaved", func(t *testing.T) string { return selfPlayer(t, "--player random") }, false, "", 3},
		{"crash", func(t *testing.T) string { return pyBot(t, "crash") }, true, "disconnect", 3},
		{"garbage", func(t *testing.T) string { return pyBot(t, "garbage") }, true, "protocol", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := filepath.Join(t.TempDir(), "results.jsonl")
			addr, stop := serveRun(t, "--house", tt.spec(t), "--listen", "127.0.0.1:0", "--seed", "3", "--result-log", log,
				"--replay-dir", "", "--action-timeout", "3s", "--handshake-timeout", "3s", "--bot-logs", t.TempDir())
			code, stdout, stderr := playRun(t, "play", "--addr", addr, "--player", "random", "-c", "3", "--seed", "1", "--json")
			require.Equal(t, ExitOK, code, stderr)
			tally := matchLastJSON(t, stdout)
			require.EqualValues(t, tt.wantGames, tally["games"])
			code, serr := stop()
			require.Equal(t, ExitOK, code, serr)
			res := readResults(t, log)
			require.Len(t, res, tt.wantGames)
			for _, r := range res {
				require.Contains(t, r.Players[1].Name, "exec:")
				if !tt.forfeits {
					require.Empty(t, r.Forfeits, r.Reason)
					continue
				}
				require.Equal(t, []int{1}, r.Forfeits, "only the house program forfeits")
				require.Contains(t, r.Reason, tt.wantWhy)
			}
			if tt.forfeits {
				require.EqualValues(t, tt.wantGames, tally["wins"])
			}
			requireNoProgramLeft(t)
		})
	}
}

// TestPlayExec: kaisen play --player exec: relays each connection to a
// program started for it, so a one-game program plays -c N games (and
// whole series); a program that crashes stops the run with exit 1 and
// forfeits only its own game on the server.
func TestPlayExec(t *testing.T) {
	tests := []struct {
		name            string
		spec            func(t *testing.T) string
		series, conns   int
		code, games     int
		stderr, forfeit string
	}{
		{"one game per connection", func(t *testing.T) string { return selfPlayer(t, "--player random") }, 1, 4, ExitOK, 4, "", ""},
		{"a series per connection", func(t *testing.T) string { return selfPlayer(t, "--player random") }, 3, 2, ExitOK, 6, "", ""},
		{"crash", func(t *testing.T) string { return pyBot(t, "crash") }, 1, 3, ExitFailure, 1, "exit status 3", "disconnect"},
		{"garbage", func(t *testing.T) string { return pyBot(t, "garbage") }, 1, 3, ExitOK, 3, "", "protocol"}, // lost, but each game ended
		{"never connects", func(*testing.T) string { return "exec:false {host} {port}" }, 1, 2, ExitFailure, 1, "did not connect", "disconnect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			addr, results := playServer(t, server.ListenerConfig{Opponent: "random", Games: tt.series})
			code, stdout, stderr := playRun(t, "play", "--addr", addr, "--player", tt.spec(t), "-c", fmt.Sprint(tt.conns),
				"--seed", "2", "--dial-timeout", "3s", "--json", "--bot-logs", t.TempDir())
			require.Equal(t, tt.code, code, stderr)
			require.Contains(t, stderr, tt.stderr)
			rs := playResults(t, results, tt.games)
			for _, r := range rs {
				if tt.forfeit == "" {
					require.Empty(t, r.Forfeits, r.Reason)
					continue
				}
				require.Equal(t, []int{0}, r.Forfeits, "the program's seat forfeits, the house does not")
				require.Contains(t, r.Reason, tt.forfeit)
			}
			if tt.code == ExitOK {
				tally := matchLastJSON(t, stdout)
				require.EqualValues(t, tt.games, tally["games"])
				require.EqualValues(t, tt.conns, tally["connections"])
			}
			requireNoProgramLeft(t)
		})
	}
}

// TestTuneExecOpponent: kaisen tune plays its candidates (built-in, their
// weights in memory) against an exec: program, deterministically from
// --seed; a crashing program forfeits its own games and the run goes on.
func TestTuneExecOpponent(t *testing.T) {
	dir := t.TempDir()
	run := func(against, out string) (string, string) {
		code, stdout, stderr := tuneRun(t, "tune", "--player", "simple", "--against", against, "--budget-games", "12",
			"--batch", "2", "--final-games", "2", "--seed", "3", "--workers", "2", "--out", out)
		require.Equal(t, ExitOK, code, stderr)
		text, err := os.ReadFile(out)
		require.NoError(t, err)
		return stdout, tuneDate.ReplaceAllString(string(text), "")
	}
	bot := selfPlayer(t, "--player random")
	out1, yaml1 := run("random,"+bot, filepath.Join(dir, "a.yaml"))
	require.Contains(t, out1, "  "+bot)
	_, yaml2 := run("random,"+bot, filepath.Join(dir, "b.yaml"))
	require.Equal(t, yaml1, yaml2, "the same seed gives the same tuned weights")
	out3, _ := run(pyBot(t, "crash"), filepath.Join(dir, "c.yaml"))
	require.Contains(t, out3, "tuned   1.0000", "the crashing program forfeits every game")
	requireNoProgramLeft(t)
}

// TestExploitExecTarget: kaisen exploit tunes a built-in family against an
// exec: target.
func TestExploitExecTarget(t *testing.T) {
	out := filepath.Join(t.TempDir(), "ex.yaml")
	bot := selfPlayer(t, "--player random")
	code, stdout, stderr := tuneRun(t, "exploit", "--target", bot, "--family", "simple", "--budget-games", "12",
		"--batch", "2", "--final-games", "2", "--verify-games", "6", "--seed", "4", "--workers", "2", "--out", out)
	require.Equal(t, ExitOK, code, stderr)
	require.Contains(t, stdout, "best exploiter of "+bot+": simple")
	require.Contains(t, stdout, "over 6 fresh games")
	require.FileExists(t, out)
	requireNoProgramLeft(t)
}

func TestExecUsage(t *testing.T) {
	bot := "exec:./bot {host} {port}"
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"tune an exec: player", []string{"tune", "--player", bot, "--against", "random"}, "no weights to tune"},
		{"tune against exec: with --rules", []string{"tune", "--player", "simple", "--against", bot, "--rules", "../../configs/match.yaml"}, "not --rules"},
		{"exploit an exec: family", []string{"exploit", "--target", "random", "--family", bot}, "no weights to tune"},
		{"exploit an exec: target with weights", []string{"exploit", "--target", bot, "--target-weights", "x.yaml", "--family", "simple"}, "reads its own settings"},
		{"play exec: with weights", []string{"play", "--player", bot, "--weights", "x.yaml"}, "reads its own settings"},
		{"play exec: as a human", []string{"play", "--player", bot, "--human"}, "not with --human"},
		{"play exec: without {port}", []string{"play", "--player", "exec:./bot"}, "never says {port}"},
		{"serve exec: with weights", []string{"serve", "--house", bot, "--house-weights", "x.yaml", "--result-log", "", "--replay-dir", ""}, "the house is a program"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := tuneRun(t, tt.args...)
			require.Equal(t, ExitUsage, code, stderr)
			require.Contains(t, stderr, tt.want)
		})
	}
}

// TestLadderExecPlayer: kaisen play --player exec: --name --token plays a
// program on the rated ladder: kaisen play authenticates, then relays;
// a refused token never starts the program.
func TestLadderExecPlayer(t *testing.T) {
	db := filepath.Join(t.TempDir(), "ladder.db")
	tokens := map[string]string{"alice": registerBot(t, db, "alice"), "bob": registerBot(t, db, "bob")}
	dir := t.TempDir()
	addr, stop := serveRun(t, "--ladder", "--db", db, "--listen", "127.0.0.1:0", "--seed", "3",
		"--result-log", filepath.Join(dir, "results.jsonl"), "--replay-dir", "")
	bot := selfPlayer(t, "--player random")
	logs := t.TempDir()
	code, _, stderr := playRun(t, "play", "--addr", addr, "--player", bot, "--name", "alice", "--token", tokens["bob"], "--bot-logs", logs)
	require.Equal(t, ExitFailure, code, stderr)
	require.Contains(t, stderr, "auth_failed")
	left, err := os.ReadDir(logs)
	require.NoError(t, err)
	require.Empty(t, left, "the program was not started")

	var wg sync.WaitGroup
	var codes [2]int
	var errs [2]string
	for i, b := range []string{"alice", "bob"} {
		args := []string{"play", "--addr", addr, "--name", b, "--token", tokens[b], "-c", "2", "--seed", "5", "--timeout", "20s"}
		if b == "alice" {
			args = append(args, "--player", bot)
		}
		wg.Go(func() { codes[i], _, errs[i] = playRun(t, args...) })
	}
	wg.Wait()
	for i := range codes {
		require.Equal(t, ExitOK, codes[i], errs[i])
	}
	code, serr := stop()
	require.Equal(t, ExitOK, code, serr)
	res := readResults(t, filepath.Join(dir, "results.jsonl"))
	require.Len(t, res, 2)
	for _, r := range res {
		require.Empty(t, r.Forfeits, r.Reason)
	}
	code, out, stderr := playRun(t, "ladder", "table", "--db", db, "--json")
	require.Equal(t, ExitOK, code, stderr)
	var table []botJSON
	require.NoError(t, json.Unmarshal([]byte(out), &table))
	for _, b := range table {
		require.Equal(t, 2, b.Games, b.Name)
	}
	requireNoProgramLeft(t)
}
