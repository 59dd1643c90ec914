package keystream_test

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/internal/keystream"
)

// TestFromSeedPinned pins the derivation: a configured seed must keep
// giving the same games from one release to the next.
func TestFromSeedPinned(t *testing.T) {
	k := keystream.FromSeed(42)
	require.Equal(t, uint64(0xd1a905c2e8963e32 /* Python's hmac and hashlib agree */), k.Uint64("server game", 0, 1, 1))
	require.Equal(t, k.Uint64("server game", 0, 1, 1), keystream.FromSeed(42).Uint64("server game", 0, 1, 1))
	require.Equal(t, k.Rand("web house", 3).Uint64(), keystream.FromSeed(42).Rand("web house", 3).Uint64())
}

// TestNamesAreDistinct: a different key, label or id gives another seed,
// and no two names share an encoding.
func TestNamesAreDistinct(t *testing.T) {
	k := keystream.FromSeed(7)
	tests := []struct {
		name string
		a, b [keystream.Size]byte
	}{
		{"other seed", k.Sum("x", 1), keystream.FromSeed(8).Sum("x", 1)},
		{"other label", k.Sum("x", 1), k.Sum("y", 1)},
		{"other id", k.Sum("x", 1), k.Sum("x", 2)},
		{"id order", k.Sum("x", 1, 2), k.Sum("x", 2, 1)},
		{"more ids", k.Sum("x", 1), k.Sum("x", 1, 0)},
		{"label bytes against ids", k.Sum("x\x00\x00\x00\x00\x00\x00\x00\x01"), k.Sum("x", 1)},
		{"drawn keys", keystream.New().Sum("x"), keystream.New().Sum("x")},
		{"drawn against zero", keystream.New().Sum("x"), keystream.Key{}.Sum("x")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			require.NotEqual(t, tt.a, tt.b)
		})
	}
	require.True(t, keystream.Key{}.IsZero())
	require.False(t, keystream.New().IsZero())
	require.False(t, keystream.FromSeed(0).IsZero())
}

// TestKeyNeverPrints formats a key in every way a log line or a message
// could, and looks for any part of its secret in the output.
func TestKeyNeverPrints(t *testing.T) {
	k := keystream.FromSeed(99)
	// The key's bytes, as FromSeed documents them.
	sum := sha256.Sum256(binary.LittleEndian.AppendUint64([]byte("kaisen keystream v1: key from seed\x00"), 99))
	raw := sum[:]
	require.Equal(t, k.Sum("x"), hmacSum(raw, "x"), "the key is what FromSeed documents")
	type holder struct {
		Key keystream.Key
		P   *keystream.Key
	}
	h := holder{Key: k, P: &k}
	var outs []string
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d", "%b", "%o"} {
		outs = append(outs, fmt.Sprintf(verb, k), fmt.Sprintf(verb, h))
	}
	outs = append(outs, fmt.Sprint(k), fmt.Sprintln(k), fmt.Sprint(&k))
	js, err := json.Marshal(h)
	require.NoError(t, err)
	outs = append(outs, string(js))
	var text, jsonl bytes.Buffer
	slog.New(slog.NewTextHandler(&text, nil)).Info("start", "key", k, "holder", h)
	slog.New(slog.NewJSONHandler(&jsonl, nil)).Info("start", "key", k, "holder", h)
	outs = append(outs, text.String(), jsonl.String())
	for _, o := range outs {
		require.Contains(t, o, "redacted", o)
		for _, enc := range []string{hex.EncodeToString(raw[:4]), strings.ToUpper(hex.EncodeToString(raw[:4])),
			base64.StdEncoding.EncodeToString(raw)[:8], strings.Trim(fmt.Sprint(raw[:4]), "[]"), strings.Trim(fmt.Sprintf("%o", raw[:4]), "[]")} {
			require.NotContains(t, o, enc, "bytes of the key")
		}
	}
}

// hmacSum is Key.Sum as documented, for a key's raw bytes.
func hmacSum(key []byte, label string, ids ...uint64) [keystream.Size]byte {
	m := hmac.New(sha256.New, key)
	b := binary.BigEndian.AppendUint64(nil, uint64(len(label)))
	b = append(b, label...)
	for _, id := range ids {
		b = binary.BigEndian.AppendUint64(b, id)
	}
	m.Write(b)
	return [keystream.Size]byte(m.Sum(nil))
}
