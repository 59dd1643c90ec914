package ladder

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Outcomes of a rated game (Game.Outcome).
const (
	OutcomeWin  = "win"
	OutcomeDraw = "draw"
)

// Game is a decided rated game.
type Game struct {
	ID      string    // the server's game id (result log, replay)
	Bots    [2]string // the bots in seats 0 and 1
	First   int       // the seat that moved first
	Seed    uint64    // the game's seed
	Outcome string    // OutcomeWin or OutcomeDraw
	Winner  int       // the winning seat, -1 on a draw
	Reason  string    // why it ended (the result log's reason)
	Actions int
	Replay  string // the replay's file name, "" when none
	Start   time.Time
	End     time.Time
	// Networks are the networks the seats' bots connected from (the
	// rated listener's /24 or /48, "" unknown): two equal ones make the
	// game unrated. RecordGame reads them and does not store them.
	Networks [2]string
	// Unrated is why the stored game changed no rating ("" when it did;
	// UnratedSameOwner, UnratedSameNetwork): set by RecordGame.
	Unrated string
}

// score is seat 0's Glicko score of g: 1, 0.5 or 0.
func (g *Game) score() (float64, error) {
	switch {
	case g.Outcome == OutcomeWin && g.Winner == 0:
		return 1, nil
	case g.Outcome == OutcomeWin && g.Winner == 1:
		return 0, nil
	case g.Outcome == OutcomeDraw && g.Winner == -1:
		return 0.5, nil
	}
	return 0, fmt.Errorf("ladder: game %s: outcome %q with winner %d", g.ID, g.Outcome, g.Winner)
}

// RecordGame rates g and stores it, its two rating changes and both bots'
// new ratings in one transaction: all of it or nothing. A game already
// stored (same id: a retry after a crash) is not counted again; recorded
// is then false.
//
// The farming defences (docs/ladder.md) apply here: a game between two
// bots of one owner, or from one network (g.Networks), is stored unrated
// (both ratings unchanged, g.Unrated says why); a rated one counts in
// each bot's update as Weight of a game, from how many bots its opponent
// has met and how often the two have met.
func (s *Store) RecordGame(ctx context.Context, g Game) (recorded bool, err error) {
	score, err := g.score()
	if err != nil {
		return false, err
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("ladder: record %s: %w", g.ID, err)
	}
	defer func() {
		if err != nil || !recorded {
			_ = tx.Rollback()
		}
	}()
	var one int
	switch err := tx.QueryRowContext(ctx, `SELECT 1 FROM games WHERE id = ?`, g.ID).Scan(&one); {
	case err == nil:
		return false, nil // stored before: counted once
	case !errors.Is(err, sql.ErrNoRows):
		return false, fmt.Errorf("ladder: record %s: %w", g.ID, err)
	}
	var before [2]Rating
	var owners [2]string
	var opponents [2]int
	for i, name := range g.Bots {
		err := tx.QueryRowContext(ctx, `SELECT rating, rd, volatility, owner, opponents FROM bots WHERE name = ?`, name).
			Scan(&before[i].R, &before[i].RD, &before[i].Vol, &owners[i], &opponents[i])
		if errors.Is(err, sql.ErrNoRows) {
			return false, fmt.Errorf("%w: %s (game %s)", ErrUnknownBot, name, g.ID)
		}
		if err != nil {
			return false, fmt.Errorf("ladder: record %s: %w", g.ID, err)
		}
	}
	g.Unrated = unratedReason(&g, owners)
	var meetings int
	if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM games WHERE unrated = '' AND ((bot0 = ? AND bot1 = ?) OR (bot0 = ? AND bot1 = ?))`,
		g.Bots[0], g.Bots[1], g.Bots[1], g.Bots[0]).Scan(&meetings); err != nil {
		return false, fmt.Errorf("ladder: record %s: %w", g.ID, err)
	}
	after, weights := before, [2]float64{}
	var met [2]int // added to each bot's opponents
	if g.Unrated == "" {
		weights = [2]float64{Weight(opponents[1], meetings), Weight(opponents[0], meetings)}
		after[0], after[1] = UpdateGameWeighted(before[0], before[1], score, weights[0], weights[1])
		if meetings == 0 {
			var established int
			if err := tx.QueryRowContext(ctx, `SELECT COUNT(*) FROM bots WHERE opponents >= ?`, ProvisionalOpponents).Scan(&established); err != nil {
				return false, fmt.Errorf("ladder: record %s: %w", g.ID, err)
			}
			met = metCounts(opponents, established)
		}
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO games (id, seq, bot0, bot1, first_seat, seed, outcome, winner, reason, actions, replay, started_at, ended_at, unrated)
		VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM games), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		g.ID, g.Bots[0], g.Bots[1], g.First, strconv.FormatUint(g.Seed, 10), g.Outcome, g.Winner, g.Reason, g.Actions, g.Replay,
		g.Start.UnixMilli(), g.End.UnixMilli(), g.Unrated); err != nil {
		return false, fmt.Errorf("ladder: record %s: %w", g.ID, err)
	}
	for i, name := range g.Bots {
		b, a := before[i], after[i]
		if _, err := tx.ExecContext(ctx, `INSERT INTO rating_changes (game_id, seat, bot, rating_before, rd_before, volatility_before,
			rating_after, rd_after, volatility_after, weight) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			g.ID, i, name, b.R, b.RD, b.Vol, a.R, a.RD, a.Vol, weights[i]); err != nil {
			return false, fmt.Errorf("ladder: record %s: %w", g.ID, err)
		}
		if _, err := tx.ExecContext(ctx, `UPDATE bots SET rating = ?, rd = ?, volatility = ?, games = games + 1, opponents = opponents + ? WHERE name = ?`,
			a.R, a.RD, a.Vol, met[i], name); err != nil {
			return false, fmt.Errorf("ladder: record %s: %w", g.ID, err)
		}
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("ladder: record %s: commit: %w", g.ID, err)
	}
	return true, nil
}

// Played is one game in a bot's history, with what it did to its rating.
type Played struct {
	Game   Game
	Seat   int // the bot's seat
	Before Rating
	After  Rating
	Weight float64 // the game's weight in the bot's update (Weight; 0 unrated)
}

// Result is the game's result for the bot: "win", "loss" or "draw".
func (p Played) Result() string {
	switch p.Game.Winner {
	case p.Seat:
		return "win"
	case 1 - p.Seat:
		return "loss"
	}
	return "draw"
}

// Opponent is the bot the game was played against.
func (p Played) Opponent() string { return p.Game.Bots[1-p.Seat] }

// History lists bot name's games, oldest first.
func (s *Store) History(ctx context.Context, name string) ([]Played, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+gameColumns+`, c.seat, `+changeColumns("c")+`
		FROM games g JOIN rating_changes c ON c.game_id = g.id
		WHERE c.bot = ? ORDER BY g.seq`, name)
	if err != nil {
		return nil, fmt.Errorf("ladder: history of %s: %w", name, err)
	}
	defer rows.Close()
	var out []Played
	for rows.Next() {
		var p Played
		if err := scanGame(rows, &p.Game, &p.Seat, &p.Before.R, &p.Before.RD, &p.Before.Vol, &p.After.R, &p.After.RD, &p.After.Vol, &p.Weight); err != nil {
			return nil, fmt.Errorf("ladder: history of %s: %w", name, err)
		}
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ladder: history of %s: %w", name, err)
	}
	return out, nil
}

// Recompute replays every stored game in the order it was rated, from new
// ratings, with the weights stored with its rating changes (an unrated
// game's are 0: nothing changes), and returns each bot's rating: what the
// bots table must hold. The weights themselves are checked against Weight
// by TestWeightsAsStored.
func (s *Store) Recompute(ctx context.Context) (map[string]Rating, error) {
	out := map[string]Rating{}
	names, err := s.db.QueryContext(ctx, `SELECT name FROM bots`)
	if err != nil {
		return nil, fmt.Errorf("ladder: recompute: %w", err)
	}
	for names.Next() {
		var n string
		if err := names.Scan(&n); err != nil {
			names.Close()
			return nil, fmt.Errorf("ladder: recompute: %w", err)
		}
		out[n] = NewRating()
	}
	err = names.Err()
	names.Close()
	if err != nil {
		return nil, fmt.Errorf("ladder: recompute: %w", err)
	}
	rows, err := s.db.QueryContext(ctx, `SELECT g.id, g.bot0, g.bot1, g.outcome, g.winner, c0.weight, c1.weight
		FROM games g
		JOIN rating_changes c0 ON c0.game_id = g.id AND c0.seat = 0
		JOIN rating_changes c1 ON c1.game_id = g.id AND c1.seat = 1
		ORDER BY g.seq`)
	if err != nil {
		return nil, fmt.Errorf("ladder: recompute: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var g Game
		var w [2]float64
		if err := rows.Scan(&g.ID, &g.Bots[0], &g.Bots[1], &g.Outcome, &g.Winner, &w[0], &w[1]); err != nil {
			return nil, fmt.Errorf("ladder: recompute: %w", err)
		}
		score, err := g.score()
		if err != nil {
			return nil, err
		}
		out[g.Bots[0]], out[g.Bots[1]] = UpdateGameWeighted(out[g.Bots[0]], out[g.Bots[1]], score, w[0], w[1])
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ladder: recompute: %w", err)
	}
	return out, nil
}

// gameColumns are the columns of games (as g) that scanGame reads.
const gameColumns = `g.id, g.bot0, g.bot1, g.first_seat, g.seed, g.outcome, g.winner, g.reason, g.actions, g.replay, g.started_at, g.ended_at, g.unrated`

// changeColumns are the rating columns of rating_changes as alias, in the
// order Rating before, Rating after, weight.
func changeColumns(alias string) string {
	var cols []string
	for _, c := range []string{"rating_before", "rd_before", "volatility_before", "rating_after", "rd_after", "volatility_after", "weight"} {
		cols = append(cols, alias+"."+c)
	}
	return strings.Join(cols, ", ")
}

// scanGame reads gameColumns into g, then the rest of the row into more.
func scanGame(rows *sql.Rows, g *Game, more ...any) error {
	var seed string
	var start, end int64
	dest := append([]any{&g.ID, &g.Bots[0], &g.Bots[1], &g.First, &seed, &g.Outcome, &g.Winner, &g.Reason, &g.Actions, &g.Replay,
		&start, &end, &g.Unrated}, more...)
	if err := rows.Scan(dest...); err != nil {
		return err
	}
	var err error
	if g.Seed, err = strconv.ParseUint(seed, 10, 64); err != nil {
		return fmt.Errorf("game %s: seed: %w", g.ID, err)
	}
	g.Start, g.End = time.UnixMilli(start).UTC(), time.UnixMilli(end).UTC()
	return nil
}

// Rated is one stored game with what it did to both seats' ratings.
type Rated struct {
	Seq     int64 // its place in the order the games were rated, from 1
	Game    Game
	Before  [2]Rating // seat 0's and seat 1's ratings before the game
	After   [2]Rating
	Weights [2]float64 // the game's weight in each seat's update (Weight; 0 unrated)
}

// Export lists every stored game in the order it was rated, with both
// seats' ratings before and after: the whole ladder, for analysis.
func (s *Store) Export(ctx context.Context) ([]Rated, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT `+gameColumns+`, g.seq, `+changeColumns("c0")+`, `+changeColumns("c1")+`
		FROM games g
		JOIN rating_changes c0 ON c0.game_id = g.id AND c0.seat = 0
		JOIN rating_changes c1 ON c1.game_id = g.id AND c1.seat = 1
		ORDER BY g.seq`)
	if err != nil {
		return nil, fmt.Errorf("ladder: export: %w", err)
	}
	defer rows.Close()
	var out []Rated
	for rows.Next() {
		var r Rated
		more := []any{&r.Seq}
		for i := range 2 {
			more = append(more, &r.Before[i].R, &r.Before[i].RD, &r.Before[i].Vol, &r.After[i].R, &r.After[i].RD, &r.After[i].Vol, &r.Weights[i])
		}
		if err := scanGame(rows, &r.Game, more...); err != nil {
			return nil, fmt.Errorf("ladder: export: %w", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ladder: export: %w", err)
	}
	return out, nil
}
