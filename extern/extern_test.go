package extern_test

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/extern"
	"github.com/kaisen-ai/kaisen/internal/proctest"
)

// requireNoSurvivor fails when a bot's process outlived its games.
func requireNoSurvivor(t *testing.T) {
	t.Helper()
	proctest.RequireNoSurvivor(t, filepath.Dir(kaisenBin))
}

// player is the spec of kaisen play as a well-behaved bot.
func player(game, ai string) string {
	return fmt.Sprintf("exec:%s play --game %s --player %s --addr {host}:{port} --seed {seed}", kaisenBin, game, ai)
}

func mustParse(t *testing.T, spec string) extern.Command {
	t.Helper()
	c, err := extern.Parse(spec)
	require.NoError(t, err)
	return c
}

// forfeits records the arena's forfeit log lines.
type forfeits struct {
	mu      sync.Mutex
	reasons []string
}

func (f *forfeits) Enabled(context.Context, slog.Level) bool { return true }
func (f *forfeits) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "reason" {
			f.mu.Lock()
			f.reasons = append(f.reasons, a.Value.String())
			f.mu.Unlock()
		}
		return true
	})
	return nil
}
func (f *forfeits) WithAttrs([]slog.Attr) slog.Handler { return f }
func (f *forfeits) WithGroup(string) slog.Handler      { return f }

func TestWellBehavedBotFinishesEveryGame(t *testing.T) {
	tests := []struct {
		name, game, dialect, bot, house string
		botIsP2                         bool
		games                           int
	}{
		{"submarine classic as p1", "submarine", "", "random", "random", false, 20},
		{"submarine classic as p2", "submarine", "", "random", "stateplayer2", true, 10},
		{"submarine-py", "submarine", "submarine-py", "random", "random", false, 6},
		{"battleship", "battleship", "", "bs-random", "gridbot", false, 4},
		{"abilities", "abilities", "", "ab-random", "ab-density", true, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fam := &extern.Family{Name: tt.game, Dialect: tt.dialect, Bot: mustParse(t, player(tt.game, tt.bot)), BotIsP2: tt.botIsP2, House: tt.house}
			m := arena.Match{Family: fam, Games: tt.games, Seed: 7, Workers: 2, Replays: t.TempDir()}
			sum, err := m.Run(context.Background(), nil)
			require.NoError(t, err)
			require.Equal(t, tt.games, sum.Games)
			require.Zero(t, sum.P1Forfeits+sum.P2Forfeits, "forfeits")
			require.Equal(t, tt.games, sum.P1Wins+sum.P2Wins+sum.Draws)
			require.Positive(t, sum.Actions)
			rp, err := os.ReadFile(filepath.Join(m.Replays, arena.ReplayName(tt.games-1)))
			require.NoError(t, err)
			require.Contains(t, string(rp), tt.game, "the server's replay is the game's")
			requireNoSurvivor(t)
		})
	}
}

func TestBotGamesAreReproducible(t *testing.T) {
	run := func() arena.Summary {
		fam := &extern.Family{Name: "submarine", Bot: mustParse(t, player("submarine", "random")), House: "random"}
		m := arena.Match{Family: fam, Games: 8, Seed: 11, Workers: 2}
		sum, err := m.Run(context.Background(), nil)
		require.NoError(t, err)
		return sum
	}
	a, b := run(), run()
	require.Equal(t, a.Lengths, b.Lengths)
	require.Equal(t, [3]int{a.P1Wins, a.P2Wins, a.Draws}, [3]int{b.P1Wins, b.P2Wins, b.Draws})
}

// hostileGames is the number of games of each hostile bot in each seat
// (the goal: go test ./extern -run Hostile -hostile-games 200).
var hostileGames = flag.Int("hostile-games", 4, "games of each hostile bot in each seat")

func TestHostileBotsForfeitOnlyTheirOwnGames(t *testing.T) {
	hostile := func(mode string) string { return fmt.Sprintf("exec:%s %s {host} {port}", hostileBin, mode) }
	tests := []struct {
		name, spec string
		limits     extern.Limits
		reason     string // in every forfeit's reason
		forfeits   bool   // the bot forfeits (else it finishes every game)
		slow       bool   // its forfeit takes time (a Go program dumping its goroutines): longer timeouts
	}{
		{"crash", hostile("crash"), extern.Limits{}, "disconnect", true, false},
		{"hang", hostile("hang"), extern.Limits{}, "timeout", true, false},
		{"flood", hostile("flood"), extern.Limits{}, "line_too_long", true, false},
		{"garbage", hostile("garbage"), extern.Limits{}, "protocol", true, false},
		{"early exit", hostile("exit"), extern.Limits{}, "exited before its game began", true, false},
		{"fork and hang", hostile("fork"), extern.Limits{}, "timeout", true, false},
		{"memory limit", hostile("memory"), extern.Limits{MemoryBytes: 128 << 20}, "disconnect", true, true},
		{"never connects", "exec:sleep 3600 # {port}", extern.Limits{}, "game timeout", true, false},
		{"forks a child, then plays", fmt.Sprintf("exec:%s sleep & exec %s play --player random --addr {host}:{port}", hostileBin, kaisenBin),
			extern.Limits{}, "", false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, isP2 := range []bool{false, true} {
				log := &forfeits{}
				timeout := 300 * time.Millisecond
				if tt.slow {
					timeout = 5 * time.Second
				}
				fam := &extern.Family{Name: "submarine", Bot: mustParse(t, tt.spec), BotIsP2: isP2, House: "random", Limits: tt.limits,
					ActionTimeout: timeout, HandshakeTimeout: timeout, GameTimeout: 2 * time.Second, LogDir: t.TempDir()}
				n := *hostileGames
				m := arena.Match{Family: fam, Games: n, Seed: 3, Workers: 2, Log: slog.New(log)}
				sum, err := m.Run(context.Background(), nil)
				require.NoError(t, err)
				require.Equal(t, n, sum.Games)
				botF, houseF := sum.P1Forfeits, sum.P2Forfeits
				if isP2 {
					botF, houseF = houseF, botF
				}
				require.Zero(t, houseF, "the built-in AI never forfeits")
				if !tt.forfeits {
					require.Zero(t, botF)
					requireNoSurvivor(t)
					continue
				}
				require.Equal(t, n, botF, "the bot forfeits every game")
				require.Len(t, log.reasons, n)
				for _, r := range log.reasons {
					require.Contains(t, r, tt.reason)
				}
				logs, err := os.ReadDir(fam.LogDir)
				require.NoError(t, err)
				require.Len(t, logs, n, "one output file per game")
				require.FileExists(t, filepath.Join(fam.LogDir, extern.LogName(0, map[bool]string{false: "p1", true: "p2"}[isP2])))
				requireNoSurvivor(t)
			}
		})
	}
}

func TestCancelKillsEveryBot(t *testing.T) {
	fam := &extern.Family{Name: "submarine", Bot: mustParse(t, fmt.Sprintf("exec:%s fork {host} {port}", hostileBin)), House: "random"}
	m := arena.Match{Family: fam, Games: 10, Seed: 1, Workers: 2}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sum, err := m.Run(ctx, func(int) { cancel() }) // the first progress call stops the match
	require.ErrorIs(t, err, context.Canceled)
	require.Less(t, sum.Games, 10)
	requireNoSurvivor(t)
}

func TestParse(t *testing.T) {
	tests := []struct {
		spec, want, err string
	}{
		{"exec:./bot {host} {port}", "./bot {host} {port}", ""},
		{"exec:  python3 bot.py --addr {host}:{port}  ", "python3 bot.py --addr {host}:{port}", ""},
		{"./bot {port}", "", "does not start with"},
		{"exec:", "", "has no command"},
		{"exec:./bot", "", "never says {port}"},
	}
	for _, tt := range tests {
		t.Run(tt.spec, func(t *testing.T) {
			got, err := extern.Parse(tt.spec)
			if tt.err != "" {
				require.ErrorIs(t, err, extern.ErrCommand)
				require.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.want, got.Line)
			require.True(t, extern.Is(tt.spec))
		})
	}
}

func TestFamilyValidate(t *testing.T) {
	ok := extern.Family{Name: "submarine", Bot: extern.Command{Line: "./bot {port}"}, House: "random"}
	tests := []struct {
		name   string
		change func(f *extern.Family)
		err    string
	}{
		{"unknown house AI", func(f *extern.Family) { f.House = "nobody" }, "nobody"},
		{"unknown game", func(f *extern.Family) { f.Name = "chess" }, "chess"},
		{"bad dialect", func(f *extern.Family) { f.Dialect = "klingon" }, "klingon"},
		{"tiny memory limit", func(f *extern.Family) { f.Limits.MemoryBytes = 1000 }, "at least 1 MiB"},
		{"negative CPU limit", func(f *extern.Family) { f.Limits.CPUSeconds = -1 }, "CPU limit"},
		{"negative timeout", func(f *extern.Family) { f.GameTimeout = -time.Second }, "negative"},
	}
	require.NoError(t, ok.Validate())
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := ok
			tt.change(&f)
			require.ErrorContains(t, f.Validate(), tt.err)
		})
	}
}

func TestTwoBotsPlayEachOther(t *testing.T) {
	hostile := fmt.Sprintf("exec:%s crash {host} {port}", hostileBin)
	never := "exec:sleep 3600 # {port}"
	tests := []struct {
		name       string
		p1, p2     string
		p1F, p2F   int // forfeits
		timeoutSet bool
	}{
		{"both well-behaved", player("submarine", "random"), player("submarine", "stateplayer2"), 0, 0, false},
		{"p1 crashes", hostile, player("submarine", "random"), 6, 0, false},
		{"p2 crashes", player("submarine", "random"), hostile, 0, 6, false},
		{"p2 never connects", player("submarine", "random"), never, 0, 6, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fam := &extern.Family{Name: "submarine", Bot: mustParse(t, tt.p1), Bot2: mustParse(t, tt.p2),
				ActionTimeout: time.Second, HandshakeTimeout: time.Second, GameTimeout: 2 * time.Second}
			const n = 6
			m := arena.Match{Family: fam, Games: n, Seed: 5, Workers: 2}
			sum, err := m.Run(context.Background(), nil)
			require.NoError(t, err)
			require.Equal(t, n, sum.Games)
			require.Equal(t, [2]int{tt.p1F, tt.p2F}, [2]int{sum.P1Forfeits, sum.P2Forfeits})
			if tt.p1F > 0 {
				require.Equal(t, n, sum.P2Wins)
			}
			if tt.p2F > 0 {
				require.Equal(t, n, sum.P1Wins)
			}
			requireNoSurvivor(t)
		})
	}
}

func TestTwoBotsSitInTheArenasSeats(t *testing.T) {
	named := func(name string) string {
		return fmt.Sprintf("exec:%s play --name %s --addr {host}:{port}", kaisenBin, name)
	}
	fam := &extern.Family{Name: "submarine", Dialect: "submarine-py", Bot: mustParse(t, named("alice")), Bot2: mustParse(t, named("bob"))}
	m := arena.Match{Family: fam, Games: 4, Seed: 2, Workers: 2, Replays: t.TempDir()}
	_, err := m.Run(context.Background(), nil)
	require.NoError(t, err)
	for i := range 4 {
		b, err := os.ReadFile(filepath.Join(m.Replays, arena.ReplayName(i)))
		require.NoError(t, err)
		header, _, _ := strings.Cut(string(b), "\n")
		first, second := "alice", "bob" // p1 sits in seat 0 in even games
		if i%2 == 1 {
			first, second = second, first
		}
		require.Regexp(t, `"seat":0,"name":"remote [0-9.:]+ `+first+`"\},\{"seat":1,"name":"remote [0-9.:]+ `+second+`"`, header, "game %d", i)
	}
	requireNoSurvivor(t)
}
