package belief

import (
	"fmt"
	"math"
	"strings"

	"github.com/kaisen-ai/kaisen/game/grid"
)

// HeatStyle chooses how Heatmap draws a probability.
type HeatStyle uint8

const (
	// Percent draws every cell as a rounded percentage, 3 characters wide,
	// cells separated by one space: "  ." for exactly 0, " <1" for less than
	// 0.5%, "100" for 1, "  #" for a rock.
	Percent HeatStyle = iota
	// Shade draws every cell as one character of the ramp " .:-=+*%@",
	// scaled so that the largest probability on the board gets '@' (any
	// positive value gets at least '.'); rocks are 'X'.
	Shade
)

// shadeRamp is the Shade ramp, from empty to the largest value.
const shadeRamp = " .:-=+*%@"

// Heatmap renders p, a probability per cell index of b (len(p) must be at least
// b.Size(); missing entries count as 0), as one text line per board row, row 0
// first, each line ending with "\n". Values are clamped to [0, 1]; NaN counts
// as 0.
func Heatmap(b *grid.Board, p []float64, style HeatStyle) string {
	if b == nil {
		return ""
	}
	val := func(c grid.Cell) float64 {
		if int(c) >= len(p) {
			return 0
		}
		v := p[c]
		if math.IsNaN(v) || v < 0 {
			return 0
		}
		return min(v, 1)
	}
	top := 0.0
	for c := range b.Size() {
		top = max(top, val(grid.Cell(c)))
	}
	var sb strings.Builder
	for y := range b.Height() {
		for x := range b.Width() {
			c, _ := b.At(x, y)
			v := val(c)
			switch style {
			case Shade:
				switch {
				case !b.IsUsable(c):
					sb.WriteByte('X')
				case v == 0:
					sb.WriteByte(shadeRamp[0])
				default:
					k := int(math.Ceil(v / top * float64(len(shadeRamp)-1)))
					sb.WriteByte(shadeRamp[min(max(k, 1), len(shadeRamp)-1)])
				}
			default:
				if x > 0 {
					sb.WriteByte(' ')
				}
				switch {
				case !b.IsUsable(c):
					sb.WriteString("  #")
				case v == 0:
					sb.WriteString("  .")
				case v < 0.005:
					sb.WriteString(" <1")
				default:
					fmt.Fprintf(&sb, "%3d", int(math.Round(v*100)))
				}
			}
		}
		sb.WriteByte('\n')
	}
	return sb.String()
}
