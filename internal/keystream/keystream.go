package keystream

import (
	"crypto/hmac"
	crand "crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"log/slog"
	"math/rand/v2"
)

// Size is the width of a key in bytes (256 bits).
const Size = 32

// redacted is what a Key prints instead of itself.
const redacted = "keystream.Key(redacted)"

// Key is a secret from which streams are derived. The zero Key is not a
// secret (IsZero): use New or FromSeed.
type Key struct {
	b [Size]byte
}

// New draws a key from crypto/rand.
func New() Key {
	var k Key
	_, _ = crand.Read(k.b[:]) // never fails (crypto/rand panics rather)
	return k
}

// seedDomain separates FromSeed's hash from any other use of SHA-256.
const seedDomain = "kaisen keystream v1: key from seed\x00"

// FromSeed derives a key from an operator's seed:
// SHA-256(domain || seed as 8 little-endian bytes). The same seed gives the
// same key, hence the same streams: the seed is then the secret.
func FromSeed(seed uint64) Key {
	h := sha256.New()
	h.Write([]byte(seedDomain))
	h.Write(binary.LittleEndian.AppendUint64(nil, seed))
	var k Key
	h.Sum(k.b[:0])
	return k
}

// IsZero reports whether k is the zero Key (no secret at all).
func (k Key) IsZero() bool { return k == Key{} }

// Sum is the seed of the stream named label and ids:
// HMAC-SHA256(key, len(label) || label || ids), each length and id as 8
// big-endian bytes (so that no two names share an encoding).
func (k Key) Sum(label string, ids ...uint64) [Size]byte {
	m := hmac.New(sha256.New, k.b[:])
	buf := make([]byte, 0, 8+len(label)+8*len(ids))
	buf = binary.BigEndian.AppendUint64(buf, uint64(len(label)))
	buf = append(buf, label...)
	for _, id := range ids {
		buf = binary.BigEndian.AppendUint64(buf, id)
	}
	m.Write(buf)
	var out [Size]byte
	m.Sum(out[:0])
	return out
}

// Uint64 is a 64-bit seed for the stream named label and ids: the first 8
// bytes of Sum, little-endian. It may be published (a game's seed in its
// replay): it reveals nothing about k or another name's seed.
func (k Key) Uint64(label string, ids ...uint64) uint64 {
	s := k.Sum(label, ids...)
	return binary.LittleEndian.Uint64(s[:8])
}

// Rand is the stream named label and ids: ChaCha8 seeded with Sum.
func (k Key) Rand(label string, ids ...uint64) *rand.Rand {
	return rand.New(rand.NewChaCha8(k.Sum(label, ids...)))
}

// String, GoString and LogValue keep the key out of logs and messages.
func (Key) String() string { return redacted }

// GoString is String for %#v.
func (Key) GoString() string { return redacted }

// LogValue is String for log/slog.
func (Key) LogValue() slog.Value { return slog.StringValue(redacted) }

// Format prints String for every verb (%x, %d and %v included).
func (Key) Format(f fmt.State, _ rune) { _, _ = f.Write([]byte(redacted)) }

// MarshalText is String for encoders (JSON, YAML, slog's JSON handler).
func (Key) MarshalText() ([]byte, error) { return []byte(redacted), nil }

var (
	_ fmt.Stringer   = Key{}
	_ fmt.GoStringer = Key{}
	_ fmt.Formatter  = Key{}
	_ slog.LogValuer = Key{}
)
