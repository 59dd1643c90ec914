package jobs

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"

	"github.com/kaisen-ai/kaisen/arena"
	bsbelief "github.com/kaisen-ai/kaisen/belief/battleship"
	"github.com/kaisen-ai/kaisen/game/battleship"
	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/games"
	"github.com/kaisen-ai/kaisen/internal/config"
	"github.com/kaisen-ai/kaisen/internal/roster"
	bsplayers "github.com/kaisen-ai/kaisen/players/battleship"
	"github.com/kaisen-ai/kaisen/shots"
	"github.com/kaisen-ai/kaisen/tournament"
)

// ErrSpec is wrapped by the error of settings that name no player, no game
// or a game without the tool asked for.
var ErrSpec = errors.New("jobs: bad settings")

// Seat is one side of a match: the AI's name and its settings as YAML
// text ("" = its built-in settings).
type Seat struct {
	Name    string `json:"name"`
	Weights string `json:"weights,omitempty"`
}

// entrant is the seat as the registry takes it; label names the weights
// in errors.
func (s Seat) entrant(label string) games.Entrant {
	return games.Entrant{Name: s.Name, Load: textLoader(label, s.Weights)}
}

// textLoader loads YAML text as config.File loads a file; "" is nil (the
// built-in settings).
func textLoader(name, text string) roster.Loader {
	if text == "" {
		return nil
	}
	return func(into any) error { return config.LoadString(name, text, into) }
}

// Rules are the match rules of YAML text: arena.DefaultConfig overlaid by
// text ("" = the defaults), its game one of the registry's; name labels
// errors.
func Rules(name, text string) (arena.Config, error) {
	cfg := arena.DefaultConfig()
	if text == "" {
		return cfg, nil
	}
	if err := config.LoadString(name, text, &cfg); err != nil {
		return cfg, err
	}
	if _, err := games.Lookup(cfg.Game); err != nil {
		return cfg, fmt.Errorf("config: %s: %w", name, err)
	}
	return cfg, nil
}

// gameOf is the game of settings naming game under rules text: game must
// be the rules' game when there are rules.
func gameOf(game, rules string, cfg arena.Config) (games.Game, error) {
	if rules != "" && game != cfg.Game {
		return games.Game{}, fmt.Errorf("%w: game %q but the rules are of the %q game", ErrSpec, game, cfg.Game)
	}
	return games.Lookup(game)
}

// Match is a match between two AIs: kaisen match's settings.
type Match struct {
	Game  string `json:"game"`
	P1    Seat   `json:"p1"`
	P2    Seat   `json:"p2"`
	Rules string `json:"rules,omitempty"` // YAML text of arena.Config ("" = the defaults)
	Audit bool   `json:"audit,omitempty"` // audit every game with the endgame solver (submarine)
}

// Validate checks what can be checked without the registry: a game and
// two players named.
func (m *Match) Validate() error {
	if m.Game == "" || m.P1.Name == "" || m.P2.Name == "" {
		return fmt.Errorf("%w: a match names its game and both players", ErrSpec)
	}
	return nil
}

// Arena is the match through the games registry: its family and audit
// (the caller sets the games, seed and workers, or Shard.Match does).
func (m *Match) Arena() (arena.Match, error) {
	if err := m.Validate(); err != nil {
		return arena.Match{}, err
	}
	cfg, err := Rules("rules", m.Rules)
	if err != nil {
		return arena.Match{}, err
	}
	g, err := gameOf(m.Game, m.Rules, cfg)
	if err != nil {
		return arena.Match{}, err
	}
	fam, err := g.Family(cfg, m.P1.entrant("p1 weights"), m.P2.entrant("p2 weights"))
	if err != nil {
		return arena.Match{}, err
	}
	if _, sub := fam.(*arena.Submarine); m.Audit && !sub {
		return arena.Match{}, fmt.Errorf("%w: the audit is for the submarine game only", ErrSpec)
	}
	return arena.Match{Family: fam, Audit: m.Audit}, nil
}

// Entry is one entrant of a tournament: its name in the results (NAME or
// NAME@LABEL, the AI being NAME) and its settings as YAML text.
type Entry struct {
	Entry   string `json:"entry"`
	Weights string `json:"weights,omitempty"`
}

// AI is the entry's AI: its name before any "@".
func (e Entry) AI() string {
	name, _, _ := strings.Cut(e.Entry, "@")
	return name
}

// Tournament is a round robin: kaisen tournament's settings.
type Tournament struct {
	Game      string  `json:"game"`
	Entries   []Entry `json:"entries"`
	Rules     string  `json:"rules,omitempty"` // YAML text of arena.Config ("" = the defaults)
	Bootstrap int     `json:"bootstrap"`       // resamples of the rating intervals
}

// Validate checks what can be checked without the registry: a game, at
// least two entries, each naming an AI.
func (t *Tournament) Validate() error {
	if t.Game == "" || len(t.Entries) < 2 {
		return fmt.Errorf("%w: a tournament names its game and at least two entries", ErrSpec)
	}
	for _, e := range t.Entries {
		if e.AI() == "" {
			return fmt.Errorf("%w: tournament entry %q names no AI", ErrSpec, e.Entry)
		}
	}
	return nil
}

// Config is the tournament through the games registry, of games games per
// pair with seed, workers games at once and forfeits logged to log.
func (t *Tournament) Config(gamesPerPair int, seed uint64, workers int, log *slog.Logger) (tournament.Config, error) {
	if err := t.Validate(); err != nil {
		return tournament.Config{}, err
	}
	cfg, err := Rules("rules", t.Rules)
	if err != nil {
		return tournament.Config{}, err
	}
	g, err := gameOf(t.Game, t.Rules, cfg)
	if err != nil {
		return tournament.Config{}, err
	}
	if !g.Has(games.ToolTournament) {
		return tournament.Config{}, fmt.Errorf("%w: the %s game has no tournament", ErrSpec, g.Name)
	}
	names := make([]string, len(t.Entries))
	entrants := make([]games.Entrant, len(t.Entries))
	for i, e := range t.Entries {
		names[i] = e.Entry
		entrants[i] = games.Entrant{Name: e.AI(), Load: textLoader(e.Entry+" weights", e.Weights)}
	}
	tc := TournamentOf(g, cfg, names, entrants)
	tc.Games, tc.Seed, tc.Workers, tc.Bootstrap, tc.Log = gamesPerPair, seed, workers, t.Bootstrap, log
	if err := tc.Validate(); err != nil {
		return tournament.Config{}, err
	}
	return tc, nil
}

// TournamentOf is the round robin of game g under the rules cfg between
// entrants, named names in the results: its game, players and the family
// of every pair from the registry (the caller sets the games, seed,
// workers, bootstrap and log). kaisen tournament builds its local run
// with it, Tournament.Config a queued shard's.
func TournamentOf(g games.Game, cfg arena.Config, names []string, entrants []games.Entrant) tournament.Config {
	return tournament.Config{Game: g.Name, Players: names,
		Family: func(i, j int) (arena.Family, error) { return g.Family(cfg, entrants[i], entrants[j]) }}
}

// Pairs is the number of pairs of the tournament's round robin.
func (t *Tournament) Pairs() int { return len(t.Entries) * (len(t.Entries) - 1) / 2 }

// Shots is one Battleship AI shooting alone at placed fleets: kaisen
// shots's settings.
type Shots struct {
	Player  string `json:"player"`
	Weights string `json:"weights,omitempty"`
	Width   int    `json:"width"`
	Height  int    `json:"height"`
	Fleet   []int  `json:"fleet"`
	Placer  string `json:"placer"` // a placement style (bsbelief.Styles)
}

// Validate checks what can be checked without building the rules: a
// player and a placer named.
func (s *Shots) Validate() error {
	if s.Player == "" || s.Placer == "" {
		return fmt.Errorf("%w: a shots run names its player and placer", ErrSpec)
	}
	return nil
}

// Config is the shots run of seed with workers games at once (its games
// not set: Shard.Shots sets them).
func (s *Shots) Config(seed uint64, workers int) (shots.Config, error) {
	if err := s.Validate(); err != nil {
		return shots.Config{}, err
	}
	board, err := grid.NewBoard(s.Width, s.Height, nil)
	if err != nil {
		return shots.Config{}, fmt.Errorf("shots: %w", err)
	}
	rules, err := battleship.NewRules(board, s.Fleet)
	if err != nil {
		return shots.Config{}, fmt.Errorf("shots: %w", err)
	}
	run := shots.Config{Rules: rules, Seed: seed, Workers: workers}
	if run.Player, err = bsplayers.New(s.Player, rules, textLoader("weights", s.Weights)); err != nil {
		return shots.Config{}, fmt.Errorf("shots: player: %w", err)
	}
	p, err := bsbelief.NewStylePlacer(rules, s.Placer)
	if err != nil {
		return shots.Config{}, fmt.Errorf("shots: placer: %w", err)
	}
	run.Placer = p.Place
	return run, nil
}
