package replay

import (
	"testing"

	"github.com/stretchr/testify/require"
)

func TestColumnName(t *testing.T) {
	for _, tc := range []struct {
		x        int
		cyrillic bool
		want     string
	}{
		{0, false, "A"}, {9, false, "J"}, {10, false, "K"}, {25, false, "Z"}, {26, false, "AA"}, {27, false, "AB"}, {52, false, "BA"}, {255, false, "IV"},
		{0, true, "а"}, {8, true, "и"}, {9, true, "к"}, {10, true, "л"}, {27, true, "я"}, {28, true, "аа"},
	} {
		require.Equal(t, tc.want, columnName(tc.x, tc.cyrillic), "column %d cyrillic %t", tc.x, tc.cyrillic)
	}
}
