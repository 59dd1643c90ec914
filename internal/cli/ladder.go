package cli

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/internal/spell"
	"github.com/kaisen-ai/kaisen/ladder"
)

// newLadderCmd is kaisen ladder: the rated ladder's database (docs/ladder.md).
func newLadderCmd(e *env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "ladder",
		Short: "Register bots and read the rated ladder's table, history and games (SQLite or PostgreSQL)",
		Long: `The rated ladder keeps registered bots, their Glicko-2 ratings and their
games in a database (docs/ladder.md): --db is a file path (SQLite) or a
postgres:// URL (PostgreSQL; the database must exist). kaisen ladder init
creates a SQLite file (and the tables of either); every other command, and
kaisen serve --ladder, refuses a file that does not exist, so that a typo
in --db never starts an empty ladder. A database is migrated to the
current schema when opened. kaisen serve --ladder --db runs the rated
listener on it.`,
		Example: `  kaisen ladder init --db ladder.db
  kaisen ladder register mybot --db ladder.db
  kaisen ladder table --db ladder.db
  kaisen ladder history mybot --db ladder.db --json
  kaisen ladder export --db ladder.db > games.csv`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usageError("unknown command %q for %q", args[0], cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newLadderInitCmd(e), newLadderRegisterCmd(e), newLadderTableCmd(e), newLadderHistoryCmd(e), newLadderExportCmd(e))
	return cmd
}

// addDBFlag registers --db, the ladder database.
func addDBFlag(cmd *cobra.Command, p *string) {
	cmd.Flags().StringVar(p, "db", "", "the ladder database: a file path (SQLite) or a postgres://user:password@host/db URL (PostgreSQL)")
}

// errNoLadder is wrapped by openLadder's error for a SQLite file that
// does not exist (only kaisen ladder init creates one).
var errNoLadder = errors.New("no ladder database")

// openLadder opens the database named by --db (a usage error when unset
// or not usable as a database address). A SQLite file must exist: only
// kaisen ladder init (openLadderCreate) creates one.
func openLadder(cmd *cobra.Command, db string) (*ladder.Store, error) {
	if db != "" && !ladder.IsPostgres(db) {
		if _, err := os.Stat(db); errors.Is(err, fs.ErrNotExist) {
			return nil, &ExitError{Code: ExitFailure, Err: fmt.Errorf("--db %s: %w there (a typo?); create one with: kaisen ladder init --db %s", db, errNoLadder, db)}
		}
	}
	return openLadderCreate(cmd, db)
}

// openLadderCreate is openLadder creating a missing SQLite file.
func openLadderCreate(cmd *cobra.Command, db string) (*ladder.Store, error) {
	if db == "" {
		return nil, usageError("--db: want the ladder database: a file path (SQLite) or a postgres:// URL")
	}
	s, err := ladder.Open(cmd.Context(), db)
	if err != nil {
		if errors.Is(err, ladder.ErrDSN) {
			return nil, &UsageError{Err: err}
		}
		return nil, err
	}
	return s, nil
}

// readLadder opens --db, reads what read returns from it, and closes it.
func readLadder[T any](cmd *cobra.Command, db string, read func(*ladder.Store, context.Context) (T, error)) (T, error) {
	s, err := openLadder(cmd, db)
	if err != nil {
		var zero T
		return zero, err
	}
	defer s.Close()
	return read(s, cmd.Context())
}

func newLadderInitCmd(e *env) *cobra.Command {
	var db string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "init",
		Short: "Create the ladder database (the only command that does)",
		Long: `Create the ladder database named by --db with the current schema: a SQLite
file (its directory must exist) or the tables of a PostgreSQL database
(which must exist). An existing database is only migrated to the current
schema. The other ladder commands and kaisen serve --ladder refuse a
SQLite file that does not exist.`,
		Example: `  kaisen ladder init --db ladder.db`,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			existed := true
			if !ladder.IsPostgres(db) {
				_, err := os.Stat(db)
				existed = err == nil
			}
			s, err := openLadderCreate(cmd, db)
			if err != nil {
				return err
			}
			defer s.Close()
			if asJSON {
				return json.NewEncoder(e.stdout).Encode(map[string]any{"db": ladder.Redact(db), "created": !existed, "schema": ladder.Version()})
			}
			verb := "created"
			if existed {
				verb = "ready (it existed)"
			}
			_, err = fmt.Fprintf(e.stdout, "ladder database %s %s, schema version %d; next: kaisen ladder register NAME --db %s\n", ladder.Redact(db), verb, ladder.Version(), db)
			return err
		},
	}
	addDBFlag(cmd, &db)
	addJSONFlag(cmd, &asJSON, `print {"db","created","schema"} as one JSON object`)
	return cmd
}

func newLadderRegisterCmd(e *env) *cobra.Command {
	var db, owner string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "register NAME",
		Short: "Register a bot and print its token (once: only its hash is kept)",
		Long: `Register a bot under NAME (1 to 32 letters, digits, '_', '-' or '.', starting
with a letter or digit) with a new rating, and print its token alone on the
last line. The token is shown this once: the database keeps only its
SHA-256. A bot presents its name and token when it connects to a rated
listener.

A name that looks like a registered one is refused, naming that bot:
names are compared without case, with look-alike letters and digits
folded ("ALPHA", "a1pha" and "aIpha" are all "alpha"; docs/ladder.md).
--owner records who registered the bot: games between two bots of one
owner are stored unrated.`,
		Example: `  kaisen ladder register mybot --db ladder.db
  kaisen ladder register mybot --owner alice@example.org --db ladder.db
  TOKEN=$(kaisen ladder register mybot --db ladder.db | tail -n 1)`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := ladder.ValidName(args[0]); err != nil {
				return &UsageError{Err: err}
			}
			if err := ladder.ValidOwner(owner); err != nil {
				return &UsageError{Err: err}
			}
			s, err := openLadder(cmd, db)
			if err != nil {
				return err
			}
			defer s.Close()
			token, err := s.RegisterOwned(cmd.Context(), args[0], owner)
			if err != nil {
				return err
			}
			if asJSON {
				return json.NewEncoder(e.stdout).Encode(map[string]string{"name": args[0], "token": token})
			}
			fmt.Fprintf(e.stdout, "registered %s; its token (shown once, keep it secret):\n", args[0])
			_, err = fmt.Fprintln(e.stdout, token)
			return err
		},
	}
	addDBFlag(cmd, &db)
	cmd.Flags().StringVar(&owner, "owner", "", "who registers the bot (up to 64 letters, digits, '_', '-', '.', '@', '+'): games between bots of one owner are unrated")
	addJSONFlag(cmd, &asJSON, `print {"name","token"} as one JSON object`)
	return cmd
}

// botJSON is one row of kaisen ladder table --json.
type botJSON struct {
	Name        string  `json:"name"`
	Rating      float64 `json:"rating"`
	RD          float64 `json:"rd"`
	Volatility  float64 `json:"volatility"`
	Games       int     `json:"games"`
	Wins        int     `json:"wins"`
	Draws       int     `json:"draws"`
	Losses      int     `json:"losses"`
	Opponents   int     `json:"opponents"`   // different bots met in rated games
	Provisional bool    `json:"provisional"` // fewer than ladder.ProvisionalOpponents
}

// knownBot is nil when name is a registered bot, else an error saying so
// with the registered names that look closest.
func knownBot(ctx context.Context, s *ladder.Store, name string) error {
	_, err := s.Rating(ctx, name)
	if !errors.Is(err, ladder.ErrUnknownBot) {
		return err
	}
	bots, terr := s.Table(ctx)
	if terr != nil {
		return errors.Join(err, terr)
	}
	names := make([]string, len(bots))
	for i, b := range bots {
		names[i] = b.Name
	}
	return fmt.Errorf("no bot %q on this ladder%s (kaisen ladder table lists them)", name, spell.DidYouMean(name, names))
}

func newLadderTableCmd(e *env) *cobra.Command {
	var db string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "table",
		Short: "Print every bot with its rating, best first",
		Long: `Print every registered bot with its Glicko-2 rating, deviation (RD: the
rating is within about 2 RD of the truth), volatility and number of rated
games, the best rated first. Bots registered before names were compared
for look-alikes (schema version 2) whose names look like an older bot's
are listed on stderr after the table.`,
		Example: `  kaisen ladder table --db ladder.db
  kaisen ladder table --db ladder.db --json | jq -r '.[0].name'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var clashes []ladder.Clash
			bots, err := readLadder(cmd, db, func(s *ladder.Store, ctx context.Context) ([]ladder.Bot, error) {
				var err error
				if clashes, err = s.Clashes(ctx); err != nil {
					return nil, err
				}
				return s.Table(ctx)
			})
			if err != nil {
				return err
			}
			defer func() {
				for _, c := range clashes {
					fmt.Fprintf(e.stderr, "warning: bot %s\n", c)
				}
			}()
			if asJSON {
				out := []botJSON{}
				for _, b := range bots {
					out = append(out, botJSON{b.Name, b.Rating.R, b.Rating.RD, b.Rating.Vol, b.Games, b.Wins, b.Draws, b.Losses, b.Opponents, b.Provisional()})
				}
				return json.NewEncoder(e.stdout).Encode(out)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "#\tbot\trating\tRD\tgames\tW\tD\tL\t")
			provisional := false
			for i, b := range bots {
				note := ""
				if b.Provisional() {
					note, provisional = "provisional", true
				}
				fmt.Fprintf(tw, "%d\t%s\t%.0f\t%.0f\t%d\t%d\t%d\t%d\t%s\n", i+1, b.Name, b.Rating.R, b.Rating.RD, b.Games, b.Wins, b.Draws, b.Losses, note)
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			if provisional {
				_, err = fmt.Fprintf(e.stdout, "provisional: met fewer than %d different bots in rated games; its rating rests on few opponents and its games count less for theirs (docs/ladder.md, Farming)\n", ladder.ProvisionalOpponents)
			}
			return err
		},
	}
	addDBFlag(cmd, &db)
	addJSONFlag(cmd, &asJSON, "print the table as one JSON array")
	return cmd
}

// playedJSON is one game of kaisen ladder history --json.
type playedJSON struct {
	Game     string    `json:"game"`
	Seat     int       `json:"seat"`
	Opponent string    `json:"opponent"`
	Result   string    `json:"result"` // win, loss, draw
	Reason   string    `json:"reason"`
	Actions  int       `json:"actions"`
	Replay   string    `json:"replay,omitempty"`
	End      time.Time `json:"end"`
	Before   float64   `json:"rating_before"`
	After    float64   `json:"rating_after"`
	Weight   float64   `json:"weight"`            // the game's weight in the bot's update (0 unrated)
	Unrated  string    `json:"unrated,omitempty"` // why it changed no rating: same_owner, same_network
}

func newLadderHistoryCmd(e *env) *cobra.Command {
	var db string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "history NAME",
		Short: "Print a bot's rated games, oldest first, with its rating after each",
		Long: `Print bot NAME's rated games in the order they were rated: the game id (its
result log line and replay file), the opponent, the result, why the game
ended, and the bot's rating before and after, with the game's weight in
it when below 1 (a provisional opponent: docs/ladder.md) or why it was
unrated (same_owner, same_network).`,
		Example: `  kaisen ladder history mybot --db ladder.db
  kaisen ladder history mybot --db ladder.db --json | jq '.[-1].rating_after'`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			games, err := readLadder(cmd, db, func(s *ladder.Store, ctx context.Context) ([]ladder.Played, error) {
				if err := knownBot(ctx, s, args[0]); err != nil {
					return nil, err
				}
				return s.History(ctx, args[0])
			})
			if err != nil {
				return err
			}
			out := []playedJSON{}
			for _, p := range games {
				g := p.Game
				out = append(out, playedJSON{g.ID, p.Seat, p.Opponent(), p.Result(), g.Reason, g.Actions, g.Replay, g.End, p.Before.R, p.After.R,
					p.Weight, g.Unrated})
			}
			if asJSON {
				return json.NewEncoder(e.stdout).Encode(out)
			}
			tw := tabwriter.NewWriter(e.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "game\topponent\tresult\treason\tactions\trating")
			for _, p := range out {
				note := ""
				switch {
				case p.Unrated != "":
					note = " (unrated: " + p.Unrated + ")"
				case p.Weight < 1:
					note = fmt.Sprintf(" (weight %.3g)", p.Weight)
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%.0f -> %.0f%s\n", p.Game, p.Opponent, p.Result, p.Reason, p.Actions, p.Before, p.After, note)
			}
			return tw.Flush()
		},
	}
	addDBFlag(cmd, &db)
	addJSONFlag(cmd, &asJSON, "print the games as one JSON array")
	return cmd
}

// ratedJSON is one game of kaisen ladder export --json.
type ratedJSON struct {
	Seq     int64        `json:"seq"`
	Game    string       `json:"game"`
	Bots    [2]string    `json:"bots"`
	First   int          `json:"first"`
	Seed    uint64       `json:"seed"`
	Outcome string       `json:"outcome"`
	Winner  int          `json:"winner"`
	Reason  string       `json:"reason"`
	Actions int          `json:"actions"`
	Replay  string       `json:"replay,omitempty"`
	Start   time.Time    `json:"start"`
	End     time.Time    `json:"end"`
	Before  [2]ratingOut `json:"before"`
	After   [2]ratingOut `json:"after"`
	Weights [2]float64   `json:"weights"`           // the game's weight in each seat's update (0 unrated)
	Unrated string       `json:"unrated,omitempty"` // why it changed no rating
}

// ratingOut is a Glicko-2 rating in export output.
type ratingOut struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

func newLadderExportCmd(e *env) *cobra.Command {
	var db string
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "export",
		Short: "Print every rated game with both bots' ratings before and after (CSV or JSON)",
		Long: `Print every rated game in the order it was rated, for analysis: its id (the
result log's and the replay file's), both bots, who moved first, the seed,
outcome, winner seat (-1 on a draw), reason, actions, replay file, start and
end, each seat's Glicko-2 rating, RD and volatility before and after, the
game's weight in each seat's update (below 1 against a provisional
opponent, 0 when unrated) and why it was unrated ("" when rated).
CSV with a header line by default; --json prints one JSON array.`,
		Example: `  kaisen ladder export --db ladder.db > games.csv
  kaisen ladder export --db ladder.db --json | jq '.[] | select(.reason != "sunk")'`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			games, err := readLadder(cmd, db, (*ladder.Store).Export)
			if err != nil {
				return err
			}
			if asJSON {
				out := []ratedJSON{}
				for _, r := range games {
					g := r.Game
					j := ratedJSON{Seq: r.Seq, Game: g.ID, Bots: g.Bots, First: g.First, Seed: g.Seed, Outcome: g.Outcome, Winner: g.Winner,
						Reason: g.Reason, Actions: g.Actions, Replay: g.Replay, Start: g.Start, End: g.End, Weights: r.Weights, Unrated: g.Unrated}
					for i := range 2 {
						j.Before[i] = ratingOut{r.Before[i].R, r.Before[i].RD, r.Before[i].Vol}
						j.After[i] = ratingOut{r.After[i].R, r.After[i].RD, r.After[i].Vol}
					}
					out = append(out, j)
				}
				return json.NewEncoder(e.stdout).Encode(out)
			}
			return writeExportCSV(e.stdout, games)
		},
	}
	addDBFlag(cmd, &db)
	addJSONFlag(cmd, &asJSON, "print the games as one JSON array")
	return cmd
}

// exportHeader is the CSV header of kaisen ladder export.
var exportHeader = []string{"seq", "game", "bot0", "bot1", "first", "seed", "outcome", "winner", "reason", "actions", "replay", "start", "end",
	"rating0_before", "rd0_before", "volatility0_before", "rating0_after", "rd0_after", "volatility0_after",
	"rating1_before", "rd1_before", "volatility1_before", "rating1_after", "rd1_after", "volatility1_after",
	"weight0", "weight1", "unrated"}

// writeExportCSV writes games as CSV: exportHeader, then one row per game
// (floats in full precision, times RFC 3339 with milliseconds).
func writeExportCSV(w io.Writer, games []ladder.Rated) error {
	cw := csv.NewWriter(w)
	_ = cw.Write(exportHeader)
	f := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, r := range games {
		g := r.Game
		row := []string{strconv.FormatInt(r.Seq, 10), g.ID, g.Bots[0], g.Bots[1], strconv.Itoa(g.First), strconv.FormatUint(g.Seed, 10),
			g.Outcome, strconv.Itoa(g.Winner), g.Reason, strconv.Itoa(g.Actions), g.Replay,
			g.Start.Format(time.RFC3339Nano), g.End.Format(time.RFC3339Nano)}
		for i := range 2 {
			b, a := r.Before[i], r.After[i]
			row = append(row, f(b.R), f(b.RD), f(b.Vol), f(a.R), f(a.RD), f(a.Vol))
		}
		row = append(row, f(r.Weights[0]), f(r.Weights[1]), g.Unrated)
		_ = cw.Write(row)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}
