// Package protocol is the generic layer of Kaisen's line protocols: what
// every game's wire codec shares. It holds
//
//   - line framing: LineReader, a bounded reader of "\n"-terminated lines
//     for any io.Reader (DefaultMaxLine, ErrLineTooLong);
//   - dialect detection: the dialects of the 2016 reference server
//     ("classic", compact JSON like the Ruby server, key order included)
//     and of the 2025 "submarine-py" servers (Python json.dumps spacing,
//     ", " and ": "), their greetings (ParseGreeting, ClassicGreeting) and
//     the fixed lines ("your turn", "waiting", the end lines);
//   - the series fork's round greetings and tally trailer, and the rated
//     listener's auth and refusal lines (AuthWord, RefusedPrefix);
//   - error lines: *ProtocolError, which quotes (a prefix of) a malformed
//     line and wraps one of ErrSyntax, ErrType, ErrUnknownShip, ErrFleet,
//     ErrUnexpected or ErrLineTooLong; {"error":...} and {"outcome":...}
//     lines (EncodeErrorLine, EncodeOutcome, ResultLine) and the outcome
//     values NoOutcome, Lost and Won;
//   - JSON field helpers for the codecs: Object and Members split a line
//     into its members in order, Integer, Boolean, Str, Array, Pair,
//     Position ([x, y]) and RowCol ([row, col]) read values strictly, and
//     Writer prints a line in a dialect's spacing.
//
// Each game's codec lives in its folder and builds on this package:
// game/submarine/wire (the submarine game, 潜水艦ゲーム, in both dialects,
// as specified in shared/spec/submarine.md), game/battleship/wire and
// game/abilities/wire. This package imports no game: only game/grid, the
// boards every position is on. It does no network I/O of its own besides
// LineReader. Encoders return one line without its trailing "\n".
//
// Decoders are strict about types and tolerant about form: integers must
// be JSON integers (1.5, 1.0, "1" and 1e0 are refused), positions have
// exactly two elements; any JSON spacing and a trailing "\r" are accepted,
// and valid JSON nested up to MaxNesting deep is accepted where a codec
// ignores a key. Every malformed line yields a *ProtocolError.
package protocol
