package submarine

// ViewInto stores View(seat) in *v. It is View without the intermediate
// copy, for loops that play many games (the arena).
func (g *Game) ViewInto(seat int, v *View) {
	v.Me = g.fleets[seat]
	v.EnemyHP = g.fleets[1-seat].HP
}
