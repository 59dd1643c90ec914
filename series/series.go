package series

// End is how one game of a series ended, from one player's side.
type End struct {
	Game   int // index of the game in its series, from 0
	Seat   int // the player's seat in that game
	First  int // the seat that acted first
	Winner int // the winning seat, -1 on a draw
}

// Won reports whether the player won the game.
func (e End) Won() bool { return e.Winner >= 0 && e.Winner == e.Seat }

// Lost reports whether the player lost the game.
func (e End) Lost() bool { return e.Winner >= 0 && e.Winner != e.Seat }

// Draw reports whether the game was drawn.
func (e End) Draw() bool { return e.Winner < 0 }
