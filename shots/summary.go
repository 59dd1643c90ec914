package shots

import (
	"math"
	"slices"
	"time"
)

// Summary is the statistics of a run; its JSON form is the line of kaisen
// shots --json, and its keys are part of that command's interface.
type Summary struct {
	Player       string  `json:"player"`
	Games        int     `json:"games"`
	Mean         float64 `json:"mean"`
	Median       float64 `json:"median"`
	SD           float64 `json:"sd"`
	P90          int     `json:"p90"`
	Max          int     `json:"max"`
	MsPerMoveP99 float64 `json:"ms_per_move_p99"`
	Seed         uint64  `json:"seed"`
	// With a Vs run (Pair): the other AI, its mean over the same games,
	// and the mean of the paired differences (player − vs) with the
	// half-width of its 95% interval (1.96 sample sd / sqrt(games)).
	Vs       string   `json:"vs,omitempty"`
	VsMean   *float64 `json:"vs_mean,omitempty"`
	DiffMean *float64 `json:"diff_mean,omitempty"`
	DiffCI95 *float64 `json:"diff_ci95,omitempty"`
}

// Summarize computes the statistics of the shot counts of player's games
// and its decision times: sd is the sample standard deviation, p90 the
// nearest-rank 90th percentile, the median the middle value (the mean of
// the two middle ones for an even count); the figures are rounded to three
// decimals, the 99th percentile of the decision times to the nanosecond.
func Summarize(player string, shots []int, moves []time.Duration) Summary {
	s := Summary{Player: player, Games: len(shots)}
	if len(shots) == 0 {
		return s
	}
	sorted := slices.Clone(shots)
	slices.Sort(sorted)
	sum := 0.0
	for _, x := range sorted {
		sum += float64(x)
	}
	s.Mean = round3(sum / float64(len(sorted)))
	if len(sorted) > 1 {
		ss := 0.0
		for _, x := range sorted {
			d := float64(x) - sum/float64(len(sorted))
			ss += d * d
		}
		s.SD = round3(math.Sqrt(ss / float64(len(sorted)-1)))
	}
	mid := len(sorted) / 2
	if len(sorted)%2 == 1 {
		s.Median = float64(sorted[mid])
	} else {
		s.Median = float64(sorted[mid-1]+sorted[mid]) / 2
	}
	s.P90 = nearestRank(sorted, 0.90)
	s.Max = sorted[len(sorted)-1]
	s.MsPerMoveP99 = MsRound(Percentile(moves, 0.99))
	return s
}

// MsRound is d in milliseconds, to the nanosecond: Summary.MsPerMoveP99
// of a 99th percentile d.
func MsRound(d time.Duration) float64 {
	return math.Round(float64(d)/float64(time.Millisecond)*1e6) / 1e6
}

// Pair sets the Vs fields from the paired shot counts of the same games:
// shots[i] the player's, vs[i] the other AI's, named name.
func (s *Summary) Pair(name string, shots, vs []int) {
	s.Vs = name
	n := float64(len(shots))
	if n == 0 {
		return
	}
	var sv, sd, sdd float64
	for i := range shots {
		d := float64(shots[i] - vs[i])
		sv += float64(vs[i])
		sd += d
		sdd += d * d
	}
	mean := sd / n
	ci := 0.0
	if n > 1 {
		ci = 1.96 * math.Sqrt(max(0, sdd-n*mean*mean)/(n-1)) / math.Sqrt(n)
	}
	vm, dm, dc := round3(sv/n), round3(mean), round3(ci)
	s.VsMean, s.DiffMean, s.DiffCI95 = &vm, &dm, &dc
}

// Percentile is the nearest-rank percentile p (0 to 1) of the decision
// times, 0 for none.
func Percentile(moves []time.Duration, p float64) time.Duration {
	if len(moves) == 0 {
		return 0
	}
	sorted := slices.Clone(moves)
	slices.Sort(sorted)
	return nearestRank(sorted, p)
}

func nearestRank[T int | time.Duration](sorted []T, p float64) T {
	k := int(math.Ceil(p*float64(len(sorted)))) - 1
	return sorted[max(0, min(k, len(sorted)-1))]
}

func round3(x float64) float64 { return math.Round(x*1000) / 1000 }
