// Package keystream derives independent random streams from one secret
// key: a stream is named by a label and a few numbers (a pairing, a game,
// a seat), and its seed is HMAC-SHA256(key, label, numbers). Knowing any
// number of derived seeds or stream outputs tells nothing about the key,
// nor about another stream, short of breaking HMAC-SHA256 or ChaCha8.
//
// The key is drawn from crypto/rand at full width (New), or derived from an
// operator's seed with SHA-256 (FromSeed) for reproducible runs: whoever
// knows such a seed can compute every stream, and a small seed can be found
// by trying seeds against a published one. A Key never prints itself:
// fmt, slog and encoders show "keystream.Key(redacted)".
package keystream
