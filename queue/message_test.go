package queue_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/jobs"
	"github.com/kaisen-ai/kaisen/queue"
	"github.com/kaisen-ai/kaisen/tune"
)

func TestDecodeItem(t *testing.T) {
	head := `"v":2,"run":"r","shard":1,"shards":1,"seed":4,"games":5,"total":5`
	match := `"match":{"game":"submarine","p1":{"name":"random","weights":"a: 1"},"p2":{"name":"random"}}`
	tournament := `"tournament":{"game":"submarine","entries":[{"entry":"random"},{"entry":"random@b","weights":"x: 1"}],"bootstrap":9}`
	shots := `"shots":{"player":"gridbot","width":6,"height":6,"fleet":[3,2,1],"placer":"uniform"}`
	for _, tc := range []struct{ name, data string }{
		{"match", `{` + head + `,"kind":"match","args":{"p1":"random"},` + match + `}`},
		{"tournament", `{"v":2,"run":"r","shard":2,"shards":3,"seed":4,"games":5,"total":5,"kind":"tournament",` + tournament + `}`},
		{"shots", `{` + head + `,"kind":"shots",` + shots + `}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it, err := queue.DecodeItem([]byte(tc.data))
			require.NoError(t, err)
			require.Equal(t, tc.name, it.Kind)
			require.Equal(t, "r."+fmt.Sprint(it.Shard), it.Key())
		})
	}
	for _, tc := range []struct{ name, data, want string }{
		{"no version", `{"run":"r"}`, `no version field`},
		{"version 3", `{"v":3,"run":"r","future":true}`, "version 3, this kaisen reads version 2"},
		{"version 1 command line", `{"v":1,"run":"r","shard":1,"shards":1,"command":"match","args":["--p1=random"],"games":1,"total":1}`,
			"version 1, this kaisen reads version 2"},
		{"unknown key", `{` + head + `,"kind":"match",` + match + `,"x":1}`, `unknown field "x"`},
		{"command line", `{` + head + `,"kind":"match","command":"match",` + match + `}`, `unknown field "command"`},
		{"bad run id", `{"v":2,"run":"a.b","shard":1,"shards":1,"games":1,"total":1,"kind":"match",` + match + `}`, "run id"},
		{"shard past N", `{"v":2,"run":"r","shard":4,"shards":3,"games":9,"total":9,"kind":"match",` + match + `}`, "4/3"},
		{"empty shard", `{"v":2,"run":"r","shard":1,"shards":3,"games":2,"total":2,"kind":"match",` + match + `}`, "has no game"},
		{"other kind", `{` + head + `,"kind":"ladder"}`, `kind "ladder"`},
		{"no settings", `{` + head + `,"kind":"match"}`, "holds the settings of its kind"},
		{"settings of another kind", `{` + head + `,"kind":"match",` + shots + `}`, "holds the settings of its kind"},
		{"two settings", `{` + head + `,"kind":"match",` + match + `,` + shots + `}`, "holds the settings of its kind"},
		{"match without a player", `{` + head + `,"kind":"match","match":{"game":"submarine","p1":{"name":"random"},"p2":{}}}`, "both players"},
		{"tournament of one", `{` + head + `,"kind":"tournament","tournament":{"game":"submarine","entries":[{"entry":"random"}]}}`, "at least two entries"},
		{"tournament games", `{"v":2,"run":"r","shard":1,"shards":1,"seed":4,"games":5,"total":6,"kind":"tournament",` + tournament + `}`, "not 1 pairs of 5 games"},
		{"match total", `{"v":2,"run":"r","shard":1,"shards":1,"seed":4,"games":5,"total":6,"kind":"match",` + match + `}`, "-n games in all: 5, not 6"},
		{"shots without a placer", `{` + head + `,"kind":"shots","shots":{"player":"gridbot"}}`, "player and placer"},
		{"trailing data", `{` + head + `,"kind":"match",` + match + `}{}`, "after top-level value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := queue.DecodeItem([]byte(tc.data))
			require.ErrorContains(t, err, tc.want)
		})
	}
}

// TestItemVersions: items are version 2 and refuse any other version with
// ErrVersion; results and checkpoints stay version 1, so a run's stored
// results still read.
func TestItemVersions(t *testing.T) {
	it := queue.Item{Run: "r", Shard: 1, Shards: 1, Games: 1, Total: 1, Kind: "shots",
		Shots: &jobs.Shots{Player: "gridbot", Width: 6, Height: 6, Fleet: []int{3}, Placer: "uniform"}}
	data, err := queue.Encode(&it)
	require.NoError(t, err)
	require.Contains(t, string(data), `{"v":2,`)
	_, err = queue.DecodeItem(bytes.Replace(data, []byte(`"v":2`), []byte(`"v":1`), 1))
	require.ErrorIs(t, err, queue.ErrVersion)
	res := queue.Result{Run: "r", Shard: 1, Worker: "w", Workers: 1, Error: "x"}
	data, err = queue.Encode(&res)
	require.NoError(t, err)
	require.Contains(t, string(data), `{"v":1,`)
	_, err = queue.DecodeResult(bytes.Replace(data, []byte(`"v":1`), []byte(`"v":2`), 1))
	require.ErrorIs(t, err, queue.ErrVersion)
}

func TestDecodeResult(t *testing.T) {
	_, err := queue.DecodeResult([]byte(`{"v":1,"run":"r","shard":1,"worker":"w","workers":2,"error":"boom"}`))
	require.NoError(t, err)
	_, err = queue.DecodeResult([]byte(`{"v":1,"run":"r","shard":1,"worker":"w","workers":2}`))
	require.ErrorContains(t, err, "not both or neither")
	_, err = queue.DecodeResult([]byte(`{"v":0,"run":"r"}`))
	require.ErrorIs(t, err, queue.ErrVersion)
}

// FuzzDecodeItem: no input panics the decoder, and an accepted item
// encodes and decodes to itself.
func FuzzDecodeItem(f *testing.F) {
	f.Add([]byte(`{"v":2,"run":"r","shard":2,"shards":3,"seed":4,"games":5,"total":5,"kind":"match","args":{"p1":"random"},` +
		`"match":{"game":"submarine","p1":{"name":"random","weights":"a: 1"},"p2":{"name":"random"},"rules":"game: submarine"}}`))
	f.Add([]byte(`{"v":2,"run":"r","shard":1,"shards":1,"seed":4,"games":5,"total":5,"kind":"tournament",` +
		`"tournament":{"game":"submarine","entries":[{"entry":"a"},{"entry":"a@b","weights":"x: 1"}],"bootstrap":9}}`))
	f.Add([]byte(`{"v":1,"run":"r","shard":2,"shards":3,"command":"match","args":["--p1=random"],"seed":4,"games":5,"total":5}`))
	f.Add([]byte(`{"v":3}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		it, err := queue.DecodeItem(data)
		if err != nil {
			return
		}
		again, err := queue.Encode(&it)
		require.NoError(t, err)
		back, err := queue.DecodeItem(again)
		require.NoError(t, err)
		require.Equal(t, it, back)
	})
}

// FuzzDecodeResult: no input panics the decoder, and an accepted result
// encodes and decodes to itself; its shard file is read without panic.
func FuzzDecodeResult(f *testing.F) {
	f.Add([]byte(`{"v":1,"run":"r","shard":1,"worker":"w","workers":2,"file":"{}\n{}\n"}`))
	f.Add([]byte(`{"v":1,"run":"r","shard":1,"worker":"w","workers":2,"error":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := queue.DecodeResult(data)
		if err != nil {
			return
		}
		again, err := queue.Encode(&r)
		require.NoError(t, err)
		back, err := queue.DecodeResult(again)
		require.NoError(t, err)
		require.Equal(t, r, back)
		_, _ = r.ShardFile()
	})
}

// FuzzDecodeCheckpoint: no input panics the checkpoint decoder, and an
// accepted checkpoint has as many values as keys.
func FuzzDecodeCheckpoint(f *testing.F) {
	f.Add([]byte(`{"v":1,"checkpoint":{"meta":{"seed":"1"},"state":{"seed":1,"keys":["a"],"iter":1,"theta":[0.5],"avg":null,"avg_n":0,"games":10,"history":null}}}`))
	f.Add([]byte(`{"v":1,"checkpoint":{"state":{"keys":["a"],"theta":[]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		ck, err := queue.DecodeCheckpoint(data)
		if err != nil {
			return
		}
		require.Len(t, ck.State.Theta, len(ck.State.Keys))
		_ = tune.Checkpoint(ck)
	})
}
