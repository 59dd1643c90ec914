package tune

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/kaisen-ai/kaisen/arena"
)

// Tuning is a whole `kaisen tune` run: SPSA over Objective.Space with a
// budget of games, a checkpoint after every iteration, and a final
// measurement of the result against the starting point on the same games.
type Tuning struct {
	Objective  *GameObjective
	Budget     int    // total games, the final measurement included
	Batch      int    // games per evaluation (each iteration plays 2 batches)
	EvalGames  int    // games of the final measurement of each of tuned and start
	Seed       uint64 // everything random derives from it
	A, C       float64
	Checkpoint string // path of the checkpoint file ("" = none)
	// Store, when set, keeps the checkpoint instead of a file; Checkpoint
	// then only names it in messages.
	Store CheckpointStore
	// Evaluate, when set, plays the games of one evaluation of an
	// objective (the SPSA points and the final measurement) instead of
	// GameObjective.Evaluate in this process; it must return the very
	// Sample that would (kaisen tune --nats spreads the games over workers).
	Evaluate func(ctx context.Context, g *GameObjective, x []float64, seed uint64) (Sample, error)
	Progress io.Writer // one line per iteration (nil = none)
	// After is how many games the caller plays once Run is done (an
	// exploit's verification): the progress lines' ETA counts them.
	After   int
	Against string // opponent names, for the header and the checkpoint
	// Game names the game played (the --game of the header's command and
	// part of what a checkpoint must match; "" = not named).
	Game string
	Now  func() time.Time
	// Command is the command line quoted on the first line of the YAML
	// header ("" = the `kaisen tune` command of these settings).
	Command string
}

// Result is what a tuning run produced.
type Result struct {
	Space      Space
	Start      []float64 // the starting point (the base config's values)
	Best       []float64 // the tuned values
	Iterations int
	Games      int    // games played, the final measurement included
	Tuned      Sample // final measurement of Best
	Baseline   Sample // the same games played by Start
	Resumed    int    // iterations restored from the checkpoint
	// Played is the games this process played (a resumed run's earlier
	// games not included), in Elapsed.
	Played  int
	Elapsed time.Duration
	YAML    string // the tuned config with its header comment
}

// Plan reports how a budget splits: iterations of SPSA and the final games.
func (t *Tuning) Plan() (iterations, final int, err error) {
	if t.Batch < 1 || t.EvalGames < 1 {
		return 0, 0, fmt.Errorf("%w: batch %d and final games %d must be positive", ErrObjective, t.Batch, t.EvalGames)
	}
	final = 2 * t.EvalGames
	iterations = (t.Budget - final) / (2 * t.Batch)
	if iterations < 1 {
		return 0, 0, fmt.Errorf("%w: a budget of %d games leaves no iteration (the final measurement takes %d, an iteration %d)",
			ErrObjective, t.Budget, final, 2*t.Batch)
	}
	return iterations, final, nil
}

// meta is what a checkpoint must agree on to be resumed.
func (t *Tuning) meta(iterations int) map[string]string {
	o := t.Objective
	m := map[string]string{
		"player":     o.Player,
		"against":    t.Against,
		"keys":       strings.Join(o.Space.Keys(), ","),
		"seed":       strconv.FormatUint(t.Seed, 10),
		"batch":      strconv.Itoa(t.Batch),
		"iterations": strconv.Itoa(iterations),
		"draw_score": strconv.FormatFloat(o.DrawScore, 'g', -1, 64),
		"objective":  o.Aggregate.String(),
		"a":          strconv.FormatFloat(t.A, 'g', -1, 64),
		"c":          strconv.FormatFloat(t.C, 'g', -1, 64),
	}
	if t.Game != "" {
		m["game"] = t.Game
	}
	return m
}

// Run tunes. A run stopped by ctx leaves its checkpoint (when one is set);
// running again with the same settings resumes it.
func (t *Tuning) Run(ctx context.Context) (*Result, error) {
	o := t.Objective
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if err := o.Space.Validate(); err != nil {
		return nil, err
	}
	iterations, _, err := t.Plan()
	if err != nil {
		return nil, err
	}
	spsa := DefaultSPSA(iterations, t.Seed)
	if t.A > 0 {
		spsa.A = t.A
	}
	if t.C > 0 {
		spsa.C = t.C
	}
	spsa.Score = o.Aggregate.Score
	start := o.Space.Defaults()
	st := NewState(o.Space, start, t.Seed)
	res := &Result{Space: o.Space, Start: start, Iterations: iterations}
	meta := t.meta(iterations)
	store, where := t.Store, t.Checkpoint
	if store == nil && t.Checkpoint != "" {
		store = fileStore(t.Checkpoint)
	}
	if store != nil {
		ck, err := store.Load(meta)
		if err != nil {
			return nil, err
		}
		if ck != nil {
			st = ck.State
			res.Resumed = st.Iter
			t.printf("resuming %s at iteration %d of %d (%d games already played)\n", where, st.Iter, iterations, st.Games)
		}
	}
	obj := *o
	obj.Games = t.Batch
	pace := pace{began: t.now(), from: st.Games, total: t.Total(iterations)}
	after := func(s State) error {
		if store != nil {
			if err := store.Save(Checkpoint{Meta: meta, State: s}); err != nil {
				return err
			}
		}
		t.progress(&s, iterations, &pace)
		return nil
	}
	st, err = spsa.Run(ctx, o.Space, t.objective(&obj), st, after)
	if err != nil {
		return nil, err
	}
	res.Best = o.Space.Denormalize(st.Best())
	res.Games = st.Games

	// Final measurement: tuned and start on the same games.
	final := *o
	final.Games = t.EvalGames
	seed := derive(t.Seed, 0xf17a1)
	t.printf("measuring the tuned and the starting weights on the same %d games each...%s\n", t.EvalGames, pace.eta(t.now(), st.Games))
	eval := t.objective(&final)
	if res.Tuned, err = eval.Evaluate(ctx, res.Best, seed); err != nil {
		return nil, err
	}
	if res.Baseline, err = eval.Evaluate(ctx, start, seed); err != nil {
		return nil, err
	}
	res.Games += res.Tuned.N + res.Baseline.N
	res.Played, res.Elapsed = res.Games-pace.from, t.now().Sub(pace.began)
	text, err := o.Config(res.Best)
	if err != nil {
		return nil, err
	}
	res.YAML = Header(t.HeaderLines(res, t.now())...) + "\n" + text
	return res, nil
}

// objective is g, evaluated by t.Evaluate when set.
func (t *Tuning) objective(g *GameObjective) Objective {
	if t.Evaluate == nil {
		return g
	}
	return ObjectiveFunc(func(ctx context.Context, x []float64, seed uint64) (Sample, error) {
		return t.Evaluate(ctx, g, x, seed)
	})
}

func (t *Tuning) printf(format string, args ...any) {
	if t.Progress != nil {
		fmt.Fprintf(t.Progress, format, args...)
	}
}

// recentIters is how many iterations the progress line pools for the
// current point's score.
const recentIters = 5

// now is the time by t.Now, else the clock.
func (t *Tuning) now() time.Time {
	if t.Now == nil {
		return time.Now()
	}
	return t.Now()
}

// probeGames is how many games Pace plays.
const probeGames = 8

// Pace plays a few games of the pool with the starting weights, on a seed
// no game of the run uses, and returns how many games they were and how
// long they took: the pace a caller estimates the run's time from before
// it starts. Its games are not part of the run.
func (t *Tuning) Pace(ctx context.Context) (games int, took time.Duration, err error) {
	o := *t.Objective
	o.Games = max(probeGames, len(o.Opponents))
	began := time.Now()
	s, err := o.Evaluate(ctx, o.Space.Defaults(), derive(t.Seed, 0x970be))
	return s.N, time.Since(began), err
}

// Total is every game of a run of the given iterations: the SPSA
// points', the final measurement's, and After.
func (t *Tuning) Total(iterations int) int {
	return 2*t.Batch*iterations + 2*t.EvalGames + t.After
}

// pace is how fast a run plays: the games from played by the clock at
// began, of total.
type pace struct {
	began       time.Time
	from, total int
}

// eta is " ETA h:mm:ss (N games left)" with done games played at now, ""
// before the first game of this process.
func (p *pace) eta(now time.Time, done int) string {
	played, secs := done-p.from, now.Sub(p.began).Seconds()
	if played <= 0 || secs <= 0 || done >= p.total {
		return ""
	}
	left := p.total - done
	d := time.Duration(float64(left) / (float64(played) / secs) * float64(time.Second))
	return fmt.Sprintf("  ETA %s (%d games left)", Clock(d), left)
}

// Clock formats d as h:mm:ss.
func Clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
}

func (t *Tuning) progress(s *State, iterations int, p *pace) {
	if t.Progress == nil {
		return
	}
	agg := t.Objective.Aggregate
	r := s.Recent(recentIters)
	what := "current"
	if w := r.Worst(); agg.Min && w >= 0 {
		// the worst opponent's rate, which the objective follows
		what = "worst " + t.Objective.Opponents[w].Name
		r = r.Parts[w]
	}
	ci := arena.Wilson(int(math.Round(r.Sum)), r.N, arena.Z95)
	last := s.History[len(s.History)-1]
	now := t.now()
	elapsed := now.Sub(p.began).Round(time.Second)
	fmt.Fprintf(t.Progress, "iter %d/%d  games %d  +%.3f -%.3f  %s ≈ %.3f [%.3f, %.3f] over %d games  %s%s\n",
		s.Iter, iterations, s.Games, agg.Score(last.Plus), agg.Score(last.Minus), what, r.Mean(), ci.Lo, ci.Hi, r.N, elapsed, p.eta(now, s.Games))
	if s.Iter%5 == 0 || s.Iter == iterations {
		best := t.Objective.Space.Denormalize(s.Best())
		var parts []string
		for i, p := range t.Objective.Space {
			parts = append(parts, fmt.Sprintf("%s=%s", p.Key, FormatValue(best[i])))
		}
		fmt.Fprintf(t.Progress, "  best so far: %s\n", strings.Join(parts, " "))
	}
}

// TuneCommand is the `kaisen tune` command line of these settings.
func (t *Tuning) TuneCommand() string {
	o := t.Objective
	cmd := "kaisen tune"
	if t.Game != "" {
		cmd += " --game " + t.Game
	}
	cmd += fmt.Sprintf(" --player %s --against %s", o.Player, t.Against)
	if o.Aggregate.Min {
		cmd += fmt.Sprintf(" --objective min --min-temperature %g", o.Aggregate.Temperature)
	}
	return cmd + fmt.Sprintf(" --budget-games %d --seed %d", t.Budget, t.Seed)
}

// RateLine describes a sample: its rate, the 95% Wilson interval, wins and
// draws.
func RateLine(s Sample) string {
	ci := arena.Wilson(int(math.Round(s.Sum)), s.N, arena.Z95)
	return fmt.Sprintf("%.4f [%.4f, %.4f] (%d wins, %d draws in %d games)", s.Mean(), ci.Lo, ci.Hi, s.Wins, s.Draws, s.N)
}

// HeaderLines are the lines of the comment block of the tuned YAML: the
// command, the games played, the final measurement of the tuned and the
// starting weights with 95% intervals (per opponent for a pool), and what
// changed.
func (t *Tuning) HeaderLines(res *Result, when time.Time) []string {
	o := t.Objective
	cmd := t.Command
	if cmd == "" {
		cmd = t.TuneCommand()
	}
	ct := arena.Wilson(int(math.Round(res.Tuned.Sum)), res.Tuned.N, arena.Z95)
	cb := arena.Wilson(int(math.Round(res.Baseline.Sum)), res.Baseline.N, arena.Z95)
	var changed []string
	for i, p := range res.Space {
		if FormatValue(res.Best[i]) != FormatValue(res.Start[i]) {
			changed = append(changed, fmt.Sprintf("%s %s -> %s", p.Key, FormatValue(res.Start[i]), FormatValue(res.Best[i])))
		}
	}
	lines := []string{
		fmt.Sprintf("Tuned by `%s` (%s).", cmd, when.UTC().Format("2006-01-02")),
		fmt.Sprintf("seed %d; %d games played: SPSA %d iterations x 2 x %d games, then %d + %d final games.",
			t.Seed, res.Games, res.Iterations, t.Batch, res.Tuned.N, res.Baseline.N),
		fmt.Sprintf("Measured win rate %.4f, 95%% interval [%.4f, %.4f] (Wilson; %d wins, %d draws in %d games; a draw scores %g).",
			res.Tuned.Mean(), ct.Lo, ct.Hi, res.Tuned.Wins, res.Tuned.Draws, res.Tuned.N, o.DrawScore),
		fmt.Sprintf("The starting weights on the same games: %.4f [%.4f, %.4f] (%d wins, %d draws).",
			res.Baseline.Mean(), cb.Lo, cb.Hi, res.Baseline.Wins, res.Baseline.Draws),
	}
	if len(o.Opponents) > 1 {
		lines = append(lines, fmt.Sprintf("Objective %s: tuned %.4f, start %.4f. Per opponent, tuned then start:",
			o.Aggregate, o.Aggregate.Score(res.Tuned), o.Aggregate.Score(res.Baseline)))
		for i, opp := range o.Opponents {
			if i < len(res.Tuned.Parts) && i < len(res.Baseline.Parts) {
				lines = append(lines, fmt.Sprintf("  vs %s: %s; start %s", opp.Name, RateLine(res.Tuned.Parts[i]), RateLine(res.Baseline.Parts[i])))
			}
		}
	}
	if len(changed) > 0 {
		lines = append(lines, "Changed: "+strings.Join(changed, ", ")+".")
	} else {
		lines = append(lines, "No weight changed at the printed precision.")
	}
	return lines
}
