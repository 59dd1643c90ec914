package game

// Status says whether a game is running and, once it is over, how it ended.
// Every game's outcomes map onto it: a win for one seat (Won, with the winner
// given apart as a seat) or a draw (Drawn, when the game's draw limit is
// reached).
type Status uint8

// The statuses.
const (
	Running Status = iota // the game goes on
	Won                   // one seat won (by the rules or by the other's forfeit)
	Drawn                 // the draw limit was reached
)
