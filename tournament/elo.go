package tournament

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// Score is the record of one pair of players: how often A beat B, drew,
// lost. Games = Wins + Draws + Losses.
type Score struct {
	A, B   int // player indices
	Wins   int // games A won
	Draws  int
	Losses int // games A lost (B won)
}

// Games is the number of games of the pair.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// Points is A's score: a win is 1, a draw 1/2.
func (s Score) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// ErrFit reports input the rating fit cannot use.
var ErrFit = errors.New("tournament: cannot fit ratings")

// Prior is the weight of the regularising prior of FitElo: that many virtual
// drawn games between the two players of every pair that met. It keeps
// ratings finite when a player won (or lost) every game and is negligible
// against real sample sizes.
const Prior = 1.0

// FitElo fits Bradley-Terry strengths by maximum likelihood, counting a draw
// as half a win for each side (the usual Elo convention), with Prior virtual
// draws per pair, and returns Elo ratings (400·log10 of the strengths) with
// mean 0. It uses the minorise-maximise iteration of Hunter (2004), which
// converges monotonically to the unique maximum when the comparison graph is
// connected. Players who never played get 0.
func FitElo(n int, scores []Score) ([]float64, error) {
	if n < 1 {
		return nil, fmt.Errorf("%w: %d players", ErrFit, n)
	}
	wins := make([]float64, n)    // points of i (prior included)
	games := make([][]float64, n) // games between i and j (prior included)
	for i := range games {
		games[i] = make([]float64, n)
	}
	for _, s := range scores {
		if s.A < 0 || s.A >= n || s.B < 0 || s.B >= n || s.A == s.B {
			return nil, fmt.Errorf("%w: bad pair %d-%d for %d players", ErrFit, s.A, s.B, n)
		}
		if s.Wins < 0 || s.Draws < 0 || s.Losses < 0 {
			return nil, fmt.Errorf("%w: negative count for pair %d-%d", ErrFit, s.A, s.B)
		}
		g := float64(s.Games())
		if g == 0 {
			continue
		}
		wins[s.A] += s.Points() + Prior/2
		wins[s.B] += float64(s.Losses) + float64(s.Draws)/2 + Prior/2
		games[s.A][s.B] += g + Prior
		games[s.B][s.A] += g + Prior
	}
	gamma := make([]float64, n)
	for i := range gamma {
		gamma[i] = 1
	}
	next := make([]float64, n)
	for iter := 0; iter < 100000; iter++ {
		change := 0.0
		for i := range n {
			den := 0.0
			for j := range n {
				if games[i][j] > 0 {
					den += games[i][j] / (gamma[i] + gamma[j])
				}
			}
			if den == 0 {
				next[i] = gamma[i]
				continue
			}
			next[i] = wins[i] / den
		}
		// Normalise the geometric mean of the players who played to 1.
		logSum, k := 0.0, 0
		for i := range n {
			if next[i] > 0 && wins[i] > 0 {
				logSum += math.Log(next[i])
				k++
			}
		}
		norm := 1.0
		if k > 0 {
			norm = math.Exp(logSum / float64(k))
		}
		for i := range n {
			v := next[i] / norm
			change = math.Max(change, math.Abs(math.Log(v)-math.Log(gamma[i])))
			gamma[i] = v
		}
		if change < 1e-12 {
			break
		}
	}
	elo := make([]float64, n)
	mean := 0.0
	for i := range n {
		elo[i] = 400 * math.Log10(gamma[i])
		mean += elo[i]
	}
	mean /= float64(n)
	for i := range elo {
		elo[i] -= mean
	}
	return elo, nil
}

// Interval is a two-sided interval of ratings.
type Interval struct {
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// Bootstrap estimates 95% intervals of the FitElo ratings by resampling the
// games of every pair with replacement (a multinomial draw of wins, draws
// and losses with the observed frequencies and the same number of games),
// refitting each of the b resamples, and taking the 2.5% and 97.5%
// percentiles. It is reproducible by seed.
func Bootstrap(n int, scores []Score, b int, seed uint64) ([]Interval, error) {
	if b < 1 {
		return nil, fmt.Errorf("%w: %d bootstrap resamples", ErrFit, b)
	}
	rng := rand.New(rand.NewPCG(seed, 0xb007))
	samples := make([][]float64, n)
	re := make([]Score, len(scores))
	for range b {
		for k, s := range scores {
			g := s.Games()
			r := Score{A: s.A, B: s.B}
			for range g {
				u := rng.IntN(g)
				switch {
				case u < s.Wins:
					r.Wins++
				case u < s.Wins+s.Draws:
					r.Draws++
				default:
					r.Losses++
				}
			}
			re[k] = r
		}
		elo, err := FitElo(n, re)
		if err != nil {
			return nil, err
		}
		for i, e := range elo {
			samples[i] = append(samples[i], e)
		}
	}
	out := make([]Interval, n)
	for i := range n {
		slices.Sort(samples[i])
		out[i] = Interval{Lo: percentile(samples[i], 0.025), Hi: percentile(samples[i], 0.975)}
	}
	return out, nil
}

// percentile interpolates linearly between order statistics of sorted xs.
func percentile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	pos := q * float64(len(xs)-1)
	lo := int(math.Floor(pos))
	hi := min(lo+1, len(xs)-1)
	f := pos - float64(lo)
	return xs[lo]*(1-f) + xs[hi]*f
}
