package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/race"
)

func tournamentRun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = Run(context.Background(), args, nil, &out, &errOut)
	return code, out.String(), errOut.String()
}

func TestTournamentTableAndJSON(t *testing.T) {
	code, stdout, stderr := tournamentRun(t, "tournament", "--players", "random,simple,stateplayer2", "-n", "10", "--seed", "4", "--bootstrap", "100")
	require.Equal(t, 0, code, stderr)
	for _, want := range []string{"10 games per pair", "rank", "elo", "stateplayer2", "(10-0-0)"} {
		require.Contains(t, stdout, want)
	}

	var results []map[string]any
	for _, workers := range []string{"1", "3"} {
		code, stdout, stderr = tournamentRun(t, "tournament", "--players", "random,simple,stateplayer2", "-n", "10",
			"--seed", "4", "--bootstrap", "100", "--workers", workers, "--json")
		require.Equal(t, 0, code, stderr)
		lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
		var m map[string]any
		require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &m))
		results = append(results, m)
	}
	require.Equal(t, results[0], results[1], "the same seed gives the same tournament whatever --workers is")
	ratings := results[0]["ratings"].([]any)
	require.Len(t, ratings, 3)
	require.Equal(t, "stateplayer2", ratings[0].(map[string]any)["name"])
}

func TestTournamentEntriesWithConfigsAndTiming(t *testing.T) {
	cfg := filepath.Join(t.TempDir(), "simple.yaml")
	require.NoError(t, os.WriteFile(cfg, []byte("move_probability: 0.0\n"), 0o644))
	code, stdout, stderr := tournamentRun(t, "tournament", "--players", "simple,simple@attacker", "--player-weights", "simple@attacker="+cfg,
		"-n", "6", "--seed", "1", "--bootstrap", "50", "--timing", "--workers", "1")
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "simple@attacker")
	require.Contains(t, stdout, "p99 ms")
}

func TestTournamentErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{args: []string{"tournament", "--players", "random"}, want: "at least two"},
		{args: []string{"tournament", "--players", "random,simple", "--game", "submarine", "--rules", "../../configs/battleship-match.yaml", "--seed", "1"}, want: `--game "submarine" but --rules ../../configs/battleship-match.yaml is a "battleship" config`},
		{args: []string{"tournament", "--players", "random,simple", "--rules", "../../configs/battleship-match.yaml", "--seed", "1"}, want: "--players random: "},
		{args: []string{"tournament", "--players", "gridbot,density", "--seed", "1"}, want: "--players gridbot: "},
		{args: []string{"tournament", "--game", "chess", "--players", "a,b", "--seed", "1"}, want: `--game "chess": unknown game (games: submarine, battleship, abilities)`},
		{args: []string{"tournament", "--game", "battleship", "--players", "gridbot", "--seed", "1"}, want: "at least two players (battleship: bs-random, gridbot"},
		{args: []string{"tournament", "--game", "battleship", "--players", "gridbot,bs-random", "--player-weights", "gridbot=../../configs/density.yaml", "--seed", "1"}, want: "--players gridbot: "},
		{args: []string{"tournament", "--players", "random,nobody", "--seed", "1"}, want: "nobody"},
		{args: []string{"tournament", "--players", "random,simple", "-n", "0"}, want: "-n 0"},
		{args: []string{"tournament", "--players", "random,random", "--seed", "1"}, want: "twice"},
		{args: []string{"tournament", "--players", "random,simple", "--player-weights", "x", "--seed", "1"}, want: "ENTRY=FILE"},
		{args: []string{"tournament", "--players", "random,simple", "--player-weights", "other=f.yaml", "--seed", "1"}, want: "no such entry"},
	}
	for _, tt := range tests {
		code, _, stderr := tournamentRun(t, tt.args...)
		require.NotEqual(t, 0, code, tt.args)
		require.Contains(t, stderr, tt.want, tt.args)
	}
}

func TestTournamentHelpTeaches(t *testing.T) {
	code, stdout, _ := tournamentRun(t, "tournament", "--help")
	require.Equal(t, 0, code)
	for _, want := range []string{"round robin", "Bradley-Terry", "bootstrap", "--json", "Examples:", "--timing",
		"--game battleship", "--game abilities", "configs/battleship-match.yaml"} {
		require.Contains(t, stdout, want)
	}
}

// TestTournamentEveryGame: kaisen tournament plays a round robin of three
// AIs of Battleship (by --game and by a --rules config) and of abilities:
// every pair plays -n games, the strongest AI is rated above the weakest,
// and the same seed gives the same result whatever --workers is. The
// quick tests below play the same plumbing under -race.
func TestTournamentEveryGameFullSize(t *testing.T) {
	race.SkipFullSize(t)
	tests := []struct {
		name        string
		args        []string
		best, worst string
	}{
		{name: "battleship", args: []string{"--game", "battleship", "--players", "bs-random,gridbot,density", "-n", "4"}, worst: "bs-random"},
		{name: "battleship rules", args: []string{"--rules", "../../configs/battleship-match.yaml", "--players", "bs-random,gridbot,bs-random@again", "-n", "6"}, best: "gridbot"},
		{name: "abilities", args: []string{"--game", "abilities", "--players", "ab-random,ab-density,ab-plain", "-n", "4"}, best: "ab-density"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var results []map[string]any
			for _, workers := range []string{"1", "2"} {
				args := append([]string{"tournament", "--seed", "5", "--bootstrap", "50", "--workers", workers, "--json"}, tt.args...)
				code, stdout, stderr := tournamentRun(t, args...)
				require.Equal(t, 0, code, stderr)
				lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
				var m map[string]any
				require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &m))
				results = append(results, m)
			}
			require.Equal(t, results[0], results[1], "the same seed gives the same tournament whatever --workers is")
			games := results[0]["games_per_pair"].(float64)
			pairs := results[0]["pairs"].([]any)
			require.Len(t, pairs, 3)
			for _, p := range pairs {
				p := p.(map[string]any)
				require.Equal(t, games, p["wins"].(float64)+p["draws"].(float64)+p["losses"].(float64), "%v", p)
			}
			ratings := results[0]["ratings"].([]any)
			require.Len(t, ratings, 3)
			if tt.best != "" {
				require.Equal(t, tt.best, ratings[0].(map[string]any)["name"], "%v", ratings)
			}
			if tt.worst != "" {
				require.Equal(t, tt.worst, ratings[2].(map[string]any)["name"], "%v", ratings)
			}
		})
	}
}

// TestTournamentTimesEveryGame: --timing counts the decisions of each
// game's players (shots, actions and answers).
func TestTournamentTimesEveryGame(t *testing.T) {
	for _, tt := range []struct {
		game, players string
		least         int // decisions of both players together in the 2 games
	}{
		{game: "battleship", players: "gridbot,bs-random", least: 2 * 20}, // the winner fires once per cell of the fleet
		{game: "abilities", players: "ab-random,ab-plain", least: 2 * 2},
	} {
		game, players := tt.game, tt.players
		t.Run(game, func(t *testing.T) {
			code, stdout, stderr := tournamentRun(t, "tournament", "--game", game, "--players", players, "-n", "2", "--seed", "3",
				"--bootstrap", "20", "--timing", "--workers", "1", "--json")
			require.Equal(t, 0, code, stderr)
			var res struct {
				Ratings []struct {
					Name   string `json:"name"`
					Timing struct {
						Decisions int `json:"decisions"`
					} `json:"timing"`
				} `json:"ratings"`
			}
			lines := strings.Split(strings.TrimRight(stdout, "\n"), "\n")
			require.NoError(t, json.Unmarshal([]byte(lines[len(lines)-1]), &res))
			require.Len(t, res.Ratings, 2)
			sum := 0
			for _, rt := range res.Ratings {
				require.Positive(t, rt.Timing.Decisions, rt.Name)
				sum += rt.Timing.Decisions
			}
			require.GreaterOrEqual(t, sum, tt.least)
		})
	}
}

// TestTournamentShardsEveryGame: a Battleship and an abilities tournament
// played in shards and merged give the unsharded result.
func TestTournamentShardsEveryGame(t *testing.T) {
	for _, args := range [][]string{
		{"tournament", "--game", "battleship", "--players", "bs-random,gridbot,bs-random@b", "-n", "5", "--seed", "6", "--bootstrap", "30"},
		{"tournament", "--game", "abilities", "--players", "ab-random,ab-plain", "-n", "5", "--seed", "6", "--bootstrap", "30"},
	} {
		t.Run(args[2], func(t *testing.T) {
			code, full, stderr := tournamentRun(t, append(args, "--json")...)
			require.Equal(t, 0, code, stderr)
			files := runShards(t, args, 3)
			code, merged, stderr := tournamentRun(t, append([]string{"merge", "--json"}, files...)...)
			require.Equal(t, 0, code, stderr)
			require.Equal(t, withoutTiming(t, full), withoutTiming(t, merged))
		})
	}
}

// TestTournamentQueuedBattleship: a Battleship tournament played by
// workers through the queue (--game travels with the work items) prints
// what the local run prints.
func TestTournamentQueuedBattleship(t *testing.T) {
	url := startWorkers(t, 2)
	args := []string{"tournament", "--game", "battleship", "--players", "bs-random,gridbot,bs-random@b", "-n", "5", "--seed", "6", "--bootstrap", "30", "--json"}
	code, local, stderr := tournamentRun(t, args...)
	require.Equal(t, 0, code, stderr)
	code, queued, stderr := tournamentRun(t, append(args, "--nats", url, "--shard-games", "4")...)
	require.Equal(t, 0, code, stderr)
	require.Equal(t, withoutTiming(t, local), withoutTiming(t, queued))
}
