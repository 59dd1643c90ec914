package ladder

import "math"

// The damping of games against provisional opponents (docs/ladder.md,
// Farming). A sock puppet that throws its games makes its opponent look
// strong only as far as the puppet's own rating is believed, and a new
// bot's rating rests on nothing: so a game moves a bot's rating in full
// only when its opponent has met ProvisionalOpponents different bots in
// rated games. Against a provisional opponent it counts as Weight of a
// game, smaller the fewer bots the opponent has met and the more often
// these two have met already. Once the ladder has established bots, only
// established opponents count as met (metCounts): puppets that meet only
// one another stay provisional.
const (
	// ProvisionalOpponents is how many different bots a bot must have met
	// in rated games before its games count in full for its opponents.
	ProvisionalOpponents = 5
	// MinWeight is the weight of a first game against a bot that has met
	// no one.
	MinWeight = 0.04
)

// Reasons a stored game changed no rating (Game.Unrated).
const (
	// UnratedSameOwner: both bots were registered by one owner.
	UnratedSameOwner = "same_owner"
	// UnratedSameNetwork: both bots connected from one network (the
	// server's Game.Networks: the /24 of IPv4, the /48 of IPv6).
	UnratedSameNetwork = "same_network"
)

// Weight is the weight of a game in a bot's Glicko-2 update
// (UpdateWeighted) against an opponent that has met opponents different
// bots in rated games (counted as metCounts counts them), when the two have played meetings rated games
// before this one. An established opponent (ProvisionalOpponents or more)
// weighs 1: Glicko-2 unchanged. A provisional one weighs
//
//	(MinWeight + (1 - MinWeight) x (opponents / ProvisionalOpponents)^2) / (1 + meetings)
//
// so that a new bot's first games barely move anyone, and repeating
// games against the same provisional bot adds less each time: the
// weights of n games against one provisional bot sum to less than
// about (ln n + 1) times the first one's.
func Weight(opponents, meetings int) float64 {
	if opponents >= ProvisionalOpponents {
		return 1
	}
	f := float64(max(opponents, 0)) / ProvisionalOpponents
	return (MinWeight + (1-MinWeight)*math.Pow(f, 2)) / float64(1+max(meetings, 0))
}

// metCounts is what the first rated meeting of two bots adds to each
// one's count of opponents, given their counts before it and how many
// bots of the ladder are established (a count of ProvisionalOpponents or
// more). A bot counts an opponent that is established, so that a clique of puppets meeting only one another
// never becomes established on a ladder that has established bots. While
// the ladder has fewer than ProvisionalOpponents + 1 established bots
// (it is starting), every opponent counts: someone has to be first.
func metCounts(opponents [2]int, established int) [2]int {
	if established <= ProvisionalOpponents {
		return [2]int{1, 1}
	}
	var out [2]int
	for i := range 2 {
		if opponents[1-i] >= ProvisionalOpponents {
			out[i] = 1
		}
	}
	return out
}

// unratedReason says why game g between bots of owners owners changes no
// rating ("" when it is rated).
func unratedReason(g *Game, owners [2]string) string {
	if owners[0] != "" && Skeleton(owners[0]) == Skeleton(owners[1]) {
		return UnratedSameOwner
	}
	if g.Networks[0] != "" && g.Networks[0] == g.Networks[1] {
		return UnratedSameNetwork
	}
	return ""
}
