package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/extern"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/protocol"
)

// playFlags are the flags of kaisen play.
type playFlags struct {
	addr, player, config, name string
	token                      string // a rated listener's bot token (with name)
	game                       string // a game of the registry (games.Lookup)
	connections                int
	seed                       uint64
	timeout, dialTimeout       time.Duration
	json                       bool
	human                      bool          // a person types the moves (play_human.go)
	against                    string        // with human: a built-in AI in-process
	revealAI                   bool          // with against: the AI's reasons during play (reveals its fleet)
	replays                    string        // with against: where each game's replay goes (play_human.go)
	side                       string        // with against: the person's side in a game with sides (abilities)
	turnTime                   time.Duration // with human on a server: its time per action, shown as the time left
	bot                        launchFlags   // --player exec: (play_exec.go)
	tally                      *playTally    // the games' ends, for --json
	stderr                     io.Writer     // where a slow server's first line is said (waitNotice)
}

// playTally is the --json output of kaisen play.
type playTally struct {
	Game        string   `json:"game"`
	Player      string   `json:"player"`
	Addr        string   `json:"addr"`
	Seed        uint64   `json:"seed"`
	Connections int      `json:"connections"` // connections completed
	Games       int      `json:"games"`
	Wins        int      `json:"wins"`
	Losses      int      `json:"losses"`
	Draws       int      `json:"draws"`
	Ends        []string `json:"ends"` // each game's end for this client: win, lose or draw
}

func (t *playTally) add(end protocol.End) {
	t.Games++
	switch end {
	case protocol.EndWin:
		t.Wins++
	case protocol.EndLose:
		t.Losses++
	case protocol.EndDraw:
		t.Draws++
	}
	t.Ends = append(t.Ends, end.String())
}

// finishPlay prints the --json tally (also after a failure: the games
// completed so far) and returns err: a broken connection or a malformed
// line from the server is a runtime failure (exit 1), an interrupt 130.
func finishPlay(e *env, f playFlags, err error) error {
	if f.json {
		if jerr := json.NewEncoder(e.stdout).Encode(f.tally); jerr != nil && err == nil {
			err = jerr
		}
	}
	return err
}

// playLong is kaisen play's --help text.
const playLong = `Connect one of the built-in AIs (kaisen players) to any submarine-game server
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
series, followed by the series' tally); with --json, one JSON object with
the tally instead ({"games":N,"wins":W,"losses":L,"draws":D,"ends":[...],
"seed":S,...}). A new player is created for every game, seeded from --seed
and the game number, so a run replays bit for bit. -c/--connections N
connects N times in a row (for servers such as kaisen serve that keep
accepting; the reference server plays one game per process).

Exit status: 0 when every game was completed, whatever the results; 1 when
the connection failed or closed before a game ended, or the server sent a
malformed or unexpected line (quoted on stderr); 2 on bad flags (unknown
player or game, bad --weights); 130 when interrupted.

Battleship: the Kaisen battleship server greets like the classic submarine
server, so say --game battleship. --player then names a battleship AI
(gridbot, density, adaptive, bs-random, ...; default gridbot) and each
connection plays one game on the classic 10x10 board, or the whole series
of a server that plays series (kaisen serve --game battleship --series N):
"roundN." greetings, then the tally, as in the submarine game; adaptive
then learns the server's fleets from game to game.

Rated ladder: --name NAME --token TOKEN (the token kaisen ladder register
printed) first sends "auth NAME TOKEN", as a rated listener (kaisen serve
--ladder) wants; the game is then the classic one. A server that refuses the
connection says why in one "refused: REASON" line, reported as the error
(exit 1), e.g. a wrong token or the bot connected already.

A person can take the seat with --human (every game; Battleship and abilities below): your fleet and
your attacks are drawn before each of your turns, you type "a X Y" to attack
[X,Y] or "m SHIP X Y" to move ("help" lists the commands), and a typo or an
illegal action is refused with the reason and asked again, never sent, so it
cannot forfeit the game. "resign" (or "quit") gives up the game, and a
series with it; "help" works at every prompt. Every event is reported in
words. Moves can be piped in for scripts; the end of the input resigns, and
a series stops there. A server gives each action
--action-timeout (10s by default for kaisen serve): start it with a longer
one for people, e.g. kaisen serve --humans (10 minutes an action);
--turn-time 10m then shows the time left at every prompt (the wire does not
say it). --human --against
NAME plays the built-in AI NAME in-process instead (you act first; --seed
seeds the AI). With -c N it is a series of N games, you acting first in
the odd ones: an AI that learns across games keeps what it learnt, as on a
series server, and the tally ends the series.

During play you are told only what the rules tell a seat: the AI's reasons
are kept until the game is over. Then the AI's fleet, the result and why
the AI chose each of its actions are printed, and the game's replay with
the AI's reasons is written to --replays DIR (default kaisen's data
directory, $XDG_DATA_HOME/kaisen/play or ~/.local/share/kaisen/play; file
mode 0600) and named, for kaisen replay FILE or kaisen replay FILE --html
PAGE.html. A seed drawn at random (no --seed) is printed then too, not on
stderr at the start: a seed known during play reproduces the AI's fleet. In
a series the replays and the seed come when the series is over, as a
replay's seed tells the AI's next fleets. --reveal-ai prints the AI's reasons during play too, after
each of its actions ("why: ..."): it REVEALS THE AI'S FLEET (an attack
candidate lies within reach of a hidden ship, a move names its row or
column, a shot's reasons say where its ships are not), for studying an AI,
not for playing it.

Battleship too (--human --game battleship): place your fleet by typing each
ship's end cells ("A1-D1 F1-H1 ... G5"), "r" for a random fleet or a style
(edge, human, inner); then type a cell to shoot ("E5"; Cyrillic columns
work: д5). Both boards are drawn before each of your shots; a cell shot
before is refused. At the end of the input you pass every turn and the
opponent finishes. A series (--against adaptive -c 10, or a series
server: kaisen serve --game battleship --house adaptive --series 10) lets
an AI learn where you put your ships.

Abilities too (--human --game abilities): place your fleet as in
Battleship; --side ai (the default) or --side humans picks your side
against --against NAME (on a server, the server gives it). On your turn
type a cell to shoot ("E5"), "special E5" to shoot with your 3-deck's
ability, "move D4 D5" to move a 1-deck one cell (the turn goes on),
"salvo E5 F5" (AI side: two cells side by side) or "salvo E5" (Humans
side: the 3x3 around E5). When the rules ask you, answer "y" or "n" (your
false miss, your air defence) or name the cells the enemy's salvo hits
("D4 E4 F4"). An ability you cannot use now, a move onto a shot cell and
the like are refused, never sent; at the end of the input you pass.`

func newPlayCmd(e *env) *cobra.Command {
	var f playFlags
	cmd := &cobra.Command{
		Use:   "play",
		Short: "Connect a built-in AI to a turn server (ours or the reference ones) and play",
		Long:  playLong + playExecHelp,
		Example: `  kaisen play --addr 127.0.0.1:2000 --player stateplayer2
  kaisen play --addr 192.0.2.7:2000 --player state -c 20 --seed 7 --json
  kaisen play --addr 127.0.0.1:8000 --player simple --name tanaka   (submarine-py)
  kaisen play --player stateplayer2 --weights my-weights.yaml --log-level debug
  kaisen play --game battleship --player gridbot        (kaisen serve --game battleship)
  kaisen play --human --against admiral                 you against admiral, in this terminal
  kaisen play --human --against admiral --reveal-ai     the same, seeing admiral's reasons (and so its fleet)
  kaisen play --human --addr 127.0.0.1:2000             you on a server for people (kaisen serve --humans)
  kaisen play --human --game battleship --against density   Battleship against density, in this terminal
  kaisen play --human --game battleship --against adaptive -c 10   a series: it learns your fleets
  kaisen play --human --game abilities --against ab-density --side humans   the abilities variant, Humans side
  kaisen play --name mybot --token kt_... -c 100         100 rated games (kaisen serve --ladder)
  kaisen play --player exec:'python3 bot.py {host} {port}' --addr 192.0.2.7:2000 -c 50   your program, 50 games on a remote server
  kaisen play --player exec:'./mybot {host} {port}' --name mybot --token kt_... -c 100   your program on the rated ladder`,
		Args:        cobra.NoArgs,
		Annotations: map[string]string{seedLaterKey: "against"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			f.stderr = e.stderr
			if f.connections < 1 {
				return usageError("--connections %d: want at least 1", f.connections)
			}
			if f.timeout <= 0 || f.dialTimeout <= 0 {
				return usageError("--timeout and --dial-timeout must be positive")
			}
			g, err := lookupGame(f.game)
			if err != nil {
				return err
			}
			if f.token != "" && !cmd.Flags().Changed("name") {
				return usageError("--token needs --name: the bot's registered name")
			}
			if f.human || f.against != "" {
				if extern.Is(f.player) {
					return usageError("--player exec: is a program's seat: not with --human or --against")
				}
				if f.token != "" {
					return usageError("--token plays a rated listener with an AI, not --human")
				}
				return runHuman(cmd, e, &f, g)
			}
			if f.side != "" {
				return usageError("--side is for --human --against games")
			}
			f.tally = &playTally{Game: g.Name, Player: f.player, Addr: f.addr, Seed: f.seed, Ends: []string{}}
			if !cmd.Flags().Changed("player") {
				f.player = g.PlayDefault
				f.tally.Player = f.player
			}
			if extern.Is(f.player) {
				return runPlayExec(cmd.Context(), e, f)
			}
			return runPlay(cmd.Context(), e, f, g)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:2000", "server address host:port")
	fl.StringVar(&f.player, "player", "random", "built-in AI to play with (see kaisen players), or a program exec:'CMD {host} {port}' started per connection")
	fl.StringVar(&f.game, "game", games.Default().Name, gameFlagHelp("game the server plays"))
	_ = cmd.RegisterFlagCompletionFunc("game", completeGames)
	addWeightsFlag(cmd, &f.config, "weights", "YAML weights for the AI (default: its built-in defaults)", "config")
	fl.IntVarP(&f.connections, "connections", "c", 1, "connections to play in a row (each plays one game or one whole series); with --against, the games of the series")
	alias(cmd, "games", "connections")
	addSeedFlag(cmd, &f.seed, "seed of the AI's random choices")
	addJSONFlag(cmd, &f.json, "print the tally of the games as one JSON object instead of the end lines")
	completePlayers(cmd, "player", false, anyGame)
	completeYAML(cmd, "weights")
	fl.StringVar(&f.name, "name", "", `name sent to submarine-py servers (default "kaisen-" + the player); with --token the bot's registered name`)
	fl.StringVar(&f.token, "token", "", "bot token for a rated listener (kaisen serve --ladder): sends \"auth NAME TOKEN\" first (docs/ladder.md)")
	fl.DurationVar(&f.timeout, "timeout", client.DefaultPlayReadTimeout, "longest wait for any line from the server (the opponent's thinking time included)")
	fl.DurationVar(&f.dialTimeout, "dial-timeout", 10*time.Second, "longest wait to connect")
	fl.BoolVar(&f.human, "human", false, "play yourself: type your moves on stdin (or pipe them in); every game")
	fl.StringVar(&f.against, "against", "", "with --human: play this built-in AI in-process instead of a server (its reasons are shown after the game)")
	fl.BoolVar(&f.revealAI, "reveal-ai", false, "with --against: also show the AI's reasons during play; this REVEALS THE AI'S FLEET")
	fl.StringVar(&f.replays, "replays", "", "with --against: write each game's replay, with the AI's reasons, into this directory (default: kaisen's data directory, play/)")
	must(cmd.MarkFlagDirname("replays"))
	fl.DurationVar(&f.turnTime, "turn-time", 0, "with --human on a server: the server's time for each action and the placement, to show the time left at every prompt (kaisen serve --humans: 10m; a server for bots: 10s an action, 30s the placement)")
	fl.StringVar(&f.side, "side", "", "with --against --game abilities: the side you play, ai (seat 0, the default) or humans (seat 1)")
	completePlayers(cmd, "against", false, hasHuman)
	addLaunchFlags(cmd, &f.bot, "each connection's program output (connection-000000.log, ...)")
	return cmd
}

// runPlay is kaisen play with an AI: f.connections connections to the
// server, each played by the game's client; every game gets its own
// seeded AI (the game's number over all connections).
func runPlay(ctx context.Context, e *env, f playFlags, g games.Game) error {
	c, err := g.NewClient(games.ClientOptions{Player: f.player, Load: config.File(f.config), Name: f.name})
	if err != nil {
		return &UsageError{Err: err}
	}
	e.log.Info("play", "game", g.Name, "addr", f.addr, "player", f.player, "seed", f.seed, "connections", f.connections)
	opt := games.PlayOptions{Seed: f.seed, ReadTimeout: f.timeout, Log: e.log, OnEnd: f.tally.add}
	if !f.json {
		opt.Print = printLine(e)
	}
	played := 0 // games played on earlier connections
	for conn := range f.connections {
		n, err := playConn(ctx, f, c, played, opt)
		played += n
		if err != nil {
			if f.connections > 1 {
				err = fmt.Errorf("connection %d of %d: %w", conn+1, f.connections, err)
			}
			return finishPlay(e, f, err)
		}
		f.tally.Connections++
	}
	return finishPlay(e, f, nil)
}

// printLine prints a line of a game's end to stdout.
func printLine(e *env) func(string) error {
	return func(line string) error {
		_, err := fmt.Fprintln(e.stdout, line)
		return err
	}
}

// connect dials the server of f and sends the auth line of --token.
func connect(ctx context.Context, f playFlags) (net.Conn, error) {
	d := net.Dialer{Timeout: f.dialTimeout}
	conn, err := d.DialContext(ctx, "tcp", f.addr)
	if err != nil {
		if f.human && errors.Is(err, syscall.ECONNREFUSED) {
			return nil, fmt.Errorf("connect: %w\nno server listens at %s: to play a built-in AI without a server, add --against NAME (e.g. --against admiral; kaisen players lists them), or start one: kaisen serve --humans --listen %s", err, f.addr, f.addr)
		}
		return nil, fmt.Errorf("connect: %w", err)
	}
	if f.token != "" {
		if err := client.Authenticate(conn, f.name, f.token, f.timeout); err != nil {
			_ = conn.Close()
			return nil, err
		}
	}
	return conn, nil
}

// playConn plays every game of one new connection.
func playConn(ctx context.Context, f playFlags, c games.Client, first int, opt games.PlayOptions) (int, error) {
	conn, err := connect(ctx, f)
	if err != nil {
		return 0, err
	}
	defer conn.Close()
	wn := newWaitNotice(conn, f.stderr, waitingFor(f))
	defer wn.stop()
	return c.Play(ctx, wn, first, opt)
}

// waitNoticeAfter is how long kaisen play waits for the server's first
// line before it says it is waiting (a variable for the tests).
var waitNoticeAfter = time.Second

// waitingFor is what kaisen play says when the server's greeting is slow:
// who waits, and for whom.
func waitingFor(f playFlags) string {
	if f.token != "" {
		return fmt.Sprintf("kaisen play: bot %s is waiting at %s to be paired with an opponent of close rating: another registered bot must connect (kaisen play --name OTHER --token ...)", f.name, f.addr)
	}
	return fmt.Sprintf("kaisen play: waiting at %s for the server to start a game: it pairs clients, so another one must connect (or the server plays one: kaisen serve --house NAME)", f.addr)
}

// waitNotice is a connection that prints say on w when its first read
// has waited waitNoticeAfter (at most once). The notice is written before
// that read returns, never after stop.
type waitNotice struct {
	net.Conn
	t    *time.Timer
	done chan struct{} // closed once the notice ran
	read bool          // the first read returned
}

func newWaitNotice(conn net.Conn, w io.Writer, say string) *waitNotice {
	wn := &waitNotice{Conn: conn, done: make(chan struct{})}
	wn.t = time.AfterFunc(waitNoticeAfter, func() {
		defer close(wn.done)
		fmt.Fprintln(w, say)
	})
	return wn
}

func (w *waitNotice) Read(p []byte) (int, error) {
	n, err := w.Conn.Read(p)
	w.stop()
	return n, err
}

// stop cancels the notice, or waits for it to be written.
func (w *waitNotice) stop() {
	if w.read {
		return
	}
	w.read = true
	if !w.t.Stop() {
		<-w.done
	}
}
