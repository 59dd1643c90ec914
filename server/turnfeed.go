package server

import "time"

// Turner is a Spectator that is also told whose turn it is, for a live
// view that says so: ToAct is called before every action with the seat
// to act and when its action is due (the zero time for the house AI,
// which has no limit).
type Turner interface {
	Spectator
	ToAct(game string, seat int, due time.Time)
}

// ToAct tells a Turner spectator that seat is to act, its action due at
// due (zero: no limit), once per public step: a turn that follows an
// action the public view did not show (a hidden move, a volley waiting
// for the defender's answer) is not told, or whose turn it is, and the
// clock starting again, would say that the hidden action happened.
func (f *Feed[S]) ToAct(seat int, due time.Time) {
	if f == nil || f.turned == f.public {
		return
	}
	f.turned = f.public
	if tu, ok := f.sp.(Turner); ok {
		tu.ToAct(f.id, seat, due)
	}
}

// due is when the action of seat, given timeout, is due from now (zero
// for the house AI).
func (m *match) due(seat int, timeout time.Duration) time.Time {
	if m.seats[seat].c == nil {
		return time.Time{}
	}
	return time.Now().Add(timeout)
}
