package elo

import (
	"fmt"
	"math"
)

// Z95 is the standard-normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// FromScore is the logistic Elo difference of a score s in [0, 1]:
// 400·log10(s/(1 − s)); -Inf at 0, +Inf at 1, NaN outside [0, 1].
func FromScore(s float64) float64 {
	switch {
	case s < 0 || s > 1 || math.IsNaN(s):
		return math.NaN()
	case s == 0:
		return math.Inf(-1)
	case s == 1:
		return math.Inf(1)
	}
	return 400 * math.Log10(s/(1-s))
}

// ToScore is the expected score of a logistic Elo difference:
// 1 / (1 + 10^(−elo/400)).
func ToScore(elo float64) float64 { return 1 / (1 + math.Pow(10, -elo/400)) }

// Wilson returns the Wilson score interval [lo, hi] of a proportion p
// observed over n trials (n may be an effective, non-integer count) at
// normal quantile z. With n <= 0 it is [0, 1].
func Wilson(p, n, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	z2 := z * z
	denom := 1 + z2/n
	center := (p + z2/(2*n)) / denom
	half := z / denom * math.Sqrt(p*(1-p)/n+z2/(4*n*n))
	return max(0, center-half), min(1, center+half)
}

// Outcome is one game's result for the player scored, in half points.
type Outcome int

// The outcomes of a game.
const (
	Loss Outcome = 0
	Draw Outcome = 1
	Win  Outcome = 2
)

// WDL counts the wins, draws and losses of one player against another.
type WDL struct {
	Wins, Draws, Losses int
}

// Add counts one game.
func (c *WDL) Add(o Outcome) {
	switch o {
	case Win:
		c.Wins++
	case Draw:
		c.Draws++
	default:
		c.Losses++
	}
}

// Games is the number of games counted.
func (c WDL) Games() int { return c.Wins + c.Draws + c.Losses }

// Score is the points per game (a draw counting half); 0.5 with no games.
func (c WDL) Score() float64 {
	if c.Games() == 0 {
		return 0.5
	}
	return (float64(c.Wins) + float64(c.Draws)/2) / float64(c.Games())
}

// DrawRatio is the share of games drawn, 0 with no games.
func (c WDL) DrawRatio() float64 {
	if c.Games() == 0 {
		return 0
	}
	return float64(c.Draws) / float64(c.Games())
}

// units is c as the scores of its games and their counts.
func (c WDL) units() ([]float64, []int) {
	return []float64{0, 0.5, 1}, []int{c.Losses, c.Draws, c.Wins}
}

// Penta counts paired games by the points the player scored in the pair:
// Penta[k] is the number of pairs worth k/2 points (0, 0.5, 1, 1.5, 2),
// fastchess's "Ptnml(0-2)".
type Penta [5]int

// Add counts one pair: the outcomes of its two games.
func (p *Penta) Add(first, second Outcome) { p[first+second]++ }

// Pairs is the number of pairs counted.
func (p Penta) Pairs() int { return p[0] + p[1] + p[2] + p[3] + p[4] }

// Score is the points per game over the pairs (0.5 with none).
func (p Penta) Score() float64 {
	n := p.Pairs()
	if n == 0 {
		return 0.5
	}
	return float64(p[1]+2*p[2]+3*p[3]+4*p[4]) / float64(4*n)
}

// units is p as the per-game scores of its pairs and their counts.
func (p Penta) units() ([]float64, []int) {
	return []float64{0, 0.25, 0.5, 0.75, 1}, p[:]
}

// moments are the number of units, the mean and the variance of the
// scores xs counted ns times.
func moments(xs []float64, ns []int) (n int, mu, v float64) {
	for i, k := range ns {
		n += k
		mu += float64(k) * xs[i]
	}
	if n == 0 {
		return 0, 0.5, 0
	}
	mu /= float64(n)
	for i, k := range ns {
		d := xs[i] - mu
		v += float64(k) * d * d
	}
	return n, mu, v / float64(n)
}

// Estimate is an Elo difference measured from games: the point estimate,
// its 95% interval and the likelihood of superiority. Elo, Lo and Hi are
// logistic Elo; Elo is ±Inf at a score of 0% or 100%, and the side of the
// interval the games do not bound is ±Inf (package doc).
type Estimate struct {
	Games   int     // games counted
	Score   float64 // points per game
	ScoreLo float64 // 95% interval of the score
	ScoreHi float64
	Elo     float64 // FromScore(Score)
	Lo, Hi  float64 // FromScore(ScoreLo), FromScore(ScoreHi)
	LOS     float64 // likelihood of superiority, in [0, 1]
}

// HalfWidth is half the width of the Elo interval, the "+/-" fastchess
// prints; +Inf when a side is unbounded.
func (e Estimate) HalfWidth() float64 { return (e.Hi - e.Lo) / 2 }

// Trinomial is the Elo estimate of a player's wins, draws and losses, each
// game an independent observation. Its LOS is cutechess's: the normal
// approximation of P(wins > losses) from the decisive games,
// Φ((W − L)/√(W + L)); 0.5 without a decisive game.
func Trinomial(c WDL) Estimate {
	xs, ns := c.units()
	e := estimate(xs, ns, 1)
	e.LOS = 0.5
	if d := c.Wins + c.Losses; d > 0 {
		e.LOS = phi(float64(c.Wins-c.Losses) / math.Sqrt(float64(d)))
	}
	return e
}

// Pentanomial is the Elo estimate of paired games, each pair one
// observation (its two games share their setup, so they are not
// independent). Its LOS is the normal approximation Φ((μ − 1/2)/(σ/√n))
// over the n pairs (σ the standard deviation of a pair's per-game score),
// 1 or 0 when every pair scored the same above or below one half.
func Pentanomial(p Penta) Estimate {
	xs, ns := p.units()
	e := estimate(xs, ns, 2)
	n, mu, v := moments(xs, ns)
	switch {
	case n == 0 || mu == 0.5:
		e.LOS = 0.5
	case v == 0 && mu > 0.5:
		e.LOS = 1
	case v == 0:
		e.LOS = 0
	default:
		e.LOS = phi((mu - 0.5) / math.Sqrt(v/float64(n)))
	}
	return e
}

// estimate is the Elo estimate of n units (games, or pairs of perUnit
// games) scoring xs, counted ns times.
func estimate(xs []float64, ns []int, perUnit int) Estimate {
	n, mu, v := moments(xs, ns)
	e := Estimate{Games: n * perUnit, Score: mu}
	if n == 0 {
		e.ScoreLo, e.ScoreHi = 0, 1
		e.Elo, e.Lo, e.Hi = 0, math.Inf(-1), math.Inf(1)
		return e
	}
	e.ScoreLo, e.ScoreHi = Wilson(mu, effective(n, perUnit, mu, v), Z95)
	// At a score of 0 or 1 the open side is exactly 0 or 1 (Wilson's
	// closed form misses it by a rounding error).
	if mu == 0 {
		e.ScoreLo = 0
	}
	if mu == 1 {
		e.ScoreHi = 1
	}
	e.Elo, e.Lo, e.Hi = FromScore(mu), FromScore(e.ScoreLo), FromScore(e.ScoreHi)
	return e
}

// effective is the effective number of independent win-or-loss games of n
// units of perUnit games with mean mu and variance v: n·mu(1−mu)/v, or
// n·perUnit when v or mu(1−mu) is 0 (package doc).
func effective(n, perUnit int, mu, v float64) float64 {
	if v <= 0 || mu <= 0 || mu >= 1 {
		return float64(n * perUnit)
	}
	return float64(n) * mu * (1 - mu) / v
}

// phi is the standard normal distribution function.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// Format formats an Elo value with format (e.g. "%+.1f"), and +Inf and
// -Inf, the unbounded side of a perfect score's interval, as "+inf" and
// "-inf".
func Format(x float64, format string) string {
	switch {
	case math.IsInf(x, 1):
		return "+inf"
	case math.IsInf(x, -1):
		return "-inf"
	}
	return fmt.Sprintf(format, x)
}
