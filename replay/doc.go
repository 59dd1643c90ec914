// Package replay is the record every game shares: a replay is a JSON-lines
// file, one object per line, each with a "type":
//
//	header     the game (its name), kaisen version, seed, rules, players
//	           and their seats, the seat to act first
//	placement  one per seat, its hidden placement as the player returned it
//	action     one per action, its type the game's (a submarine "step", a
//	           Battleship "shot", an abilities "action"): who acted, what,
//	           what the rules answered and, when recorded, the actor's
//	           Decision
//	result     outcome, winner, the game's count and the forfeits
//
// Each game's record format lives in its folder (game/submarine/record,
// game/battleship/record, game/abilities/record; docs/replays.md describes
// every field): its line types, writer, strict reader, verification,
// text and HTML renderings, and the game.Recorder the hosts write replays
// with (NewRecorder on Start). This package holds what they share, written
// once:
//
//   - the framing: LineWriter (buffered lines with a sticky error),
//     WriteReplay (a whole replay, every game's WriteTo), ScanLines and
//     ReadLine (lines of at most MaxLine bytes), ReadFile, GameOf and
//     GameOfFile (the header's "game", to pick the game's reader), and the
//     header and result parts: SeatInfo, MatchRef, SeriesRef, Forfeit, the
//     outcomes and forfeit kinds, Version, Start, OutcomeOf and ForfeitsOf;
//   - verification by re-running the rules through the game contract:
//     Rerun plays a read replay again (Rules.Start, State.Apply) with the
//     game's Codec of its action lines and checks every recorded answer,
//     the turn order, the illegal action and the result (ErrMismatch), so
//     a replay is a proof of what happened, not just a log; Frames shows
//     the re-played game to the renderings frame by frame;
//   - adjudication for research runs (Adjudication, kaisen match
//     --adjudicate and --max-actions): the header's settings, the result's
//     reason, Adjudge's one decision for the hosts and the re-play, and
//     DrawJudge, a game's draw verdict (package adjudicate's for the
//     submarine game); Rerun accepts an adjudicated end only where the
//     header's adjudication fires;
//   - the renderings' common words (SeatName, WriteSeed, WriteSeats,
//     WriteForfeits, Summarize of a Decision, WriteSideBySide) and the HTML
//     page: NewHTMLData starts a game's HTMLData, WriteHTML writes it as a
//     self-contained page (script and style embedded, no network): both
//     boards turn by turn, hp bars, and the players' recorded belief
//     heatmaps (explain.Heatmap).
package replay
