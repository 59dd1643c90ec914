package gauntlet

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"text/tabwriter"
	"time"

	"github.com/kaisen-ai/kaisen/arena"
	"github.com/kaisen-ai/kaisen/elo"
)

// Result is a finished (or stopped) gauntlet.
type Result struct {
	Game      string
	Bot       string
	Seed      uint64
	Games     int        // games per opponent
	Pool      []string   // the opponents named
	Opponents []Opponent // in pool order, those played
	// Overall is the bot against the pool as a whole: every opponent's
	// games and pairs added up (Name "overall").
	Overall  Opponent
	List     []Game // every game played, in game order
	Complete bool   // every game was played
	Workers  int
	Elapsed  time.Duration // wall time of the games (the replays' pages not included)

	half map[int]elo.Outcome // by opponent: the bot's outcome in the first game of the pair under way
}

// Opponent is the bot's record against one opponent, from the bot's
// point of view.
type Opponent struct {
	Name             string
	Seed             uint64    // the match seed (MatchSeed)
	WDL              elo.WDL   // the bot's wins, draws and losses
	Penta            elo.Penta // the pairs: [LL, LD, DD+WL, WD, WW]
	Forfeits         int       // games the bot lost by forfeit
	OpponentForfeits int       // games the opponent lost by forfeit
	Actions          int64     // actions in all the games
	Estimate         elo.Estimate
}

// Game is one game of the gauntlet.
type Game struct {
	Index    int    // the game's number in the gauntlet (k·Games+i)
	Opponent string // the opponent's name
	Game     int    // the game's number in its match (i)
	Seed     uint64 // the game's seed
	Seat     int    // the bot's seat (0 acts first)
	Outcome  string // the bot's: "win", "draw" or "loss"
	Actions  int
	// Reason says how the game ended: "fleet sunk", "draw limit", or a
	// forfeit's "forfeit: bot: ..." or "forfeit: opponent: ...".
	Reason string
	// Replay is the path of the game's replay (or its page) relative to
	// Config.Replays, with slashes; "" when none was written.
	Replay string
}

var outcomeNames = map[elo.Outcome]string{elo.Win: "win", elo.Draw: "draw", elo.Loss: "loss"}

// add counts game r against opponent k, its replay at path.
func (res *Result) add(k int, r *arena.GameResult, path string) {
	o := r.P1Outcome() // the bot is P1
	opp := &res.Opponents[k]
	opp.WDL.Add(o)
	if res.half == nil {
		res.half = map[int]elo.Outcome{}
	}
	if first, ok := res.half[k]; ok {
		opp.Penta.Add(first, o)
		delete(res.half, k)
	} else {
		res.half[k] = o
	}
	reason := "fleet sunk"
	switch {
	case r.Forfeit[r.P1Seat]:
		reason = "forfeit: bot: " + r.Reason
	case r.Forfeit[1-r.P1Seat]:
		reason = "forfeit: opponent: " + r.Reason
	case r.Draw():
		reason = "draw limit"
	}
	res.List = append(res.List, Game{Index: k*res.Games + r.Index, Opponent: opp.Name, Game: r.Index, Seed: r.Seed,
		Seat: r.P1Seat, Outcome: outcomeNames[o], Actions: r.Actions, Reason: reason, Replay: path})
}

// total is the sum of the opponents' records.
func (res *Result) total() Opponent {
	all := Opponent{Name: "overall", Seed: res.Seed}
	for _, o := range res.Opponents {
		all.WDL.Wins += o.WDL.Wins
		all.WDL.Draws += o.WDL.Draws
		all.WDL.Losses += o.WDL.Losses
		for i := range all.Penta {
			all.Penta[i] += o.Penta[i]
		}
		all.Forfeits += o.Forfeits
		all.OpponentForfeits += o.OpponentForfeits
		all.Actions += o.Actions
	}
	return all
}

// line is the running score over the games so far.
func (res *Result) line() string {
	all := res.total()
	w := all.WDL
	if w.Games() == 0 {
		return ""
	}
	e := elo.Trinomial(w)
	if all.Penta.Pairs() > 0 {
		e = elo.Pentanomial(all.Penta)
	}
	return fmt.Sprintf("Score %d - %d - %d [%.3f]  Elo %s", w.Wins, w.Losses, w.Draws, w.Score(), eloText(e))
}

// finish fills the estimates and the overall line; a stopped gauntlet
// leaves out the opponent it had not started.
func (res *Result) finish(elapsed time.Duration, complete bool) Result {
	for n := len(res.Opponents); !complete && n > 0 && res.Opponents[n-1].WDL.Games() == 0; n-- {
		res.Opponents = res.Opponents[:n-1] // stopped before its first game: no row
	}
	for i := range res.Opponents {
		res.Opponents[i].Estimate = estimate(&res.Opponents[i])
	}
	res.Overall = res.total()
	res.Overall.Estimate = estimate(&res.Overall)
	res.Complete, res.Elapsed, res.half = complete, elapsed, nil
	return *res
}

// estimate is the Elo estimate of o: of its pairs (pentanomial), of its
// games while no pair is complete.
func estimate(o *Opponent) elo.Estimate {
	if o.Penta.Pairs() == 0 {
		return elo.Trinomial(o.WDL)
	}
	return elo.Pentanomial(o.Penta)
}

// eloText is "x +/- y", or "+inf" / "-inf" at a perfect score.
func eloText(e elo.Estimate) string {
	if math.IsInf(e.HalfWidth(), 0) || math.IsNaN(e.HalfWidth()) {
		return elo.Format(e.Elo, "%.1f")
	}
	return fmt.Sprintf("%.1f +/- %.1f", e.Elo, e.HalfWidth())
}

// interval is "[lo, hi]" with an unbounded side as -inf or +inf.
func interval(e elo.Estimate) string {
	return fmt.Sprintf("[%s, %s]", elo.Format(e.Lo, "%+.1f"), elo.Format(e.Hi, "%+.1f"))
}

// MeanActions is the mean number of actions per game.
func (o *Opponent) MeanActions() float64 {
	if n := o.WDL.Games(); n > 0 {
		return float64(o.Actions) / float64(n)
	}
	return 0
}

// WriteTable prints the result as a table, one line per opponent and the
// overall line, then the bot's score against the pool as fastchess words
// it.
func (res *Result) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s gauntlet: %s against %d opponents, %d games each in pairs (one deal, seats swapped), seed %d\n",
		res.Game, res.Bot, len(res.Pool), res.Games, res.Seed)
	if !res.Complete {
		fmt.Fprintf(w, "stopped early: %d of %d games played\n", len(res.List), res.Games*len(res.Pool))
	}
	fmt.Fprintln(w, "from the bot's point of view: Elo > 0 is the bot stronger; intervals 95%, from the pairs (pentanomial)")
	fmt.Fprintln(w)
	rows := append(append([]Opponent{}, res.Opponents...), res.Overall)
	width := len("opponent")
	for _, o := range rows {
		width = max(width, len(o.Name))
	}
	// Numbers align right; the names, padded to one width, stay left.
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%-*s\tgames\tW\tD\tL\tscore\tElo\t95%% interval\tLOS\tdraws\tforfeits\tactions\t\n", width, "opponent")
	for _, o := range rows {
		e := o.Estimate
		fmt.Fprintf(tw, "%-*s\t%d\t%d\t%d\t%d\t%.3f\t%s\t%s\t%.1f%%\t%.1f%%\t%d\t%.1f\t\n", width, o.Name, o.WDL.Games(), o.WDL.Wins, o.WDL.Draws,
			o.WDL.Losses, o.WDL.Score(), eloText(e), interval(e), 100*e.LOS, 100*o.WDL.DrawRatio(), o.Forfeits, o.MeanActions())
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	a := res.Overall
	fmt.Fprintln(w)
	fmt.Fprintf(w, "Score of %s vs the pool: %d - %d - %d [%.3f] %d\n", res.Bot, a.WDL.Wins, a.WDL.Losses, a.WDL.Draws, a.WDL.Score(), a.WDL.Games())
	fmt.Fprintf(w, "Elo difference: %s, LOS: %.1f %%, DrawRatio: %.1f %%\n", eloText(a.Estimate), 100*a.Estimate.LOS, 100*a.WDL.DrawRatio())
	p := a.Penta
	fmt.Fprintf(w, "Ptnml(0-2): [%d, %d, %d, %d, %d], %d pairs\n", p[0], p[1], p[2], p[3], p[4], p.Pairs())
	workers := "workers"
	if res.Workers == 1 {
		workers = "worker"
	}
	rate := 0.0
	if s := res.Elapsed.Seconds(); s > 0 {
		rate = float64(len(res.List)) / s
	}
	_, err := fmt.Fprintf(w, "%d games in %.2fs: %.1f games/s, %d %s\n", len(res.List), res.Elapsed.Seconds(), rate, res.Workers, workers)
	return err
}

// eloJSON is an Elo estimate in JSON; null stands for an unbounded side
// (+inf or -inf).
type eloJSON struct {
	Elo *float64 `json:"elo"`
	Lo  *float64 `json:"lo"`
	Hi  *float64 `json:"hi"`
	LOS float64  `json:"los"`
}

// opponentJSON is one opponent's line of the JSON result.
type opponentJSON struct {
	Name             string  `json:"name"`
	Seed             uint64  `json:"seed"`
	Games            int     `json:"games"`
	Wins             int     `json:"wins"`
	Draws            int     `json:"draws"`
	Losses           int     `json:"losses"`
	Score            float64 `json:"score"`
	DrawRatio        float64 `json:"draw_ratio"`
	Elo              eloJSON `json:"elo"`
	Pentanomial      []int   `json:"pentanomial"`
	Forfeits         int     `json:"forfeits"`
	OpponentForfeits int     `json:"opponent_forfeits"`
	MeanActions      float64 `json:"mean_actions"`
}

// gameJSON is one game of the JSON result.
type gameJSON struct {
	Index    int    `json:"index"`
	Opponent string `json:"opponent"`
	Game     int    `json:"game"`
	Seed     uint64 `json:"seed"`
	Seat     int    `json:"seat"`
	Outcome  string `json:"outcome"`
	Actions  int    `json:"actions"`
	Reason   string `json:"reason"`
	Replay   string `json:"replay,omitempty"`
}

// resultJSON is the JSON result (kaisen gauntlet --json).
type resultJSON struct {
	Game      string         `json:"game"`
	Bot       string         `json:"bot"`
	Seed      uint64         `json:"seed"`
	Games     int            `json:"games_per_opponent"`
	Pool      []string       `json:"pool"`
	Opponents []opponentJSON `json:"opponents"`
	Overall   opponentJSON   `json:"overall"`
	List      []gameJSON     `json:"games"`
	Complete  bool           `json:"complete"`
}

func finite(x float64) *float64 {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		return nil
	}
	return &x
}

func (o *Opponent) json() opponentJSON {
	e, p := o.Estimate, o.Penta
	return opponentJSON{Name: o.Name, Seed: o.Seed, Games: o.WDL.Games(), Wins: o.WDL.Wins, Draws: o.WDL.Draws, Losses: o.WDL.Losses,
		Score: o.WDL.Score(), DrawRatio: o.WDL.DrawRatio(), Elo: eloJSON{Elo: finite(e.Elo), Lo: finite(e.Lo), Hi: finite(e.Hi), LOS: e.LOS},
		Pentanomial: p[:], Forfeits: o.Forfeits, OpponentForfeits: o.OpponentForfeits, MeanActions: o.MeanActions()}
}

// MarshalJSON is the result as kaisen gauntlet --json prints it.
func (res Result) MarshalJSON() ([]byte, error) {
	out := resultJSON{Game: res.Game, Bot: res.Bot, Seed: res.Seed, Games: res.Games, Pool: res.Pool, Overall: res.Overall.json(),
		Complete: res.Complete, Opponents: []opponentJSON{}, List: []gameJSON{}}
	for i := range res.Opponents {
		out.Opponents = append(out.Opponents, res.Opponents[i].json())
	}
	for _, g := range res.List {
		out.List = append(out.List, gameJSON(g))
	}
	return json.Marshal(out)
}
