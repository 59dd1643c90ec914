package arena

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kaisen-ai/kaisen/audit"
	"github.com/kaisen-ai/kaisen/elo"
	"github.com/kaisen-ai/kaisen/replay"
)

// ErrMatch is wrapped by the errors of an invalid Match.
var ErrMatch = errors.New("arena: invalid match")

// Family is one game family as the arena sees it (Submarine is the first).
type Family interface {
	// Game names the family, e.g. "submarine" (the replay header's "game").
	Game() string
	// Players names P1 and P2.
	Players() (p1, p2 string)
	// NewTable returns a Table for one worker goroutine; log receives
	// per-game diagnostics such as a panicking player's stack (debug level).
	NewTable(log *slog.Logger) Table
}

// Table plays the games of one worker, one at a time, and may reuse its
// buffers between games. It is not safe for concurrent use.
type Table interface {
	// Play plays one game. The returned error is about writing the replay
	// only; everything that happens in the game is in the GameResult.
	Play(d Deal) (GameResult, error)
}

// ContextTable is a Table whose games can be stopped: Match.Run calls
// PlayContext with its context (cancelled by the caller or after a failed
// game) instead of Play. A game it stops returns an error wrapping ctx.Err()
// and is not counted. Tables of external players (package extern) are ones.
type ContextTable interface {
	Table
	PlayContext(ctx context.Context, d Deal) (GameResult, error)
}

// Deal says which game a Table plays.
type Deal struct {
	Index     int       // game number in the match, from 0
	Seed      uint64    // the game's seed, GameSeed(MatchSeed, Index)
	MatchSeed uint64    // the match seed (recorded in the replay)
	P1Seat    int       // 0 or 1: the seat of P1; P2 takes the other one
	Replay    io.Writer // where to write the game's replay; nil = none
	Explain   bool      // record each actor's Decision in the replay (explain.Explainer)
	Audit     bool      // audit the game with the exact endgame solver (submarine only; GameResult.Audit)
	// Adjudicate is Match.Adjudicate: how the game may end early, nil
	// for never.
	Adjudicate *replay.Adjudication
	// Series is the game's place in its series (Match.Series), nil outside
	// one. The Table keeps the Learners of a series from its first game to
	// its last, so the games of a series must come to one Table in order.
	Series *replay.SeriesRef
}

// GameResult is the outcome of one game, by seat.
type GameResult struct {
	Index   int           // game number in its match
	Seed    uint64        // the game's seed
	P1Seat  int           // seat of P1 (PlayGame: 0)
	Winner  int           // winning seat, -1 on a draw
	Actions int           // actions played (both seats)
	Shots   [2]int        // by seat: shots fired (battleship; zero for submarine)
	Forfeit [2]bool       // by seat: lost by an illegal action, an invalid placement or a panic
	Reason  string        // why a seat forfeited, "" when none did
	Audit   *audit.Report // the solver audit (Deal.Audit), nil when not audited
	// Adjudicated is why the game was adjudicated a draw
	// (replay.AdjudicatedDraw, replay.AdjudicatedCap), "" when it ended
	// by the rules or a forfeit.
	Adjudicated string
}

// Draw reports whether the game was drawn.
func (r GameResult) Draw() bool { return r.Winner < 0 }

// P1Won reports whether P1 won.
func (r GameResult) P1Won() bool { return r.Winner >= 0 && r.Winner == r.P1Seat }

// P2Won reports whether P2 won.
func (r GameResult) P2Won() bool { return r.Winner >= 0 && r.Winner != r.P1Seat }

// P1Outcome is P1's outcome of the game, as package elo scores it.
func (r GameResult) P1Outcome() elo.Outcome {
	switch {
	case r.Draw():
		return elo.Draw
	case r.P1Won():
		return elo.Win
	}
	return elo.Loss
}

// GameSeed is the seed of game index of a match seeded with matchSeed: the
// first output of PCG(matchSeed, index).
func GameSeed(matchSeed uint64, index int) uint64 {
	p := rand.NewPCG(matchSeed, uint64(index))
	return p.Uint64()
}

// seatStream is the second PCG seed word of seat s's random stream.
func seatStream(s int) uint64 { return uint64(s+1) * 0x9E3779B97F4A7C15 }

// SeatRand returns the random stream of the player in seat s of a game with
// seed gameSeed: PCG(gameSeed, (s+1)·0x9E3779B97F4A7C15).
func SeatRand(gameSeed uint64, s int) *rand.Rand {
	return rand.New(rand.NewPCG(gameSeed, seatStream(s)))
}

// Match is a series of games between two players.
type Match struct {
	Family  Family // what is played and by whom, e.g. &Submarine{...}
	Games   int    // number of games, at least 1
	First   int    // index of the first game: games First..First+Games-1 are played (a shard of a longer match)
	Seed    uint64 // match seed; game i uses GameSeed(Seed, i)
	Workers int    // parallel games; 0 = GOMAXPROCS
	Replays string // directory for one replay per game ("" = none), game-000042.jsonl
	Explain bool   // record Decisions in the replays
	Audit   bool   // audit every game with the exact endgame solver (submarine only; Summary.Audit)
	// Adjudicate, when set, ends games early as draws (research runs,
	// never the served rules): a draw adjudicated by the endgame solver
	// (Draw, submarine only, package adjudicate) or a cap on actions
	// (MaxActions, every game). Replays record the settings in their
	// header and the reason in their result; Summary counts the games.
	Adjudicate *replay.Adjudication
	// Series plays the games in series of this many (0: no series): games
	// k·Series .. (k+1)·Series−1 are series k, played in order by one
	// worker with the same Learner players (a player that is not one is
	// still made fresh for every game); series run in parallel. Seeds and
	// seats are those of the same games without series, so a series match
	// of players that do not learn plays exactly the games of a plain one.
	// First must be a multiple of Series.
	Series int
	// Pairs plays the games in pairs: games 2k and 2k+1 share the seed
	// GameSeed(Seed, 2k), so the seats draw the same random streams (the
	// same fleets for players that place alike, the same seeds for those
	// that place their own) and the players swap seats (P1 is in seat 0 in
	// even games). Off, every game has its own seed.
	Pairs bool
	// Observe, when set, is called with every game's result in game-index
	// order (First, First+1, ...), one call at a time; when it returns
	// true the match stops there: no further game is started, the games
	// after it already under way are finished and left out, and the
	// Summary (and the replay directory) holds exactly the games up to
	// it, whatever Workers is. Summary.Stopped is then true and Run
	// returns no error.
	Observe func(r *GameResult) (stop bool)
	// Record, when set, is given every game played with its replay (the
	// lines the Table wrote on Deal.Replay) in game-index order, one call
	// at a time, up to the game where Observe stopped the match; the games
	// of Done are not given again. Its error stops the match and Run
	// returns it. A run's record file (--games-out) is written with it.
	Record func(r *GameResult, replay []byte) error
	// Done are the results of games First..First+len(Done)-1 played
	// before (a run resumed from its record): they are counted, and
	// observed, in order as if played now, but neither played again nor
	// recorded. Not with Series.
	Done []GameResult
	Log  *slog.Logger // forfeits are logged here; nil = discard
}

// Summary is what a match produced.
type Summary struct {
	Game       string        // family name
	P1, P2     string        // player names
	Seed       uint64        // match seed
	Series     int           // games per series (Match.Series), 0 for none
	Requested  int           // games asked for
	Games      int           // games played (fewer than Requested after a cancellation)
	Workers    int           // workers used
	P1Wins     int           // games won by P1
	P2Wins     int           // games won by P2
	Draws      int           // drawn games
	P1Forfeits int           // games P1 lost by forfeit
	P2Forfeits int           // games P2 lost by forfeit
	Seat0Wins  int           // games won by the seat that acted first
	Mean       float64       // mean actions per game
	P90        int32         // nearest-rank 90th percentile of actions per game
	Actions    int64         // actions in all games
	P1Shots    int64         // shots P1 fired in all games (battleship; 0 for submarine)
	P2Shots    int64         // shots P2 fired in all games (battleship; 0 for submarine)
	Lengths    []int32       // actions of every game played, sorted (what Mean and P90 come from)
	Audit      *AuditSummary // the solver audit (Match.Audit), nil when not asked
	// Adjudication is Match.Adjudicate; AdjudicatedDraw and
	// AdjudicatedCap count the games it ended (solver draws, the cap).
	Adjudication                    *replay.Adjudication
	AdjudicatedDraw, AdjudicatedCap int
	Pairs                           bool          // the games were played in pairs (Match.Pairs)
	Stopped                         bool          // Match.Observe stopped the match before Requested games
	Elapsed                         time.Duration // wall time of Run
}

// GamesPerSec is the throughput of the match.
func (s Summary) GamesPerSec() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Games) / s.Elapsed.Seconds()
}

// ActionsPerSec is the number of actions played per second.
func (s Summary) ActionsPerSec() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Actions) / s.Elapsed.Seconds()
}

// P1MeanShots is the mean number of shots P1 fired per game (battleship).
func (s Summary) P1MeanShots() float64 { return perGame(s.P1Shots, s.Games) }

// P2MeanShots is the mean number of shots P2 fired per game (battleship).
func (s Summary) P2MeanShots() float64 { return perGame(s.P2Shots, s.Games) }

func perGame(total int64, games int) float64 {
	if games <= 0 {
		return 0
	}
	return float64(total) / float64(games)
}

// P1Losses is the number of games P1 lost.
func (s Summary) P1Losses() int { return s.P2Wins }

// P2Losses is the number of games P2 lost.
func (s Summary) P2Losses() int { return s.P1Wins }

// Validate checks the match settings.
func (m *Match) Validate() error {
	var errs []error
	if m.Family == nil {
		errs = append(errs, fmt.Errorf("%w: no game family", ErrMatch))
	} else if v, ok := m.Family.(interface{ Validate() error }); ok {
		if err := v.Validate(); err != nil {
			errs = append(errs, fmt.Errorf("%w: %w", ErrMatch, err))
		}
	}
	if m.Games < 1 {
		errs = append(errs, fmt.Errorf("%w: %d games, want at least 1", ErrMatch, m.Games))
	}
	if m.First < 0 {
		errs = append(errs, fmt.Errorf("%w: first game %d, want 0 or more", ErrMatch, m.First))
	}
	if m.Series < 0 {
		errs = append(errs, fmt.Errorf("%w: series of %d games, want 0 (no series) or more", ErrMatch, m.Series))
	} else if m.Series > 0 && m.First%m.Series != 0 {
		errs = append(errs, fmt.Errorf("%w: first game %d is not the first of a series of %d", ErrMatch, m.First, m.Series))
	}
	if m.Pairs && m.First%2 != 0 {
		errs = append(errs, fmt.Errorf("%w: first game %d is not the first of a pair", ErrMatch, m.First))
	}
	if m.Workers < 0 {
		errs = append(errs, fmt.Errorf("%w: %d workers, want 0 (all CPUs) or more", ErrMatch, m.Workers))
	}
	if err := m.validateDone(); err != nil {
		errs = append(errs, err)
	}
	if _, sub := m.Family.(*Submarine); m.Audit && !sub {
		errs = append(errs, fmt.Errorf("%w: the solver audit is for the submarine game only", ErrMatch))
	}
	if err := m.Adjudicate.Validate(); err != nil {
		errs = append(errs, fmt.Errorf("%w: %w", ErrMatch, err))
	} else if _, sub := m.Family.(*Submarine); m.Adjudicate != nil && m.Adjudicate.Draw > 0 && !sub {
		errs = append(errs, fmt.Errorf("%w: the solver's draw adjudication is for the submarine game only", ErrMatch))
	}
	return errors.Join(errs...)
}

// validateDone checks Done: the first games of the match, in order.
func (m *Match) validateDone() error {
	switch {
	case len(m.Done) == 0:
		return nil
	case m.Series > 0:
		return fmt.Errorf("%w: games played before (Done) cannot resume a series", ErrMatch)
	case len(m.Done) > m.Games:
		return fmt.Errorf("%w: %d games played before of %d", ErrMatch, len(m.Done), m.Games)
	}
	for i := range m.Done {
		if m.Done[i].Index != m.First+i {
			return fmt.Errorf("%w: game played before number %d is game %d, want %d", ErrMatch, i, m.Done[i].Index, m.First+i)
		}
	}
	return nil
}

// ReplayName is the file name of game index's replay in a match's replay
// directory.
func ReplayName(index int) string { return fmt.Sprintf("game-%06d.jsonl", index) }

// partial is one worker's tally.
type partial struct {
	games, p1Wins, p2Wins, draws, p1Forfeits, p2Forfeits, seat0Wins int
	adjDraw, adjCap                                                 int
	actions, p1Shots, p2Shots                                       int64
	lengths                                                         []int32
	audit                                                           AuditSummary
}

func (p *partial) add(r *GameResult) {
	p.games++
	switch {
	case r.Draw():
		p.draws++
	case r.P1Won():
		p.p1Wins++
	default:
		p.p2Wins++
	}
	if r.Winner == 0 {
		p.seat0Wins++
	}
	switch r.Adjudicated {
	case replay.AdjudicatedDraw:
		p.adjDraw++
	case replay.AdjudicatedCap:
		p.adjCap++
	}
	if r.Forfeit[r.P1Seat] {
		p.p1Forfeits++
	}
	if r.Forfeit[1-r.P1Seat] {
		p.p2Forfeits++
	}
	p.actions += int64(r.Actions)
	p.p1Shots += int64(r.Shots[r.P1Seat])
	p.p2Shots += int64(r.Shots[1-r.P1Seat])
	p.lengths = append(p.lengths, int32(r.Actions))
	p.audit.add(r)
}

// maxWarnForfeits is how many forfeits a match logs at warn level; the rest
// go to debug level.
const maxWarnForfeits = 20

// Run plays the match. progress, when not nil, is called from a single
// goroutine with the number of finished games, about ten times a second and
// once at the end.
//
// The result is the same for a given Seed, Family and Games whatever Workers
// is (except Elapsed), and so is every replay file; with Series a worker
// plays whole series, in order. When ctx is cancelled Run
// stops starting games, waits for those under way and returns the partial
// Summary with ctx's error. A failure to write a replay stops the match and
// is returned with the partial Summary.
func (m *Match) Run(ctx context.Context, progress func(done int)) (Summary, error) {
	if err := m.Validate(); err != nil {
		return Summary{}, err
	}
	log := orDiscard(m.Log)
	workers := m.Workers
	if workers == 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	// A job is a game, or with Series the games of one series.
	step := max(m.Series, 1)
	jobs := (m.Games + step - 1) / step
	workers = min(workers, jobs)
	if m.Replays != "" {
		if err := os.MkdirAll(m.Replays, 0o755); err != nil {
			return Summary{}, fmt.Errorf("arena: replays: %w", err)
		}
	}
	sum := m.summary(workers)
	start := time.Now()
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		next, done, warned atomic.Int64
		failOnce           sync.Once
		failErr            error
	)
	parts := make([]partial, workers)
	seq := newSequencer(m, cancel)
	if seq != nil {
		for i := range m.Done { // step is 1: no series
			seq.put(m.Done[i], nil, true)
		}
		next.Store(int64(len(m.Done)))
		done.Store(int64(len(m.Done)))
	}
	var wg sync.WaitGroup
	for w := range workers {
		parts[w].lengths = make([]int32, 0, min(m.Games/workers+1, 1<<16))
		table := m.Family.NewTable(log)
		wg.Go(func() {
			for {
				j := int(next.Add(1) - 1)
				if j >= jobs {
					return
				}
				for i := j * step; i < min((j+1)*step, m.Games); i++ {
					select {
					case <-ctx.Done():
						return
					default:
					}
					r, rec, err := m.playOne(ctx, table, m.First+i)
					if err != nil {
						failOnce.Do(func() { failErr = err })
						cancel()
						return
					}
					if seq != nil {
						seq.put(r, rec, false)
					} else {
						parts[w].add(&r)
					}
					done.Add(1)
					if r.Forfeit[0] || r.Forfeit[1] {
						m.logForfeit(log, &sum, &r, warned.Add(1))
					}
				}
			}
		})
	}
	if progress != nil {
		tickUntil(&wg, func() { progress(int(done.Load())) })
	}
	wg.Wait()
	sum.Elapsed = time.Since(start)
	if progress != nil {
		progress(int(done.Load()))
	}

	if seq != nil {
		parts = []partial{seq.tally}
		sum.Stopped = seq.stopped
		seq.removeReplays()
		if seq.err != nil {
			failErr, sum.Stopped = seq.err, false
		}
	}
	m.tally(&sum, parts)
	return sum, m.stopErr(parent, ctx, &sum, failErr)
}

// summary is the Summary a match played by workers starts from: what it
// plays, before any game.
func (m *Match) summary(workers int) Summary {
	sum := Summary{Game: m.Family.Game(), Seed: m.Seed, Series: m.Series, Pairs: m.Pairs, Requested: m.Games, Workers: workers}
	if m.Adjudicate.On() {
		sum.Adjudication = m.Adjudicate
	}
	sum.P1, sum.P2 = m.Family.Players()
	return sum
}

// stopErr is Run's error once its games are tallied in sum: failErr (a
// game's failure, a replay's write) first; else a match stopped early
// (sum.Stopped) says so when the caller's context parent was cancelled,
// and a match whose context ctx ended before all its games were played
// says so too.
func (m *Match) stopErr(parent, ctx context.Context, sum *Summary, failErr error) error {
	if failErr != nil {
		return failErr
	}
	if sum.Stopped {
		if err := parent.Err(); err != nil {
			return fmt.Errorf("arena: match stopped after %d of %d games: %w", sum.Games, m.Games, err)
		}
		return nil
	}
	if err := ctx.Err(); err != nil && sum.Games < m.Games {
		return fmt.Errorf("arena: match stopped after %d of %d games: %w", sum.Games, m.Games, err)
	}
	return nil
}

// tickUntil calls tick about ten times a second until wg is done.
func tickUntil(wg *sync.WaitGroup, tick func()) {
	finished := make(chan struct{})
	go func() { wg.Wait(); close(finished) }()
	t := time.NewTicker(100 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-finished:
			return
		case <-t.C:
			tick()
		}
	}
}

// tally adds the workers' tallies up into sum.
func (m *Match) tally(sum *Summary, parts []partial) {
	var lengths []int32
	for i := range parts {
		p := &parts[i]
		sum.Games += p.games
		sum.P1Wins += p.p1Wins
		sum.P2Wins += p.p2Wins
		sum.Draws += p.draws
		sum.P1Forfeits += p.p1Forfeits
		sum.P2Forfeits += p.p2Forfeits
		sum.Seat0Wins += p.seat0Wins
		sum.AdjudicatedDraw += p.adjDraw
		sum.AdjudicatedCap += p.adjCap
		sum.Actions += p.actions
		sum.P1Shots += p.p1Shots
		sum.P2Shots += p.p2Shots
		if m.Audit {
			if sum.Audit == nil {
				sum.Audit = &AuditSummary{Rules: m.Family.(*Submarine).Rules}
			}
			sum.Audit.merge(&p.audit)
		}
		if lengths == nil {
			lengths = p.lengths
		} else {
			lengths = append(lengths, p.lengths...)
		}
	}
	if sum.Games > 0 {
		sum.Mean = float64(sum.Actions) / float64(sum.Games)
	}
	sum.P90 = Quantile(lengths, 0.9)
	if sum.Audit != nil {
		sum.Audit.finish(sum.P1, sum.P2)
	}
	sum.Lengths = lengths
}

// playOne plays game i on t; with Record it returns the game's replay.
func (m *Match) playOne(ctx context.Context, t Table, i int) (GameResult, []byte, error) {
	seed := i
	if m.Pairs {
		seed = i &^ 1
	}
	d := Deal{Index: i, Seed: GameSeed(m.Seed, seed), MatchSeed: m.Seed, P1Seat: i % 2, Explain: m.Explain, Audit: m.Audit,
		Series: seriesOf(i, m.Series)}
	if m.Adjudicate.On() {
		d.Adjudicate = m.Adjudicate
	}
	play := t.Play
	if ct, ok := t.(ContextTable); ok {
		play = func(d Deal) (GameResult, error) { return ct.PlayContext(ctx, d) }
	}
	var rec *bytes.Buffer
	if m.Record != nil {
		rec = new(bytes.Buffer)
		d.Replay = rec
	}
	if m.Replays == "" {
		r, err := play(d)
		return r, bufBytes(rec), err
	}
	path := filepath.Join(m.Replays, ReplayName(i))
	f, err := os.Create(path)
	if err != nil {
		return GameResult{}, nil, fmt.Errorf("arena: replay: %w", err)
	}
	d.Replay = f
	if rec != nil {
		d.Replay = io.MultiWriter(f, rec)
	}
	r, err := play(d)
	if cerr := f.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return r, nil, fmt.Errorf("arena: replay %s: %w", path, err)
	}
	return r, bufBytes(rec), nil
}

// bufBytes is b's contents, nil for a nil b.
func bufBytes(b *bytes.Buffer) []byte {
	if b == nil {
		return nil
	}
	return b.Bytes()
}

func (m *Match) logForfeit(log *slog.Logger, sum *Summary, r *GameResult, n int64) {
	level := slog.LevelWarn
	if n > maxWarnForfeits {
		level = slog.LevelDebug
	}
	for seat, lost := range r.Forfeit {
		if !lost {
			continue
		}
		name, role := sum.P1, "p1"
		if seat != r.P1Seat {
			name, role = sum.P2, "p2"
		}
		log.Log(context.Background(), level, "forfeit", "game", r.Index, "seed", r.Seed,
			"player", name, "role", role, "seat", seat, "reason", r.Reason)
	}
	if n == maxWarnForfeits {
		log.Warn("further forfeits are logged at debug level")
	}
}
