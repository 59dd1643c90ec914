package explain

import "math"

// Heatmap is one picture of a player's belief when it chose its action: a
// value in [0, 1] per cell of a W x H board, by cell index y*W + x (rocks
// and cells the picture does not cover are 0).
//
// Side says whose ships the picture is about: SideEnemy for where the player
// believes the enemy's ships are, SideOwn for what the player believes the
// enemy knows of its own fleet (its exposure). Name says what is drawn, e.g.
// "w" (one ship's marginal), "any ship" (the probability that some ship is
// on the cell) or "density" (Battleship: the share of consistent layouts
// with a ship on the cell).
type Heatmap struct {
	Name  string    `json:"name"`
	Side  string    `json:"side"`
	W     int       `json:"w"`
	H     int       `json:"h"`
	Cells []float64 `json:"cells"`
}

// Sides of a Heatmap.
const (
	SideEnemy = "enemy" // the enemy fleet, as the player believes it
	SideOwn   = "own"   // the player's own fleet, as the player believes the enemy knows it
)

// heatDigits is the precision NewHeatmap keeps: 1e-4 is finer than any
// colour scale and keeps replays short.
const heatDigits = 1e4

// NewHeatmap returns the Heatmap of the first w*h values of p (missing
// values count as 0), each clamped to [0, 1] (NaN counts as 0) and rounded
// to 4 decimals.
func NewHeatmap(name, side string, w, h int, p []float64) Heatmap {
	cells := make([]float64, max(w*h, 0))
	for i := range cells {
		if i >= len(p) || math.IsNaN(p[i]) {
			continue
		}
		cells[i] = math.Round(min(max(p[i], 0), 1)*heatDigits) / heatDigits
	}
	return Heatmap{Name: name, Side: side, W: w, H: h, Cells: cells}
}

// Mapper is implemented by players that can draw their beliefs at their
// last action. Hosts ask for the pictures only when explanations are
// recorded (they cost more than the action), with Full.
type Mapper interface {
	Heatmaps() []Heatmap
}

// Full returns e's explanation of its last action and, when e is also a
// Mapper, its heatmaps.
func Full(e Explainer) Decision {
	d := e.Explain()
	if m, ok := e.(Mapper); ok {
		d.Heatmaps = m.Heatmaps()
	}
	return d
}
