// Package game is the game contract: the interfaces every game implements
// (State, Rules, Player, Factory, Learner, and Legal, the optional listing
// of moves that perft and the conformance suite use; StepInto and
// RefObserver, the optional ways a large step or observation is handed
// over without a copy), the one play loop
// that hosts run them with (Table, with a Recorder), and the vocabulary
// every rules package shares: how a game stands (Status). Package
// game/conformance is the suite every game passes. Each game's rules live in a package below it
// (game/submarine, game/battleship, game/abilities), and each of them
// speaks this vocabulary in the same words:
//
//   - Game.ToAct is the seat to act now;
//   - Game.Status is how the game stands, and Game.Winner the winning seat
//     (-1 while running or on a draw);
//   - Game.Apply(action) returns (Step, error): the Step says what each seat
//     is told and carries the Status after the action; the error says why the
//     action was refused (it wraps the game's ErrIllegal, or says the game is
//     over).
//
// A package may add names where its game has more to say (abilities'
// Game.Turn is the attacker, whose turn it is, while ToAct is the defender
// when a question is pending).
//
// The contract (contract.go) and the host Table (table.go) are written
// against these words. A game's record includes its public view
// (public.go): each game's View says what a spectator may see of every
// action (what both seats are told), for the hosts that show games live.
//
// ClientCodec (client.go) is the client side of a game's wire codec: each
// game's wire package (game/<g>/wire, or the game's folder: game/sonar)
// implements it, and package client's one connection loop plays any game
// through it. ServerCodec (server.go) is its server side, which package
// server's one turn loop serves any game through.
package game
