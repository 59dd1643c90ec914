package admiral

import (
	"math"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// Evaluation: the one-ply and searched values of one candidate.

// evaluate scores one candidate: one-ply and searched values.
func (p *planner) evaluate(s *scored, bold float64, deepen bool) {
	a := p.a
	s.pHit, s.ig = 0, 0
	v := &a.cfg.Value
	us := a.me // our fleet after the action
	var x *exposure
	switch s.act.Kind {
	case submarine.Attack:
		x = p.fireExposure(s.act.To, deepen)
		p.partitionAttack(s.act.To, deepen)
	default:
		from := us.Pos[s.act.Ship]
		fx, fy := a.rules.Board.XY(from)
		tx, ty := a.rules.Board.XY(s.act.To)
		x = p.moveExposure(s.act.Ship, tx-fx, ty-fy, deepen)
		us.Occupied.Remove(from)
		us.Occupied.Add(s.act.To)
		us.Pos[s.act.Ship] = s.act.To
		p.partitionNone()
	}
	s.leak = x.leak
	reach := a.rules.Reach(&us)
	rep := 0
	if s.act.Kind == submarine.Move {
		rep = p.repeats(&us)
	}
	if !deepen {
		s.detect = p.detectBits(x, &us) // kept for the deep pass
	}
	fixed := -bold*p.leakW*x.leak - v.Repeat*float64(rep) - bold*v.Detect*s.detect
	// One-ply danger: the chance that the enemy, attacking where it believes
	// each of our ships is, can reach it.
	// The stall rule's boldness scales it only where no located enemy ship
	// at least as strong can attack.
	danger, scaled := p.danger(x, &us, bold)
	s.danger = danger
	if deepen {
		p.firstMass(x, &us)
	}
	total := float64(len(p.pe.tup))
	oneply, deep, nextNow := 0.0, 0.0, 0.0
	living := p.pe.alive.Count()
	for k := range p.slots {
		sl := &p.slots[k]
		po := float64(sl.count) / total
		gain := 0.0
		sunk := false
		if sl.hit != submarine.NoShip {
			gain += v.Hit
			s.pHit += po
			if a.enemyHP[sl.hit] <= 1 {
				sunk = true
				gain += v.Sink
				if living == 1 {
					gain += v.Win
				}
			}
		}
		if po > 0 && s.act.Kind == submarine.Attack {
			s.ig -= po * math.Log2(po)
		}
		for i := range p.nf {
			sl.pinned[i] = p.pinnedCell(sl, i)
		}
		if sunk && living == 1 {
			oneply += po * gain
			deep += po * gain
			continue
		}
		next := p.bestNext(sl, &reach)
		if bold < 1 {
			nextNow += po * (p.threat(sl, x, &us, sl.hit, false) + p.threat(sl, x, &us, sl.hit, true)) / 2
		}
		oneply += po * (gain + v.Next*next)
		if !deepen {
			continue
		}
		// Determinized play-out of the enemy's reply in this answer's worlds.
		if len(sl.worlds) > 0 {
			sum := 0.0
			for _, w := range sl.worlds {
				sum += p.rollout(w, sl, x, us, bold)
			}
			deep += po * (gain + sum/float64(len(sl.worlds)))
		} else {
			deep += po * gain
		}
	}
	s.oneply = oneply + v.Info*s.ig + fixed - v.Hurt*scaled + (1-bold)*v.Next*nextNow
	// A stalled game is decided by contact: as the player gets bolder, the
	// threat it poses next turn, and the turn after, counts whatever the
	// enemy may do about it.
	s.deep = deep + v.Info*s.ig + fixed + (1-bold)*v.Next*nextNow
}

// repeats is the number of our formations of the last endgame.memory turns
// that us repeats.
func (p *planner) repeats(us *submarine.Fleet) int {
	f, n := formation(us, p.nf), 0
	for _, h := range p.a.history {
		if h == f {
			n++
		}
	}
	return n
}

// danger is the one-ply danger of our fleet us after a candidate whose
// exposure is x: the chance that the enemy, attacking where it believes
// each of our ships is, can reach it; scaled is the same with the stall
// rule's boldness on the ships that still win the exchange that follows.
func (p *planner) danger(x *exposure, us *submarine.Fleet, bold float64) (danger, scaled float64) {
	for j := range p.nf {
		if us.Alive.Has(j) {
			c := us.Pos[j]
			d := p.reachE[c] * x.ship[j*p.size+int(c)]
			danger += d
			scaled += caution(bold, us.HP[j], p.guard[c]) * d
		}
	}
	return danger, scaled
}
