package ladder

import (
	"math"
	"slices"
)

// Rating is a Glicko-2 rating on the Glicko scale: R (1500 for a new
// player), its deviation RD (350 when nothing is known) and the volatility
// Vol (how erratic the player's results are).
type Rating struct {
	R, RD, Vol float64
}

// NewRating is the rating of a bot that has played no rated game.
func NewRating() Rating { return Rating{R: 1500, RD: 350, Vol: 0.06} }

// Tau is the Glicko-2 system constant that bounds how fast the volatility
// moves (Glickman recommends 0.3 to 1.2).
const Tau = 0.5

// glickoScale converts between the Glicko and Glicko-2 scales.
const glickoScale = 173.7178

// convergence is the tolerance of the volatility iteration.
const convergence = 1e-6

// Update is Glickman's Glicko-2 update (Example of the Glicko-2 system,
// 2013) of p after one rating period in which p scored scores[j] (1 win,
// 0.5 draw, 0 loss) against opponents[j], with system constant tau. With
// no game only the deviation grows.
func Update(p Rating, opponents []Rating, scores []float64, tau float64) Rating {
	return UpdateWeighted(p, opponents, scores, nil, tau)
}

// UpdateWeighted is Update with game j counted as weights[j] of a game
// (nil: every game 1): its likelihood is raised to that power, which
// scales its terms in the variance v and the improvement delta, so that
// a game of weight 1/2 moves the rating about as half a game would.
// Weight 1 is Glickman's update exactly. Games of weight 0 (unrated) are
// left out; when every game is, p is returned unchanged: an unrated game
// is not a rating period with no game (whose deviation would grow).
func UpdateWeighted(p Rating, opponents []Rating, scores, weights []float64, tau float64) Rating {
	if weights != nil {
		counted := false
		for _, w := range weights {
			counted = counted || w > 0
		}
		if !counted && len(opponents) > 0 {
			return p
		}
	}
	mu := (p.R - 1500) / glickoScale
	phi := p.RD / glickoScale
	if len(opponents) == 0 {
		return Rating{R: p.R, RD: math.Sqrt(phi*phi+p.Vol*p.Vol) * glickoScale, Vol: p.Vol}
	}
	var vInv, sum float64
	for j, o := range opponents {
		w := 1.0
		if weights != nil {
			w = weights[j]
		}
		muJ := (o.R - 1500) / glickoScale
		g := gOf(o.RD / glickoScale)
		e := 1 / (1 + math.Exp(-g*(mu-muJ)))
		vInv += w * g * g * e * (1 - e)
		sum += w * g * (scores[j] - e)
	}
	v := 1 / vInv
	delta := v * sum
	vol := newVolatility(phi, p.Vol, v, delta, tau)
	// The period's length in games: a weighted game widens the deviation
	// by its weight's share of a period (Glickman's step 6 at weight 1),
	// so that many light games do not inflate the deviation past what
	// they tell.
	span := 1.0
	if weights != nil {
		span = slices.Max(weights)
	}
	phiStar := math.Sqrt(phi*phi + span*vol*vol)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return Rating{R: muNew*glickoScale + 1500, RD: phiNew * glickoScale, Vol: vol}
}

// UpdateGame rates one game between a and b (scoreA: a's score, 1, 0.5 or
// 0) as a rating period of its own for each: the continuous ladder rates
// every game as it ends.
func UpdateGame(a, b Rating, scoreA float64) (Rating, Rating) {
	return Update(a, []Rating{b}, []float64{scoreA}, Tau), Update(b, []Rating{a}, []float64{1 - scoreA}, Tau)
}

// UpdateGameWeighted is UpdateGame with the game counted as wA of a game
// in a's update and wB in b's (UpdateWeighted; Weight gives them).
func UpdateGameWeighted(a, b Rating, scoreA, wA, wB float64) (Rating, Rating) {
	return UpdateWeighted(a, []Rating{b}, []float64{scoreA}, []float64{wA}, Tau),
		UpdateWeighted(b, []Rating{a}, []float64{1 - scoreA}, []float64{wB}, Tau)
}

func gOf(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }

// newVolatility is step 5 of Glicko-2: the Illinois algorithm on f.
func newVolatility(phi, sigma, v, delta, tau float64) float64 {
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi*phi + v + ex
		return ex*(delta*delta-phi*phi-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}
	A := a
	var B float64
	if delta*delta > phi*phi+v {
		B = math.Log(delta*delta - phi*phi - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			k++
		}
		B = a - k*tau
	}
	fA, fB := f(A), f(B)
	for math.Abs(B-A) > convergence {
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}
	return math.Exp(A / 2)
}
