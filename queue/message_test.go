package queue_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/queue"
	"github.com/kaisen-ai/kaisen/tune"
)

func TestDecodeItem(t *testing.T) {
	good := `{"v":1,"run":"r","shard":2,"shards":3,"command":"tournament","args":["--players=a,b"],"seed":4,"games":5,"total":15}`
	it, err := queue.DecodeItem([]byte(good))
	require.NoError(t, err)
	require.Equal(t, "r.2", it.Key())
	for _, tc := range []struct{ name, data, want string }{
		{"no version", `{"run":"r"}`, `no version field`},
		{"version 2", `{"v":2,"run":"r","future":true}`, "version 2, this kaisen reads version 1"},
		{"unknown key", `{"v":1,"run":"r","shard":1,"shards":1,"command":"match","games":1,"total":1,"x":1}`, `unknown field "x"`},
		{"bad run id", `{"v":1,"run":"a.b","shard":1,"shards":1,"command":"match","games":1,"total":1}`, "run id"},
		{"shard past N", `{"v":1,"run":"r","shard":4,"shards":3,"command":"match","games":9,"total":9}`, "4/3"},
		{"empty shard", `{"v":1,"run":"r","shard":1,"shards":3,"command":"match","games":2,"total":2}`, "has no game"},
		{"other command", `{"v":1,"run":"r","shard":1,"shards":1,"command":"ladder","games":1,"total":1}`, `command "ladder"`},
		{"reserved flag", `{"v":1,"run":"r","shard":1,"shards":1,"command":"match","args":["--out=/etc/passwd"],"games":1,"total":1}`, "--out is set by the worker"},
		{"replays", `{"v":1,"run":"r","shard":1,"shards":1,"command":"match","args":["--replays=d"],"games":1,"total":1}`, "--replays"},
		{"positional", `{"v":1,"run":"r","shard":1,"shards":1,"command":"match","args":["serve"],"games":1,"total":1}`, "want --NAME=VALUE"},
		{"file for a non-file flag", `{"v":1,"run":"r","shard":1,"shards":1,"command":"match","files":{"p1":"x"},"games":1,"total":1}`, "only weights and rules"},
		{"trailing data", good + `{}`, "after top-level value"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := queue.DecodeItem([]byte(tc.data))
			require.ErrorContains(t, err, tc.want)
		})
	}
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
	f.Add([]byte(`{"v":1,"run":"r","shard":2,"shards":3,"command":"match","args":["--p1=random"],"files":{"p1-weights":"a: 1"},"seed":4,"games":5,"total":5}`))
	f.Add([]byte(`{"v":2}`))
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
