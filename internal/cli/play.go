package cli

import (
	"context"
	crand "crypto/rand"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/players"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Exit codes of kaisen play besides 0 (every game completed, whatever the result).
const (
	playExitFailed   = 1 // connection refused, closed mid-game, timeout, ...
	playExitUsage    = 2 // bad flags
	playExitProtocol = 3 // the server sent a malformed or unexpected line
)

// playFlags are the flags of kaisen play.
type playFlags struct {
	addr, player, config, name string
	game                       string // submarine or battleship (play_battleship.go)
	games                      int
	seed                       uint64
	timeout, dialTimeout       time.Duration
}

func newPlayCmd(e *env) *cobra.Command {
	var f playFlags
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Connect a built-in AI to a turn server (ours or the reference ones) and play",
		Long: `Connect one of the built-in AIs (kaisen players) to any submarine-game server
over TCP and play: the 2016 classic reference server (Ruby), its series fork,
a 2025 submarine_py server, or kaisen serve. The dialect is recognised from
the server's greeting:

  classic        "you are connected. please send me initial state."  one game
  series         "round1. please send me initial state."             every round
                  until the last end line ("you win." etc.) and the tally
  submarine-py   "This is a submarine_py server.  Tell me your name."  sends
                  --name, reads the field (board size and rocks), one game

Each game's end line is printed to stdout exactly as the server sent it
("you win", "you lose", "even", "draw"; "you lose." for the last game of a
series, followed by the series' tally). A new player is created for every
game, seeded from --seed and the game number, so a run replays bit for bit.
--games N connects N times in a row (for servers such as kaisen serve that
keep accepting; the reference server plays one game per process).

Exit status: 0 when every game was completed, whatever the results; 1 when
the connection failed or closed before a game ended; 2 on bad flags; 3 when
the server sent a malformed or unexpected line (quoted on stderr).

Examples:
  kaisen play --addr 127.0.0.1:2000 --player stateplayer2
  kaisen play --addr 192.0.2.7:2000 --player state --games 20 --seed 7
  kaisen play --addr 127.0.0.1:8000 --player simple --name tanaka   (submarine-py)
  kaisen play --player stateplayer2 --config my-weights.yaml --log-level debug
  kaisen play --game battleship --player gridbot        (kaisen serve --game battleship)

Battleship: the Kaisen battleship server greets like the classic submarine
server, so say --game battleship. --player then names a battleship AI
(gridbot, density or bs-random; default gridbot) and each connection plays
one game on the classic 10x10 board.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if !cmd.Flags().Changed("seed") {
				f.seed = drawSeed()
			}
			g, err := lookupGame(f.game)
			if err != nil {
				return &ExitError{Code: playExitUsage, Err: err}
			}
			c, ok := playClients[g.Name]
			if !ok {
				return &ExitError{Code: playExitUsage, Err: fmt.Errorf("--game %s: kaisen play has no client for it", g.Name)}
			}
			if !cmd.Flags().Changed("player") {
				f.player = c.defaultPlayer
			}
			return c.run(cmd.Context(), e, f)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:2000", "server address host:port")
	fl.StringVar(&f.player, "player", "random", "built-in AI to play with (see kaisen players)")
	fl.StringVar(&f.game, "game", games.Default().Name, gameFlagHelp("game the server plays"))
	_ = cmd.RegisterFlagCompletionFunc("game", completeGames)
	fl.StringVar(&f.config, "config", "", "YAML weights for the AI (default: its built-in defaults)")
	fl.IntVar(&f.games, "games", 1, "connections to play in a row (each plays one game or one whole series)")
	fl.Uint64Var(&f.seed, "seed", 0, "seed of the AI's random choices (default: drawn at random and logged)")
	fl.StringVar(&f.name, "name", "", `name sent to submarine-py servers (default "kaisen-" + the player)`)
	fl.DurationVar(&f.timeout, "timeout", client.DefaultPlayReadTimeout, "longest wait for any line from the server (the opponent's thinking time included)")
	fl.DurationVar(&f.dialTimeout, "dial-timeout", 10*time.Second, "longest wait to connect")
	return cmd
}

// playClient is how kaisen play plays one game of the registry: the AI
// without --player and the run.
type playClient struct {
	defaultPlayer string
	run           func(ctx context.Context, e *env, f playFlags) error
}

// playClients are kaisen play's clients by game name; every game of the
// registry has one (TestEveryGameHasAPlayClient).
var playClients = map[string]playClient{
	submarine.Name:  {defaultPlayer: "random", run: runPlay},
	battleship.Name: {defaultPlayer: defaultBattleshipPlayer, run: runPlayBattleship},
}

func runPlay(ctx context.Context, e *env, f playFlags) error {
	if f.games < 1 {
		return &ExitError{Code: playExitUsage, Err: fmt.Errorf("--games %d: want at least 1", f.games)}
	}
	if f.timeout <= 0 || f.dialTimeout <= 0 {
		return &ExitError{Code: playExitUsage, Err: errors.New("--timeout and --dial-timeout must be positive")}
	}
	if f.name == "" {
		f.name = "kaisen-" + f.player
	}
	if strings.ContainsAny(f.name, "\r\n") || strings.TrimSpace(f.name) == "" {
		return &ExitError{Code: playExitUsage, Err: fmt.Errorf("--name %q: want one non-blank line", f.name)}
	}
	if _, err := players.Lookup(f.player); err != nil {
		return &ExitError{Code: playExitUsage, Err: fmt.Errorf("--player: %w", err)}
	}
	// Build once for the default rules so that a bad --config fails before
	// connecting; other boards (submarine-py fields) are built on demand.
	def := submarine.DefaultRules()
	if _, err := players.New(f.player, def, config.File(f.config)); err != nil {
		return &ExitError{Code: playExitUsage, Err: err}
	}
	build := func(r *submarine.Rules) (players.Factory, error) {
		return players.New(f.player, r, config.File(f.config))
	}
	e.log.Info("play", "addr", f.addr, "player", f.player, "seed", f.seed, "games", f.games)

	offset := 0 // games played on earlier connections: every game gets its own stream
	for conn := range f.games {
		rngFor := func(game int) *rand.Rand {
			return rand.New(rand.NewPCG(f.seed, uint64(offset+game)))
		}
		res, err := playOnce(ctx, e, f, build, rngFor)
		offset += len(res.Games)
		if err != nil {
			if f.games > 1 {
				err = fmt.Errorf("connection %d of %d: %w", conn+1, f.games, err)
			}
			var pe *protocol.ProtocolError
			if errors.As(err, &pe) {
				return &ExitError{Code: playExitProtocol, Err: err}
			}
			return &ExitError{Code: playExitFailed, Err: err}
		}
	}
	return nil
}

// playOnce plays every game of one connection and prints the end lines.
func playOnce(ctx context.Context, e *env, f playFlags, build client.SubmarinePlayerFor, rngFor func(int) *rand.Rand) (client.SubmarineResult, error) {
	d := net.Dialer{Timeout: f.dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", f.addr)
	if err != nil {
		return client.SubmarineResult{}, fmt.Errorf("connect: %w", err)
	}
	defer conn.Close()
	var werr error
	opts := client.SubmarinePlayOptions{
		Name:        f.name,
		ReadTimeout: f.timeout,
		Log:         e.log,
		OnGame: func(g client.SubmarineGame) {
			e.log.Debug("game over", "game", g.Game+1, "round", g.Round, "end", g.End.String(), "actions", g.Actions, "first", g.First)
			if _, err := fmt.Fprintln(e.stdout, g.Line); err != nil && werr == nil {
				werr = err
			}
		},
	}
	res, err := client.PlaySubmarine(ctx, conn, build, rngFor, opts)
	if err == nil && res.Tally != nil {
		for _, l := range protocol.SeriesTrailer(*res.Tally) {
			if _, err := fmt.Fprintln(e.stdout, l); err != nil && werr == nil {
				werr = err
			}
		}
	}
	if err == nil && werr != nil {
		err = fmt.Errorf("write output: %w", werr)
	}
	if err == nil {
		e.log.Info("connection done", "dialect", res.Dialect.String(), "games", len(res.Games), "series", res.Series)
	}
	return res, err
}

// drawSeed draws a seed for a run without --seed (it is logged, so the run
// can be repeated).
func drawSeed() uint64 {
	var b [8]byte
	if _, err := io.ReadFull(crand.Reader, b[:]); err != nil {
		return uint64(time.Now().UnixNano())
	}
	return binary.LittleEndian.Uint64(b[:])
}
