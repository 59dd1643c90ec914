package cli

import (
	"fmt"
	"io"
	"math"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/elo"
)

// matchStats are the running statistics of kaisen match, from p1's point
// of view: its wins, draws and losses and, with --pairs, the pentanomial
// of the pairs. arena.Match.Observe feeds them in game-index order; with
// --sprt they stop the match when a bound is crossed, so the verdict
// depends on the seed, never on which game finished first.
type matchStats struct {
	paired bool
	sprt   *elo.SPRT

	mu       sync.Mutex
	wdl      elo.WDL
	penta    elo.Penta
	first    elo.Outcome // p1's outcome in the first game of the pair under way
	half     bool        // that game is counted, the pair's second is not yet
	llr      float64
	decision elo.Decision
}

// observe counts a game (arena.Match.Observe) and says whether the SPRT
// has decided.
func (s *matchStats) observe(r *arena.GameResult) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	o := r.P1Outcome()
	s.wdl.Add(o)
	if !s.paired {
		return false
	}
	if !s.half {
		s.first, s.half = o, true
		return false
	}
	s.half = false
	s.penta.Add(s.first, o)
	if s.sprt == nil {
		return false
	}
	s.llr = s.sprt.LLR(s.penta)
	s.decision = s.sprt.Decide(s.llr)
	return s.decision != elo.Continue
}

// estimate is the Elo estimate of the games counted: of the pairs with
// --pairs, of the games otherwise.
func (s *matchStats) estimate() elo.Estimate {
	if s.paired {
		return elo.Pentanomial(s.penta)
	}
	return elo.Trinomial(s.wdl)
}

// line is the running score shown after the progress bar.
func (s *matchStats) line() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.wdl
	if w.Games() == 0 {
		return ""
	}
	e := s.estimate()
	l := fmt.Sprintf("Score %d - %d - %d [%.3f]  Elo %s", w.Wins, w.Losses, w.Draws, w.Score(), eloText(e))
	if s.sprt != nil {
		l += fmt.Sprintf("  LLR %.2f (%.1f%%)", s.llr, 100*s.sprt.Progress(s.llr))
	}
	return l
}

// eloText is "x +/- y" when the interval is finite, "+inf" or "-inf"
// (the score of a player that won or lost every game) otherwise.
func eloText(e elo.Estimate) string {
	if math.IsInf(e.HalfWidth(), 0) || math.IsNaN(e.HalfWidth()) {
		return elo.Format(e.Elo, "%.1f")
	}
	return fmt.Sprintf("%.1f +/- %.1f", e.Elo, e.HalfWidth())
}

// write prints the statistics below the match table, as fastchess and
// cutechess-cli word them.
func (s *matchStats) write(w io.Writer, sum *arena.Summary) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.wdl
	e := s.estimate()
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Score of %s vs %s: %d - %d - %d [%.3f] %d\n", sum.P1, sum.P2, c.Wins, c.Losses, c.Draws, c.Score(), c.Games())
	fmt.Fprintf(w, "Elo difference: %s, LOS: %.1f %%, DrawRatio: %.1f %%\n", eloText(e), 100*e.LOS, 100*c.DrawRatio())
	model := "trinomial: every game on its own"
	if s.paired {
		model = fmt.Sprintf("pentanomial: %d pairs", s.penta.Pairs())
	}
	fmt.Fprintf(w, "Elo 95%% interval: [%s, %s] (%s)\n", elo.Format(e.Lo, "%+.1f"), elo.Format(e.Hi, "%+.1f"), model)
	if s.paired {
		p := s.penta
		fmt.Fprintf(w, "Ptnml(0-2): [%d, %d, %d, %d, %d]\n", p[0], p[1], p[2], p[3], p[4])
	}
	if s.sprt == nil {
		return nil
	}
	lower, upper := s.sprt.Bounds()
	verdict := s.decision.String()
	switch {
	case s.decision != elo.Continue:
	case sum.Games < sum.Requested:
		verdict = fmt.Sprintf("no decision (interrupted after %d games)", sum.Games)
	default:
		verdict = fmt.Sprintf("no decision after %d games (raise -n)", sum.Games)
	}
	fmt.Fprintf(w, "SPRT (%s, pentanomial): %s\n", s.sprt, stoppedText(sum))
	_, err := fmt.Fprintf(w, "SPRT: llr %.2f (%.1f%%), lbound %.2f, ubound %.2f - %s\n",
		s.llr, 100*s.sprt.Progress(s.llr), lower, upper, verdict)
	return err
}

// stoppedText says where the SPRT stopped the match.
func stoppedText(sum *arena.Summary) string {
	if sum.Stopped {
		return fmt.Sprintf("stopped after %d of at most %d games", sum.Games, sum.Requested)
	}
	return fmt.Sprintf("%d of at most %d games played", sum.Games, sum.Requested)
}

// eloJSON is the Elo estimate of --json (with --pairs or --sprt); null
// stands for an unbounded side (+inf or -inf).
type eloJSON struct {
	Elo       *float64 `json:"elo"`
	Lo        *float64 `json:"lo"`
	Hi        *float64 `json:"hi"`
	LOS       float64  `json:"los"`
	DrawRatio float64  `json:"draw_ratio"`
}

// sprtJSON is the SPRT of --json.
type sprtJSON struct {
	Test     string  `json:"test"`
	LLR      float64 `json:"llr"`
	Lower    float64 `json:"lbound"`
	Upper    float64 `json:"ubound"`
	Decision string  `json:"decision"` // "H0", "H1" or "continue"
}

// finite is x, nil when it is infinite or NaN.
func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

// addJSON adds the statistics of a paired match to its --json summary.
func (s *matchStats) addJSON(out *matchJSON) {
	if s == nil || !s.paired {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	e := s.estimate()
	out.Elo = &eloJSON{Elo: finite(e.Elo), Lo: finite(e.Lo), Hi: finite(e.Hi), LOS: e.LOS, DrawRatio: s.wdl.DrawRatio()}
	p := s.penta
	out.Pentanomial = p[:]
	if s.sprt != nil {
		lower, upper := s.sprt.Bounds()
		d := map[elo.Decision]string{elo.H0: "H0", elo.H1: "H1", elo.Continue: "continue"}[s.decision]
		out.SPRT = &sprtJSON{Test: s.sprt.String(), LLR: s.llr, Lower: lower, Upper: upper, Decision: d}
	}
}

// parseSPRTFlag reads --sprt.
func parseSPRTFlag(text string) (*elo.SPRT, error) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	s, err := elo.ParseSPRT(text)
	if err != nil {
		return nil, &UsageError{Err: fmt.Errorf("--sprt: %w", err)}
	}
	return &s, nil
}

// sprtMaxGames is -n's default with --sprt: the most games a test plays
// when no bound is crossed.
const sprtMaxGames = 100000

// addPairsFlags adds --pairs and --sprt.
func addPairsFlags(cmd *cobra.Command, pairs *bool, sprt *string) {
	fl := cmd.Flags()
	fl.BoolVar(pairs, "pairs", false, "play the games in pairs: games 2k and 2k+1 on the same seed with seats swapped, scored as pairs (pentanomial)")
	fl.StringVar(sprt, "sprt", "", "stop when a sequential test decides: elo0=0,elo1=5[,alpha=0.05][,beta=0.05][,model=logistic|normalized] (implies --pairs; -n is then the most games, default 100000)")
}

// stats are the statistics of the match of f: --pairs and --sprt
// checked.
func (f *matchFlags) stats() (*matchStats, error) {
	sprt, err := parseSPRTFlag(f.sprt)
	if err != nil {
		return nil, err
	}
	st := &matchStats{paired: f.pairs || sprt != nil, sprt: sprt}
	if st.paired && f.games%2 != 0 {
		return nil, usageError("-n %d: games played in pairs (--pairs, --sprt) need an even number", f.games)
	}
	return st, nil
}
