package shard

import (
	"fmt"
	"reflect"
	"slices"

	"github.com/kaisen-ai/kaisen/arena"
	subrecord "github.com/kaisen-ai/kaisen/game/submarine/record"
	"github.com/kaisen-ai/kaisen/tournament"
)

// Hist is an exact histogram of small integers (game lengths, shots per
// game): (value, count) pairs, values strictly ascending, counts at least
// 1. Merging histograms is exact, so every order statistic of the merged
// run (median, p90, max) and every sum is the single run's.
type Hist [][2]int64

// HistOf counts xs.
func HistOf[T int | int32](xs []T) Hist {
	s := slices.Clone(xs)
	slices.Sort(s)
	var h Hist
	for _, x := range s {
		if n := len(h); n > 0 && h[n-1][0] == int64(x) {
			h[n-1][1]++
		} else {
			h = append(h, [2]int64{int64(x), 1})
		}
	}
	return h
}

// Validate checks the histogram's shape.
func (h Hist) Validate() error {
	for i, e := range h {
		if e[1] < 1 {
			return fmt.Errorf("%w: histogram count %d of value %d", ErrFormat, e[1], e[0])
		}
		if i > 0 && e[0] <= h[i-1][0] {
			return fmt.Errorf("%w: histogram values not ascending at %d", ErrFormat, e[0])
		}
	}
	return nil
}

// Total is the number of values counted.
func (h Hist) Total() int64 {
	var n int64
	for _, e := range h {
		n += e[1]
	}
	return n
}

// Merge returns h + o.
func (h Hist) Merge(o Hist) Hist {
	out := make(Hist, 0, len(h)+len(o))
	i, j := 0, 0
	for i < len(h) || j < len(o) {
		switch {
		case j == len(o) || i < len(h) && h[i][0] < o[j][0]:
			out = append(out, h[i])
			i++
		case i == len(h) || o[j][0] < h[i][0]:
			out = append(out, o[j])
			j++
		default:
			out = append(out, [2]int64{h[i][0], h[i][1] + o[j][1]})
			i, j = i+1, j+1
		}
	}
	return out
}

// Expand returns the counted values, sorted.
func Expand[T int | int32](h Hist) []T {
	out := make([]T, 0, h.Total())
	for _, e := range h {
		for range e[1] {
			out = append(out, T(e[0]))
		}
	}
	return out
}

// Match is the mergeable result of a shard of kaisen match: the integer
// tallies of arena.Summary and the histogram of game lengths.
type Match struct {
	Game       string `json:"game"`
	P1         string `json:"p1"`
	P2         string `json:"p2"`
	Games      int    `json:"games"`
	P1Wins     int    `json:"p1_wins"`
	P2Wins     int    `json:"p2_wins"`
	Draws      int    `json:"draws"`
	P1Forfeits int    `json:"p1_forfeits"`
	P2Forfeits int    `json:"p2_forfeits"`
	Seat0Wins  int    `json:"seat0_wins"`
	Actions    int64  `json:"actions"`
	P1Shots    int64  `json:"p1_shots"`
	P2Shots    int64  `json:"p2_shots"`
	Lengths    Hist   `json:"lengths"` // actions per game
	// Audit is the solver audit of the shard's games (kaisen match
	// --audit), nil without one. A file that has it is of format version 2.
	Audit *Audit `json:"audit,omitempty"`
}

// Audit is the mergeable solver audit of a shard: the rules its actions
// and positions are read under, and the arena's audit of its games (its
// lists hold whole positions and game indices, so merging them is exact).
type Audit struct {
	Rules   subrecord.Rules    `json:"rules"`
	Summary arena.AuditSummary `json:"summary"` // Go's default encoding; Summary.Rules is not written
}

// MatchOf is the tally of a match summary.
func MatchOf(s *arena.Summary) Match {
	m := Match{Game: s.Game, P1: s.P1, P2: s.P2, Games: s.Games, P1Wins: s.P1Wins, P2Wins: s.P2Wins,
		Draws: s.Draws, P1Forfeits: s.P1Forfeits, P2Forfeits: s.P2Forfeits, Seat0Wins: s.Seat0Wins,
		Actions: s.Actions, P1Shots: s.P1Shots, P2Shots: s.P2Shots, Lengths: HistOf(s.Lengths)}
	if s.Audit != nil {
		m.Audit = &Audit{Rules: subrecord.RulesOf(s.Audit.Rules), Summary: *s.Audit}
	}
	return m
}

// formatVersion is the format version a file holding m needs: 2 with an
// audit (which a version-1 reader would silently drop), else 1.
func (m Match) formatVersion() int {
	if m.Audit != nil {
		return 2
	}
	return 1
}

// check checks a tally against itself.
func (m *Match) check() error {
	if err := m.Lengths.Validate(); err != nil {
		return err
	}
	if m.Lengths.Total() != int64(m.Games) || m.P1Wins+m.P2Wins+m.Draws != m.Games {
		return fmt.Errorf("%w: match tally of %d games counts %d lengths and %d results", ErrFormat,
			m.Games, m.Lengths.Total(), m.P1Wins+m.P2Wins+m.Draws)
	}
	if m.Audit == nil {
		return nil
	}
	a := &m.Audit.Summary
	if a.Games < 0 || a.Games > m.Games-m.P1Forfeits-m.P2Forfeits || a.Known < 0 || a.Known > a.Games {
		return fmt.Errorf("%w: audit of %d games (%d known) in a tally of %d games, %d forfeited", ErrFormat,
			a.Games, a.Known, m.Games, m.P1Forfeits+m.P2Forfeits)
	}
	for pl := range a.Players {
		n := 0
		for _, c := range a.Players[pl].Classes {
			n += c
		}
		if n != a.Games {
			return fmt.Errorf("%w: audit classes of p%d count %d games, not %d", ErrFormat, pl+1, n, a.Games)
		}
		for _, l := range [][]arena.AuditedPoint{a.Players[pl].Forced, a.Players[pl].Missed} {
			for _, pt := range l {
				if pt.Seat != 0 && pt.Seat != 1 || pt.Point.Turn != 0 && pt.Point.Turn != 1 {
					return fmt.Errorf("%w: audit of game %d: seat %d, turn %d (want 0 or 1)", ErrFormat, pt.Index, pt.Seat, pt.Point.Turn)
				}
			}
		}
	}
	for _, l := range [][]arena.AuditedGame{a.Thrown, a.Unproved} {
		for _, g := range l {
			if g.Player != "p1" && g.Player != "p2" {
				return fmt.Errorf("%w: audit of game %d: player %q (want p1 or p2)", ErrFormat, g.Index, g.Player)
			}
		}
	}
	return nil
}

// MergeMatch adds up the shards' tallies into the Summary the whole match
// gives (without Seed, Requested, Workers and Elapsed, which the caller
// knows). The shards must be of the same game and players.
func MergeMatch(parts []Match) (arena.Summary, error) {
	var s arena.Summary
	var lengths Hist
	for i := range parts {
		p := &parts[i]
		if err := p.check(); err != nil {
			return s, err
		}
		if i > 0 && (p.Game != s.Game || p.P1 != s.P1 || p.P2 != s.P2) {
			return s, fmt.Errorf("%w: %s %s vs %s, not %s %s vs %s", ErrMismatch, p.Game, p.P1, p.P2, s.Game, s.P1, s.P2)
		}
		if err := mergeAudit(&s, p, i); err != nil {
			return s, err
		}
		s.Game, s.P1, s.P2 = p.Game, p.P1, p.P2
		s.Games += p.Games
		s.P1Wins += p.P1Wins
		s.P2Wins += p.P2Wins
		s.Draws += p.Draws
		s.P1Forfeits += p.P1Forfeits
		s.P2Forfeits += p.P2Forfeits
		s.Seat0Wins += p.Seat0Wins
		s.Actions += p.Actions
		s.P1Shots += p.P1Shots
		s.P2Shots += p.P2Shots
		lengths = lengths.Merge(p.Lengths)
	}
	if s.Games > 0 {
		s.Mean = float64(s.Actions) / float64(s.Games)
	}
	s.Lengths = Expand[int32](lengths)
	s.P90 = arena.Quantile(s.Lengths, 0.9)
	if s.Audit != nil {
		s.Audit.Finish(s.P1, s.P2)
	}
	return s, nil
}

// mergeAudit adds part i's audit to s's: every part has one, under the
// same rules, or none has.
func mergeAudit(s *arena.Summary, p *Match, i int) error {
	switch {
	case i > 0 && (p.Audit == nil) != (s.Audit == nil):
		return fmt.Errorf("%w: some shards are audited (--audit), others not", ErrMismatch)
	case p.Audit == nil:
		return nil
	}
	if s.Audit == nil {
		r, err := p.Audit.Rules.Build()
		if err != nil {
			return fmt.Errorf("%w: audit rules: %w", ErrFormat, err)
		}
		s.Audit = &arena.AuditSummary{Rules: r}
	} else if !reflect.DeepEqual(subrecord.RulesOf(s.Audit.Rules), p.Audit.Rules) {
		return fmt.Errorf("%w: the shards' audits are under different rules", ErrMismatch)
	}
	s.Audit.Merge(&p.Audit.Summary)
	return nil
}

// Tournament is the mergeable result of a shard of kaisen tournament: the
// records of the pairs it played games of.
type Tournament struct {
	Players   []string               `json:"players"`
	Games     int                    `json:"games_per_pair"`
	Bootstrap int                    `json:"bootstrap"`
	Pairs     []tournament.ShardPair `json:"pairs"`
}

// MergeTournament adds up the shards' pair records and rates them as the
// whole tournament does.
func MergeTournament(parts []Tournament, seed uint64) (tournament.Result, error) {
	if len(parts) == 0 {
		return tournament.Result{}, fmt.Errorf("%w: no shards", ErrMismatch)
	}
	first := &parts[0]
	n := len(first.Players)
	pairs := make([]tournament.Pair, n*(n-1)/2)
	seen := make([]bool, len(pairs))
	for _, p := range parts {
		if !slices.Equal(p.Players, first.Players) || p.Games != first.Games || p.Bootstrap != first.Bootstrap {
			return tournament.Result{}, fmt.Errorf("%w: tournament of %v (%d games per pair, bootstrap %d), not %v (%d, %d)",
				ErrMismatch, p.Players, p.Games, p.Bootstrap, first.Players, first.Games, first.Bootstrap)
		}
		for _, sp := range p.Pairs {
			if sp.Index < 0 || sp.Index >= len(pairs) {
				return tournament.Result{}, fmt.Errorf("%w: pair %d of %d", ErrFormat, sp.Index, len(pairs))
			}
			q := &pairs[sp.Index]
			if seen[sp.Index] && (q.A != sp.A || q.B != sp.B || q.Seed != sp.Seed) {
				return tournament.Result{}, fmt.Errorf("%w: pair %d is %s-%s in one shard, %s-%s in another", ErrMismatch, sp.Index, q.A, q.B, sp.A, sp.B)
			}
			seen[sp.Index] = true
			q.A, q.B, q.Seed = sp.A, sp.B, sp.Seed
			q.Wins += sp.Wins
			q.Draws += sp.Draws
			q.Losses += sp.Losses
		}
	}
	for k, q := range pairs {
		if !seen[k] || q.Wins+q.Draws+q.Losses != first.Games {
			return tournament.Result{}, fmt.Errorf("%w: pair %d (%s-%s) has %d of %d games", ErrMismatch, k, q.A, q.B,
				q.Wins+q.Draws+q.Losses, first.Games)
		}
	}
	return tournament.FromPairs(first.Players, first.Games, seed, first.Bootstrap, pairs)
}

// Shots is the mergeable result of a shard of kaisen shots: the histogram
// of shots per game, the density AI's move counts and the decision times'
// percentiles (timing only: merged as the slowest shard's).
type Shots struct {
	Player    string `json:"player"`
	Width     int    `json:"width"`
	Height    int    `json:"height"`
	Fleet     string `json:"fleet"`
	Shots     Hist   `json:"shots"`
	Exact     int    `json:"exact"`
	Sampled   int    `json:"sampled"`
	Heuristic int    `json:"heuristic"`
	Lookahead int    `json:"lookahead,omitempty"` // of the exact moves, decided by lookahead
	Moves     int64  `json:"moves"`               // shots timed
	P50NS     int64  `json:"p50_ns"`              // timing
	P99NS     int64  `json:"p99_ns"`              // timing
}

// MergeShots adds up the shards' results.
func MergeShots(parts []Shots) (Shots, error) {
	var s Shots
	for i, p := range parts {
		if err := p.Shots.Validate(); err != nil {
			return s, err
		}
		if i > 0 && (p.Player != s.Player || p.Width != s.Width || p.Height != s.Height || p.Fleet != s.Fleet) {
			return s, fmt.Errorf("%w: %s on %dx%d fleet %s, not %s on %dx%d fleet %s", ErrMismatch,
				p.Player, p.Width, p.Height, p.Fleet, s.Player, s.Width, s.Height, s.Fleet)
		}
		s.Player, s.Width, s.Height, s.Fleet = p.Player, p.Width, p.Height, p.Fleet
		s.Shots = s.Shots.Merge(p.Shots)
		s.Exact += p.Exact
		s.Sampled += p.Sampled
		s.Heuristic += p.Heuristic
		s.Lookahead += p.Lookahead
		s.Moves += p.Moves
		s.P50NS = max(s.P50NS, p.P50NS)
		s.P99NS = max(s.P99NS, p.P99NS)
	}
	return s, nil
}
