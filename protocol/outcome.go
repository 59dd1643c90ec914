package protocol

// Outcome values of the games' result lines: how the game stands for the
// side that receives the line.
const (
	NoOutcome = -1 // the game goes on (or ends in a draw)
	Lost      = 0  // "outcome": false
	Won       = 1  // "outcome": true
)

// EncodeOutcome prints {"outcome":true|false}: what both players of a
// Battleship or abilities game get when it ends by a forfeit other than an
// illegal action.
func EncodeOutcome(won bool) []byte {
	if won {
		return []byte(`{"outcome":true}`)
	}
	return []byte(`{"outcome":false}`)
}

// EncodeErrorLine prints {"error":"msg"}: why the server refuses the
// receiving player's line (it forfeits; the end lines follow).
func EncodeErrorLine(msg string) []byte {
	w := NewWriter(Classic, len(msg)+12)
	w.Raw(`{"error":`)
	w.Str(msg)
	w.Byte('}')
	return w.b
}

// ResultLine parses a result line of the Battleship-board codecs
// (Battleship, abilities) into its members and the keys every such line
// may have: "error" (its message into msg) and "outcome" (into outcome,
// left NoOutcome when absent, else Lost or Won); known counts the keys
// found. The caller reads its game's own keys from ms.
func ResultLine(line []byte, msg *string, outcome *int) (ms []Member, known int, err error) {
	*outcome = NoOutcome
	if ms, err = Object(line, "result line"); err != nil {
		return nil, 0, err
	}
	if raw, ok := Lookup(ms, "error"); ok {
		known++
		if *msg, err = Str(raw, `"error"`); err != nil {
			return nil, known, err
		}
	}
	if raw, ok := Lookup(ms, "outcome"); ok {
		known++
		won, err := Boolean(raw, `"outcome"`)
		if err != nil {
			return nil, known, err
		}
		*outcome = Lost
		if won {
			*outcome = Won
		}
	}
	return ms, known, nil
}
