package battleship

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
)

func TestParsePosition(t *testing.T) {
	tests := []struct {
		name      string
		text      string
		fleet     []int
		wantW     int
		wantH     int
		wantFleet []int
		wantRocks int
		wantErr   string
	}{
		{name: "classic empty", text: "..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n..........\n", wantW: 10, wantH: 10, wantFleet: DefaultFleet()},
		{name: "comments, fleet, spaces", text: "// a test\nfleet: 2,1\n\n. o x\n# . .\n", wantW: 3, wantH: 2, wantFleet: []int{2, 1}},
		{name: "fleet argument", text: "...\n...", fleet: []int{1}, wantW: 3, wantH: 2, wantFleet: []int{1}},
		{name: "upper case and rocks", text: "-O.\n.X-", wantW: 3, wantH: 2, wantFleet: DefaultFleet()[9:], fleet: []int{1}, wantRocks: 2},
		{name: "ragged", text: "...\n..", wantErr: "row has 2 cells"},
		{name: "bad char", text: "..?", wantErr: `"?" is not one of`},
		{name: "no rows", text: "// nothing\n", wantErr: "no rows"},
		{name: "late fleet", text: "..\nfleet: 1", wantErr: "must come before"},
		{name: "bad fleet", text: "fleet: 0\n..", wantErr: "length"},
		{name: "fleet does not fit", text: "fleet: 3,3,1\n...\n...", wantErr: "needs 7 cells"},
		{name: "too big", text: "................\n................\n................\n................\n................\n................\n................\n................\n................\n................\n................\n................\n................\n................\n................\n................\n................", wantErr: "more than 256 cells"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := ParsePosition(tt.text, tt.fleet)
			if tt.wantErr != "" {
				require.ErrorIs(t, err, ErrPosition)
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tt.wantW, p.Rules.Board.Width())
			require.Equal(t, tt.wantH, p.Rules.Board.Height())
			require.Equal(t, tt.wantFleet, p.Rules.Fleet)
			require.Len(t, p.Rules.Board.Rocks(), tt.wantRocks)
			back, err := ParsePosition(p.Text(), nil)
			require.NoError(t, err)
			require.Equal(t, p.Marks, back.Marks)
			require.Equal(t, p.Rules.Fleet, back.Rules.Fleet)
		})
	}
}

func TestPositionRecord(t *testing.T) {
	r := DefaultRules()
	p := NewPosition(r)
	p.Record(Result{At: 5, Outcome: Miss})
	p.Record(Result{At: 20, Outcome: Hit})
	p.Record(Result{At: 21, Outcome: Hit})
	p.Record(Result{At: 22, Outcome: Kill, Sunk: Ship{20, 21, 22}})
	p.Record(Result{At: 21, Outcome: Hit, Repeat: true}) // stays sunk
	p.Record(Result{At: 300, Outcome: Hit})              // ignored
	require.Equal(t, Water, p.Marks[5])
	require.Equal(t, grid.Of(20, 21, 22), p.Set(Sunk))
	rem, err := p.Remaining()
	require.NoError(t, err)
	require.Equal(t, []int{4, 3, 2, 2, 2, 1, 1, 1, 1}, rem)
	require.Equal(t, ".....o....\n..........\n###.......\n", p.String()[:33])
}

func FuzzParsePosition(f *testing.F) {
	f.Add("fleet: 2,1\n....\n.o..\n..x.\n#...")
	f.Add("..........\n..........\n")
	f.Add("-o-\nx#x\n")
	f.Add("fleet: 1:4,2:3\n. . .\n")
	f.Add("// c\n\n##\n##")
	f.Fuzz(func(t *testing.T, text string) {
		p, err := ParsePosition(text, nil)
		if err != nil {
			require.ErrorIs(t, err, ErrPosition)
			return
		}
		require.Len(t, p.Marks, p.Rules.Board.Size())
		back, err := ParsePosition(p.Text(), nil)
		require.NoError(t, err)
		require.Equal(t, p.Marks, back.Marks)
		require.Equal(t, p.Rules.Fleet, back.Rules.Fleet)
	})
}
