package belief_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/kaisen-ai/kaisen/belief"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/internal/cputime"
)

// meter accumulates the wall and thread CPU time of the measured parts of a
// benchmark iteration (the set-up of each part, such as resetting a belief,
// stays outside; b.StopTimer is avoided because with ReportAllocs it reads
// memory statistics, which costs more than the code measured).
type meter struct {
	wall, cpu time.Duration
	n         int
	w0        time.Time
	c0        time.Duration
	cpuOK     bool
}

func (m *meter) start() {
	m.c0, m.cpuOK = cputime.Thread()
	m.w0 = time.Now()
}

func (m *meter) stop(n int) {
	m.wall += time.Since(m.w0)
	if c, ok := cputime.Thread(); ok && m.cpuOK {
		m.cpu += c - m.c0
	}
	m.n += n
}

// report adds ns/<unit> (wall) and cpu-ns/<unit> (thread CPU time).
func (m *meter) report(b *testing.B, unit string) {
	if m.n == 0 {
		return
	}
	b.ReportMetric(float64(m.wall.Nanoseconds())/float64(m.n), "ns/"+unit)
	if m.cpu > 0 {
		b.ReportMetric(float64(m.cpu.Nanoseconds())/float64(m.n), "cpu-ns/"+unit)
	}
}

// BenchmarkJointUpdate measures one Observe on the events of real random
// games, 5x5 with 3 ships, tracking the enemy. all: the average over every
// update of 20 games; first: the first update of a game (an attack or a fire
// on the 13,800 initial placements, the worst case). ns/op includes resetting
// the belief (CopyFrom of the initial placements); ns/update does not.
func BenchmarkJointUpdate(b *testing.B) {
	r := submarine.DefaultRules()
	hs := benchHistories(b, 20)
	fresh, err := belief.NewJoint(r, 0)
	if err != nil {
		b.Fatal(err)
	}
	j := fresh.Clone()
	b.Run("all", func(b *testing.B) {
		defer cputime.LockThread()()
		var m meter
		b.ReportAllocs()
		for b.Loop() {
			for _, h := range hs {
				j.CopyFrom(fresh)
				m.start()
				for _, ev := range h {
					_ = j.Observe(ev, belief.Enemy)
				}
				m.stop(len(h))
			}
		}
		m.report(b, "update")
	})
	b.Run("first", func(b *testing.B) {
		defer cputime.LockThread()()
		var m meter
		b.ReportAllocs()
		k := 0
		for b.Loop() {
			j.CopyFrom(fresh)
			ev := hs[k%len(hs)][0]
			k++
			m.start()
			_ = j.Observe(ev, belief.Enemy)
			m.stop(1)
		}
		m.report(b, "update")
	})
}

// snapshots returns the joint after every event of a few real games.
func snapshots(b *testing.B) []*belief.Joint {
	r := submarine.DefaultRules()
	fresh, err := belief.NewJoint(r, 0)
	if err != nil {
		b.Fatal(err)
	}
	var out []*belief.Joint
	for _, h := range benchHistories(b, 5) {
		j := fresh.Clone()
		for _, ev := range h {
			_ = j.Observe(ev, belief.Enemy)
			out = append(out, j.Clone())
		}
	}
	return out
}

// BenchmarkJointMarginals measures computing the marginal of every living ship
// (statistics from scratch, then one []float64 per ship) at every position of
// a few real games, 5x5 with 3 ships; ns/query excludes copying the position.
func BenchmarkJointMarginals(b *testing.B) {
	defer cputime.LockThread()()
	snaps := snapshots(b)
	var j belief.Joint
	var m meter
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		j.CopyFrom(snaps[k%len(snaps)]) // snapshots hold no statistics
		k++
		m.start()
		for i := range j.Len() {
			if j.Alive().Has(i) {
				_ = j.Marginal(i)
			}
		}
		m.stop(1)
	}
	m.report(b, "query")
}

// BenchmarkJointOutcomes measures the predictive distribution of an attack's
// answer (Outcomes) at real positions, 5x5 with 3 ships.
func BenchmarkJointOutcomes(b *testing.B) {
	snaps := snapshots(b)
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		_ = snaps[k%len(snaps)].Outcomes(12)
		k++
	}
}

// BenchmarkJointClone measures CopyFrom (a reused scratch belief) at real
// positions and from the initial 13,800 placements.
func BenchmarkJointClone(b *testing.B) {
	snaps := snapshots(b)
	var j belief.Joint
	b.Run("game", func(b *testing.B) {
		b.ReportAllocs()
		k := 0
		for b.Loop() {
			j.CopyFrom(snaps[k%len(snaps)])
			k++
		}
	})
	fresh, err := belief.NewJoint(submarine.DefaultRules(), 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Run("initial", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			j.CopyFrom(fresh)
		}
	})
}

// BenchmarkNewJoint measures a new belief on 5x5 with 3 ships (13,800
// placements in 600 entries).
func BenchmarkNewJoint(b *testing.B) {
	r := submarine.DefaultRules()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := belief.NewJoint(r, 0); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkJointSample measures drawing one placement.
func BenchmarkJointSample(b *testing.B) {
	snaps := snapshots(b)
	rng := rand.New(rand.NewPCG(1, 2))
	var p submarine.Placement
	b.ReportAllocs()
	k := 0
	for b.Loop() {
		p = snaps[k%len(snaps)].Sample(rng, p)
		k++
	}
}
