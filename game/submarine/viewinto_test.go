package submarine

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestViewIntoEqualsView(t *testing.T) {
	g := newGame(t, Placement{xy(0, 0), xy(1, 0), xy(2, 0)}, Placement{xy(0, 1), xy(4, 4), xy(2, 2)})
	for _, a := range []Action{AttackAt(xy(0, 1)), MoveTo(0, xy(4, 3)), AttackAt(xy(1, 1)), AttackAt(xy(4, 4))} {
		g.Apply(a)
		for seat := range 2 {
			v := View{EnemyHP: [MaxShips]int8{9, 9, 9}} // stale contents are overwritten
			g.ViewInto(seat, &v)
			require.Equal(t, g.View(seat), v)
		}
	}
}
