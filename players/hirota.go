package players

import (
	"math/rand/v2"

	"github.com/kaisen-ai/kaisen/game/submarine"
)

// HirotaSource names the published player that hirota ports: file, commit
// of the repository HKodai/submarine (docs/hirota.md).
const HirotaSource = "HKodai/submarine players/hirota_player.py @ 066668087808238bc7ed6e1ef568f23e61792829"

// NewHirota returns a port of the published hirota_player (HKodai/submarine;
// docs/hirota.md) for rules (which must be valid and small enough for an
// explicit joint belief): the joint-greedy player with DefaultHirotaConfig.
// Its random choices (placement, ties) come from rng.
//
// What it does, as the original: it places its ships pairwise at least 3
// apart (Chebyshev), the battleship off column 0 and row 0; it keeps the
// set of every placement of both fleets consistent with what both sides were
// told (the near report of a hit is not used); each turn a ship of ours
// that the enemy has located (probability 1) in its reach (probability 1)
// flees to a cell surely out of the enemy's reach, unless we are ahead on hp
// (or level with a located enemy ship in our reach); else it attacks the cell
// in reach maximising sum of P(ship)/hp (ties at random); when no cell in
// reach may hold a ship, it approaches a likely enemy cell when ahead on hp,
// and otherwise attacks where the enemy most expects our ships.
func NewHirota(rules *submarine.Rules, rng *rand.Rand) (*JointGreedy, error) {
	return NewJointGreedy(rules, DefaultHirotaConfig(), rng)
}
