package game

// Legal is the optional piece of the contract that lists a game's moves:
// rules that implement it let a host enumerate the legal actions of a game
// in play and copy a position. The conformance suite (game/conformance)
// counts pinned perft numbers with it and plays random legal games; every
// game of the registry implements it.
type Legal[G, A any] interface {
	// Legal lists the legal actions of the seat to act in g, in a fixed
	// order; none once g is over. Every action listed is accepted by
	// g.Apply, and every action Apply accepts is listed.
	Legal(g G) []A
	// Clone returns an independent copy of g: applying an action to one
	// changes nothing in the other.
	Clone(g G) G
}
