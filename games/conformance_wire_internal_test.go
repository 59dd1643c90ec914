package games

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/game/conformance"
	"github.com/kaisen-ai/kaisen/game/grid"
)

// TestConformanceWire runs the wire check on the built-in games' Defs
// (the check alone: their entries' Conformance builds every AI first):
// in each dialect, seeded games over the real server and client loops are
// the same games played in-process. The matrix's "wire dialects" column
// runs it through every registered game's entry, the test game's too.
func TestConformanceWire(t *testing.T) {
	for _, tt := range []struct {
		name  string
		check conformance.Check
	}{
		{"submarine", wireCheck(submarineDef())},
		{"battleship", wireCheck(battleshipDef())},
		{"abilities", wireCheck(abilitiesDef())},
	} {
		t.Run(tt.name, func(t *testing.T) { tt.check.Run(t) })
	}
}

// TestDump: the wire check's dump tells apart values that differ in any
// field, unexported and behind pointers included, and only those (a nil
// slice or map is an empty one, map order does not count).
func TestDump(t *testing.T) {
	type inner struct {
		n    int
		cell []int
	}
	type outer struct {
		Name string
		In   *inner
		Tags map[string]int
		Any  any
	}
	base := func() outer {
		return outer{Name: "a", In: &inner{n: 1, cell: []int{2, 3}}, Tags: map[string]int{"x": 1, "y": 2}, Any: 4}
	}
	for _, tt := range []struct {
		name string
		edit func(o *outer)
		same bool
	}{
		{"itself", func(*outer) {}, true},
		{"an unexported field behind a pointer", func(o *outer) { o.In.n = 5 }, false},
		{"an element of an unexported slice", func(o *outer) { o.In.cell[1] = 4 }, false},
		{"a nil pointer", func(o *outer) { o.In = nil }, false},
		{"a map value", func(o *outer) { o.Tags["y"] = 3 }, false},
		{"a map built in another order", func(o *outer) { o.Tags = map[string]int{"y": 2, "x": 1} }, true},
		{"an interface's dynamic type", func(o *outer) { o.Any = int64(4) }, false},
		{"a string", func(o *outer) { o.Name = "b" }, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := base()
			tt.edit(&got)
			require.Equal(t, tt.same, dump(got) == dump(base()), "%s\n%s", dump(got), dump(base()))
		})
	}
	require.Equal(t, dump([]int(nil)), dump([]int{}), "a nil slice reads as an empty one")
	require.Equal(t, dump(map[int]int(nil)), dump(map[int]int{}))
	type node struct{ next *node }
	loop := &node{}
	loop.next = loop
	require.Equal(t, "&{next:cycle}", dump(loop), "a cycle ends")
}

// TestSame: a value with an Equal method is compared by it, others by
// their dumps.
func TestSame(t *testing.T) {
	shoot := abilities.Action{Kind: abilities.Shoot, At: 7, To: grid.None}
	require.True(t, same(shoot, abilities.Action{Kind: abilities.Shoot, At: 7}), "a shot's To does not count")
	require.False(t, same(shoot, abilities.Action{Kind: abilities.Shoot, At: 8}))
	require.True(t, same([2]int{1, 2}, [2]int{1, 2}))
	require.False(t, same([2]int{1, 2}, [2]int{2, 1}))
}
