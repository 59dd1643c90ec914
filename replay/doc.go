// Package replay records submarine and Battleship games as JSON-lines
// files, reads them back, verifies them against the rules engine and draws
// them as ASCII boards. GameOf tells the two formats apart by the header's
// "game".
//
// A replay has one JSON object per line, each with a "type":
//
//	header     game, kaisen version, seed, rules, players and their seats
//	placement  one per seat, the cells of its ships in fleet order
//	step       one per action: who acted, the action, what each side was
//	           told (the actor's and the other side's Event) and, when
//	           recorded, the actor's Decision
//	result     outcome, winner, number of actions and forfeits
//
// Positions are [x, y] (x = column), as on the wire; ships are named as in
// the rules' fleet. docs/replays.md describes every field.
//
// Each game's API carries its name. Submarine replays: SubmarineWriter
// writes them, ReadSubmarine parses them, VerifySubmarine re-plays the
// recorded actions through submarine.Game and checks that every recorded
// Event and the result are exactly what the engine produces, so a replay is
// a proof of what happened, not just a log; RenderSubmarine draws the game
// turn by turn with both fleets side by side.
//
// Battleship replays (docs/battleship.md) have shot lines instead of step
// lines and cells as [row, col]: BattleshipWriter writes them (the arena and
// the turn server), ReadBattleship parses them strictly, VerifyBattleship
// re-plays every shot through battleship.Game and RenderBattleship lists the
// shots with letter+number coordinates (A1 = [0,0]) and draws both boards.
//
// SubmarineHTML and BattleshipHTML turn a verified replay into HTMLData, the
// data section of a self-contained web page that WriteHTML writes (script
// and style embedded, no network): both boards turn by turn, hp bars, and
// the players' recorded belief heatmaps (explain.Heatmap).
package replay
