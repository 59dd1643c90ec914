// Package human seats a person at a terminal (or a script behind a pipe)
// in any game, written once over the game contract (package game):
//
//   - Person is the seat: a game.Player whose Place and Act read typed
//     lines and whose Observe reports what the seat is told, through the
//     game's Text (parse a typed placement and action, with the reason for
//     a refusal; say an observation; draw the person's boards). A typo or
//     an illegal action is refused with the reason and asked again, never
//     sent, so it cannot forfeit the game; the end of the input resigns or
//     passes (Text.Resign).
//   - Play is the one in-process loop of a person against an AI
//     (kaisen play --human --against): game.Table, the arena's replay
//     recorder, the AI's reasons kept for the end of the game; the game's
//     part beyond its rules is a Local (its replay, its actions in words,
//     its end; ResultEnd is the end of a game with no words of its own).
//   - Typed, part of every Text, is the typed form of a game's placements
//     and actions (PlaceLine, Line) and the parse of an action line
//     (Parse): Parse(Line(a)) is a for every legal action, which the
//     conformance suite checks (its text check). NewTypist seats a
//     scripted person: an AI of the game that types its lines through the
//     Text (games.HumanOptions.Typist and HumanClientOptions.Typist, the
//     matrix test's human seats in-process and on a server).
//
// Each built-in game's Text and Local is one file: submarine.go (Seat,
// New, SubmarineText, PlayAgainstWith), battleship.go (BattleshipSeat,
// NewBattleship, BattleshipText, PlayBattleshipAgainstWith), abilities.go
// and abilities_know.go (AbilitiesSeat, NewAbilities, AbilitiesText,
// ParseAbilities, PlayAbilitiesAgainstWith). A game defined by its
// games.Def alone writes its Text in its own folder (game/sonar/text.go).
// The seats are also the players of each game's network client (kaisen
// play --human --addr). The Texts live here, not in the game folders: they
// draw with the replay package's boards and place with the players' and
// beliefs' placers, which the game packages do not import.
//
// Hidden stays hidden: everything a seat writes to its io.Writer before
// the game is over is a function of what the rules tell that seat
// (Observe) and of the person's own input, so a host that drives a seat
// through its constructor and its player interface prints nothing the
// rules keep secret. The AI's reasons come after EndHeader, or during
// play only when the host sets AfterOpponent (Options.Reveal, kaisen play
// --reveal-ai), which reveals the AI's fleet.
// TestSeatPrintsOnlyPublicEvents and
// TestAbilitiesSeatPrintsOnlyPublicEvents check it for every AI of every
// game.
package human
