package wire

import "github.com/kaisen-ai/kaisen/protocol"

// stateKey is the key of the state object in result lines.
func stateKey(d protocol.Dialect) string {
	if d == protocol.SubmarinePy {
		return "observation"
	}
	return "condition"
}

// enemyKey is the key of the enemy's ships inside the state object.
func enemyKey(d protocol.Dialect) string {
	if d == protocol.SubmarinePy {
		return "opponent"
	}
	return "enemy"
}
