package spell

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSuggest(t *testing.T) {
	known := []string{"random", "simple", "state", "stateplayer2", "admiral", "admiral-series", "hirota"}
	tests := []struct {
		name string
		want []string
	}{
		{"stateplayr2", []string{"stateplayer2"}},
		{"admirl", []string{"admiral"}},
		{"Admiral", []string{"admiral"}},            // the name but for case
		{"stat", []string{"state", "stateplayer2"}}, // one edit, and the start of a name
		{"zzzzzz", nil},
		{"admiral-", []string{"admiral", "admiral-series"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Suggest(tt.name, known))
		})
	}
	assert.Equal(t, " (did you mean battleship?)", DidYouMean("battleshp", []string{"submarine", "battleship", "abilities"}))
	assert.Equal(t, "", DidYouMean("chess", []string{"submarine", "battleship", "abilities"}))
}

func TestEditDistance(t *testing.T) {
	assert.Equal(t, 0, editDistance("", ""))
	assert.Equal(t, 3, editDistance("", "abc"))
	assert.Equal(t, 1, editDistance("gridbt", "gridbot"))
	assert.Equal(t, 1, editDistance("д5", "д6"))
}
