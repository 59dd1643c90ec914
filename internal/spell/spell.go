// Package spell suggests, for a misspelt name (a player, a game, a bot, a
// flag), the known names it was most likely meant to be: the "did you
// mean" of the CLI's errors.
package spell

import (
	"fmt"
	"slices"
	"strings"
)

// DidYouMean is " (did you mean X?)" or " (did you mean X or Y?)" with the
// names of known closest to name (at most two edits away, or one of them
// starting with name), "" when none is close.
func DidYouMean(name string, known []string) string {
	s := Suggest(name, known)
	if len(s) == 0 {
		return ""
	}
	return fmt.Sprintf(" (did you mean %s?)", strings.Join(s, " or "))
}

// Suggest returns the names of known closest to name: the fewest edits
// (case aside: a name that differs only in case comes first), at most 2,
// or a name name is the start of; at most three, in the order of known.
func Suggest(name string, known []string) []string {
	low := strings.ToLower(name)
	best, out := 3, []string(nil)
	for _, k := range known {
		if k == name {
			continue
		}
		kl := strings.ToLower(k)
		d := editDistance(low, kl) // 0: the name but for case
		if len(low) >= 2 && strings.HasPrefix(kl, low) {
			d = min(d, 1)
		}
		switch {
		case d < best:
			best, out = d, []string{k}
		case d == best && !slices.Contains(out, k):
			out = append(out, k)
		}
	}
	if len(out) > 3 {
		out = out[:3]
	}
	return out
}

// editDistance is the Levenshtein distance between a and b (in runes).
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}
