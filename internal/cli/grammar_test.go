package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/version"
)

// allCommands lists root and every command below it.
func allCommands(c *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{c}
	for _, sub := range c.Commands() {
		out = append(out, allCommands(sub)...)
	}
	return out
}

// noJSON are the commands that print no result to script against: a
// diagram in several formats, a server, the root, cobra's help and shell
// completion scripts.
var noJSON = []string{"kaisen", "kaisen fsm", "kaisen serve", "kaisen ladder", "kaisen broker", "kaisen worker", "kaisen queue", "kaisen help", "kaisen completion",
	"kaisen completion bash", "kaisen completion zsh", "kaisen completion fish", "kaisen completion powershell"}

// TestGrammar walks every command and enforces docs/cli.md: shared flag
// names are registered through the shared helpers (so they mean the same
// everywhere), -n is --games, every command that prints results has
// --json, --config belongs only to commands with their own settings file,
// old names are hidden deprecated aliases, and every command has examples.
func TestGrammar(t *testing.T) {
	root := newRoot(&env{})
	cmds := allCommands(root)
	require.Greater(t, len(cmds), 14)
	for _, c := range cmds {
		path := c.CommandPath()
		t.Run(path, func(t *testing.T) {
			if c.Name() != "help" {
				require.NotEmpty(t, c.Example, "%s has no Example", path)
			}
			fl := c.LocalFlags()
			fl.VisitAll(func(f *pflag.Flag) {
				kind := kindOf(f)
				if kind == kindAlias {
					require.True(t, strings.HasPrefix(f.Usage, "deprecated: use --"), "alias --%s says it is deprecated", f.Name)
					require.True(t, f.Hidden, "alias --%s is hidden", f.Name)
					target := fl.Lookup(f.Annotations[grammarKey][1])
					require.NotNil(t, target)
					require.Same(t, target.Value, f.Value, "alias --%s shares the value of --%s", f.Name, target.Name)
					return
				}
				require.False(t, f.Hidden && f.Name != "help", "--%s is hidden but not an alias", f.Name)
				switch {
				case f.Name == "games" || f.Shorthand == "n":
					require.Equal(t, kindGames, kind, "--%s: -n/--games is the number of games (addGamesFlag)", f.Name)
					require.Equal(t, "games", f.Name)
					require.Equal(t, "n", f.Shorthand)
				case f.Name == "seed":
					require.Equal(t, kindSeed, kind, "--seed: random and printed unless given (addSeedFlag)")
				case f.Name == "workers":
					require.Equal(t, kindWorkers, kind, "--workers: 0 = one per CPU (addWorkersFlag)")
				case f.Name == "json":
					require.Equal(t, kindJSON, kind, "--json (addJSONFlag)")
				case f.Name == "rules":
					require.Equal(t, kindRules, kind, "--rules (addRulesFlag)")
				case f.Name == "weights" || strings.HasSuffix(f.Name, "-weights"):
					require.Equal(t, kindWeights, kind, "--%s (addWeightsFlag)", f.Name)
				case f.Name == "progress":
					require.Equal(t, kindProgress, kind, "--progress (addProgressFlag)")
				case f.Name == "config":
					require.NotEmpty(t, c.Annotations[settingsFileKey],
						"--config is only for a command's own settings file; match rules are --rules, AI weights --weights")
				case strings.HasSuffix(f.Name, "-config"):
					t.Errorf("--%s: AI weights are --weights or --NAME-weights, match rules --rules", f.Name)
				default:
					require.Empty(t, kind, "--%s carries a shared annotation under another name", f.Name)
				}
			})
			if !slices.Contains(noJSON, path) {
				f := fl.Lookup("json")
				require.NotNil(t, f, "%s prints results: it needs --json", path)
			}
		})
	}
}

// TestAliasesStillWork: an old flag name sets the new one, marks it as
// given and warns on stderr.
func TestAliasesStillWork(t *testing.T) {
	dir := t.TempDir()
	rules := filepath.Join(dir, "m.yaml")
	require.NoError(t, os.WriteFile(rules, []byte("game: battleship\n"), 0o644))
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"match --config", []string{"match", "--p1", "bs-random", "--p2", "bs-random", "-n", "2", "--seed", "1", "--config", rules, "--json", "--game", "submarine"},
			"--game \"submarine\" but --rules " + rules + " is a \"battleship\" config"},
		{"serve --games", []string{"serve", "--games", "0"}, "--series 0: want at least 1"},
		{"play --games", []string{"play", "--games", "0"}, "--connections 0: want at least 1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := matchRun(t, context.Background(), tt.args...)
			require.Equal(t, ExitUsage, code, stderr)
			require.Contains(t, stderr, tt.want)
			require.Contains(t, stderr, " is deprecated, use --")
		})
	}
}

// TestExitCodes: one code per kind of failure, whatever the command.
func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	badRules := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(badRules, []byte("rules:\n  width: five\n"), 0o644))
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	tests := []struct {
		name   string
		ctx    context.Context
		args   []string
		want   int
		stderr string
	}{
		{"success", nil, []string{"players"}, ExitOK, ""},
		{"success with json", nil, []string{"match", "-n", "4", "--seed", "1", "--p1", "random", "--p2", "random", "--json"}, ExitOK, ""},
		{"unknown command", nil, []string{"mtach"}, ExitUsage, `unknown command "mtach" for "kaisen" (did you mean match?)`},
		{"unknown flag", nil, []string{"match", "--bogus"}, ExitUsage, "unknown flag: --bogus"},
		{"bad flag value", nil, []string{"match", "-n", "many"}, ExitUsage, `--games: want an integer, got "many"`},
		{"too many arguments", nil, []string{"players", "extra"}, ExitUsage, `unknown command "extra"`},
		{"zero games", nil, []string{"shots", "--player", "gridbot", "-n", "0"}, ExitUsage, "-n 0: want at least 1 game"},
		{"negative workers", nil, []string{"tournament", "--players", "random,random", "--workers", "-1"}, ExitUsage, "--workers -1"},
		{"unknown player", nil, []string{"match", "--p1", "nobody", "-n", "1"}, ExitUsage, `unknown player "nobody"`},
		{"unknown battleship player", nil, []string{"shots", "--player", "nobody", "-n", "1"}, ExitUsage, `unknown player "nobody"`},
		{"unknown game", nil, []string{"play", "--game", "chess"}, ExitUsage, `--game "chess": unknown game`},
		{"unknown match game", nil, []string{"match", "--game", "chess"}, ExitUsage, `--game "chess"`},
		{"unknown format", nil, []string{"fsm", "--format", "png"}, ExitUsage, "--format"},
		{"bad progress", nil, []string{"match", "--progress", "sometimes"}, ExitUsage, `--progress "sometimes"`},
		{"bad log level", nil, []string{"players", "--log-level", "loud"}, ExitUsage, "--log-level"},
		{"bad rules file", nil, []string{"match", "--rules", badRules}, ExitUsage, `rules.width: got "five", want an integer`},
		{"missing rules file", nil, []string{"tournament", "--players", "random,random", "--rules", filepath.Join(dir, "none.yaml")}, ExitUsage, "none.yaml"},
		{"missing weights file", nil, []string{"match", "--p1-weights", filepath.Join(dir, "none.yaml"), "-n", "1"}, ExitUsage, "none.yaml"},
		{"runtime failure", nil, []string{"replay", filepath.Join(dir, "none.jsonl")}, ExitFailure, "none.jsonl"},
		{"connection refused", nil, []string{"play", "--addr", "127.0.0.1:1", "--dial-timeout", "1s"}, ExitFailure, "connect"},
		{"interrupted", cancelled, []string{"match", "-n", "100000", "--seed", "1", "--p1", "random", "--p2", "random"}, ExitInterrupted, "interrupted"},
		{"interrupted play", cancelled, []string{"play", "--addr", "127.0.0.1:1"}, ExitInterrupted, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := tt.ctx
			if ctx == nil {
				ctx = context.Background()
			}
			code, _, stderr := matchRun(t, ctx, tt.args...)
			require.Equal(t, tt.want, code, stderr)
			require.Contains(t, stderr, tt.stderr)
		})
	}
}

// TestSeedIsPrintedAndRecorded: without --seed every command draws one,
// prints it on stderr and records it in its JSON; with --seed it prints
// nothing and records the given one.
func TestSeedIsPrintedAndRecorded(t *testing.T) {
	for _, args := range [][]string{
		{"match", "-n", "2", "--p1", "random", "--p2", "random", "--json"},
		{"shots", "--player", "bs-random", "-n", "2", "--size", "4x4", "--fleet", "2,1", "--json"},
		{"bench", "-n", "10", "--workers", "1", "--json"},
	} {
		t.Run(args[0], func(t *testing.T) {
			code, stdout, stderr := matchRun(t, context.Background(), args...)
			require.Equal(t, 0, code, stderr)
			m := matchLastJSON(t, stdout)
			seed := uint64(m["seed"].(float64))
			require.Contains(t, stderr, "kaisen "+args[0]+": seed ")
			require.Contains(t, stderr, "--seed "+jsonNumber(seed)+" to repeat")

			code, stdout, stderr = matchRun(t, context.Background(), append(args, "--seed", "77")...)
			require.Equal(t, 0, code, stderr)
			require.NotContains(t, stderr, "drawn at random")
			require.Equal(t, 77.0, matchLastJSON(t, stdout)["seed"])
		})
	}
}

func jsonNumber(n uint64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func TestVersion(t *testing.T) {
	code, stdout, _ := matchRun(t, context.Background(), "--version")
	require.Equal(t, 0, code)
	require.Regexp(t, `^kaisen \S`, stdout)

	code, stdout, _ = matchRun(t, context.Background(), "version", "--json")
	require.Equal(t, 0, code)
	m := matchLastJSON(t, stdout)
	require.NotEmpty(t, m["version"])
	require.NotEmpty(t, m["go"])
	require.Equal(t, strings.TrimSpace(strings.TrimPrefix(strings.Split(mustRun(t, "--version"), "\n")[0], "kaisen ")), m["string"])
}

func mustRun(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := matchRun(t, context.Background(), args...)
	require.Equal(t, 0, code, stderr)
	return stdout
}

// TestCompletion: the shell scripts are generated, and flag values complete
// to player, game and format names.
func TestCompletion(t *testing.T) {
	for _, sh := range []string{"bash", "zsh", "fish"} {
		require.Contains(t, mustRun(t, "completion", sh), "kaisen")
	}
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"match", "--p1", ""}, []string{"admiral", "stateplayer2", "random", "gridbot", "density"}},
		{[]string{"shots", "--player", ""}, []string{"gridbot", "density", "bs-random"}},
		{[]string{"match", "--game", ""}, []string{"submarine", "battleship", "abilities"}},
		{[]string{"fsm", "--format", ""}, []string{"mermaid", "dot", "table"}},
		{[]string{"tournament", "--players", "admiral,st"}, []string{"admiral,stateplayer2", "admiral,state"}},
		{[]string{"serve", "--dialect", ""}, []string{"classic", "submarine-py"}},
		{[]string{"match", "--progress", ""}, []string{"auto", "never"}},
	} {
		out := mustRun(t, append([]string{cobra.ShellCompRequestCmd}, tt.args...)...)
		for _, w := range tt.want {
			require.Contains(t, strings.Split(out, "\n"), w, "%v", tt.args)
		}
	}
}

// TestJSONOnEveryResult: the commands that gained --json print one JSON
// value as the last line of stdout.
func TestJSONOnEveryResult(t *testing.T) {
	var buf bytes.Buffer
	require.Equal(t, 0, Run(context.Background(), []string{"players", "--json"}, nil, &buf, &buf))
	var list []playerJSON
	require.NoError(t, json.Unmarshal(buf.Bytes(), &list))
	i := slices.IndexFunc(list, func(p playerJSON) bool { return p.Name == "ab-random" })
	require.GreaterOrEqual(t, i, 0)
	require.Equal(t, playerJSON{Game: "abilities", Name: "ab-random", Summary: list[i].Summary}, list[i], "a player without weights")
	i = slices.IndexFunc(list, func(p playerJSON) bool { return p.Name == "bs-random" })
	require.GreaterOrEqual(t, i, 0)
	require.Equal(t, playerJSON{Game: "battleship", Name: "bs-random", Weights: "configs/bs-random.yaml", Summary: list[i].Summary}, list[i])

	dir := t.TempDir()
	mustRun(t, "match", "-n", "2", "--seed", "3", "--p1", "random", "--p2", "random", "--replays", dir)
	out := mustRun(t, "replay", filepath.Join(dir, "game-000001.jsonl"), "--json")
	m := matchLastJSON(t, out)
	require.Equal(t, "submarine", m["game"])
	require.Equal(t, true, m["verified"])
	require.Equal(t, "random", m["players"].([]any)[1].(map[string]any)["name"])
	require.Equal(t, version.String(), m["version"], "replays record the version kaisen --version prints")

	out = mustRun(t, "bench", "-n", "20", "--seed", "1", "--workers", "2", "--json")
	m = matchLastJSON(t, out)
	rows := m["rows"].([]any)
	require.Len(t, rows, 3)
	require.Equal(t, 2.0, rows[1].(map[string]any)["workers"])
}

// TestProgressModes: --progress picks the reporter; off a terminal, auto
// writes plain lines (none in a short run), never nothing, bar redraws.
func TestProgressModes(t *testing.T) {
	for _, tt := range []struct {
		mode    string
		nilBar  bool
		redraws bool
	}{{"never", true, false}, {"auto", false, false}, {"lines", false, false}, {"bar", false, true}} {
		t.Run(tt.mode, func(t *testing.T) {
			var stderr bytes.Buffer
			bar := newProgress(&env{stderr: &stderr}, tt.mode, 10, "games")
			if tt.nilBar {
				require.Nil(t, bar)
				return
			}
			require.NotNil(t, bar)
			bar.Set(5)
			bar.Done(10)
			if tt.redraws {
				require.Contains(t, stderr.String(), "\r[")
			} else {
				require.Empty(t, stderr.String(), "a run shorter than the interval prints no line")
			}
		})
	}
}
