package ladder

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"database/sql"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Errors of bot registration and authentication.
var (
	ErrBadName    = errors.New("ladder: bad bot name")
	ErrNameTaken  = errors.New("ladder: bot name already registered")
	ErrUnknownBot = errors.New("ladder: no such bot")
	// ErrAuth is the one error of a failed authentication, whether the bot
	// does not exist or the token is wrong: the answer tells an attacker
	// nothing about which.
	ErrAuth = errors.New("ladder: wrong bot name or token")
)

// namePattern is what a bot name may be: a letter or digit, then up to 31
// letters, digits, '_', '-' or '.'. Names are identities: no spaces, no
// look-alike punctuation, nothing to escape.
var namePattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,31}$`)

// TokenPrefix starts every token, so that one is recognisable in a file.
const TokenPrefix = "kt_"

// ValidName reports why name cannot be a bot's name, or nil.
func ValidName(name string) error {
	if !namePattern.MatchString(name) {
		return fmt.Errorf("%w: %q: want 1 to 32 letters, digits, '_', '-' or '.', starting with a letter or digit", ErrBadName, name)
	}
	return nil
}

// hashToken is what the database keeps of a token: its hex SHA-256 (a
// token is 256 random bits, so no salt or slow hash is needed).
func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// unknownHash is compared against when the bot does not exist, so that
// an unknown name costs the same as a wrong token.
var unknownHash = strings.Repeat("0", 64)

// ownerPattern is what an owner may be: like a name, up to 64
// characters, '@' and '+' allowed (an e-mail address fits).
var ownerPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,63}$`)

// ValidOwner reports why owner cannot be a bot's owner, or nil ("" is
// no owner).
func ValidOwner(owner string) error {
	if owner != "" && !ownerPattern.MatchString(owner) {
		return fmt.Errorf("%w: owner %q: want 1 to 64 letters, digits, '_', '-', '.', '@' or '+', starting with a letter or digit", ErrBadName, owner)
	}
	return nil
}

// Register adds a bot with a new rating and no owner, and returns its
// token (RegisterOwned).
func (s *Store) Register(ctx context.Context, name string) (token string, err error) {
	return s.RegisterOwned(ctx, name, "")
}

// RegisterOwned adds a bot of owner ("" unknown) with a new rating and
// returns its token: 256 random bits, shown once; only its hash is
// stored. A name that is registered already, or that looks like one that
// is (the same Skeleton: "ALPHA" for "alpha", "a1pha", Cyrillic "аlpha"),
// is ErrNameTaken, naming the bot it clashes with; the unique name_key
// column refuses it in the database too. Games between two bots of one
// owner are unrated.
func (s *Store) RegisterOwned(ctx context.Context, name, owner string) (token string, err error) {
	if err := ValidName(name); err != nil {
		return "", err
	}
	if err := ValidOwner(owner); err != nil {
		return "", err
	}
	var b [32]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand panics rather)
	token = TokenPrefix + base64.RawURLEncoding.EncodeToString(b[:])
	r := NewRating()
	key := Skeleton(name)
	res, err := s.db.ExecContext(ctx, `INSERT INTO bots (name, name_key, owner, token_hash, created_at, rating, rd, volatility)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
		name, key, owner, hashToken(token), time.Now().UnixMilli(), r.R, r.RD, r.Vol)
	if err != nil {
		return "", fmt.Errorf("ladder: register %s: %w", name, err)
	}
	if n, err := res.RowsAffected(); err != nil || n == 0 {
		return "", s.clashError(ctx, name, key)
	}
	return token, nil
}

// clashError is the ErrNameTaken error for name, naming the bot it
// clashes with.
func (s *Store) clashError(ctx context.Context, name, key string) error {
	var other string
	err := s.db.QueryRowContext(ctx, `SELECT name FROM bots WHERE name = ? OR name_key = ? ORDER BY created_at LIMIT 1`, name, key).Scan(&other)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %s", ErrNameTaken, name)
	case other == name:
		return fmt.Errorf("%w: %s", ErrNameTaken, name)
	}
	return fmt.Errorf("%w: %s looks like %s, registered already (names are compared without case, with look-alike letters and digits folded: both are %q)",
		ErrNameTaken, name, other, key)
}

// compareHashes compares two token hashes in time that depends only on
// their length (always 64 hex digits); a variable for the test that
// checks every attempt runs it.
var compareHashes = subtle.ConstantTimeCompare

// Authenticate checks that token is bot name's, in time that does not
// depend on where a wrong token differs nor on whether the bot exists.
// Its only failure for a bad name or token is ErrAuth.
func (s *Store) Authenticate(ctx context.Context, name, token string) error {
	stored := unknownHash
	known := true
	err := s.db.QueryRowContext(ctx, `SELECT token_hash FROM bots WHERE name = ?`, name).Scan(&stored)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		known, stored = false, unknownHash
	case err != nil:
		return fmt.Errorf("ladder: authenticate: %w", err)
	}
	same := compareHashes([]byte(hashToken(token)), []byte(stored)) == 1
	if !known || !same {
		return ErrAuth
	}
	return nil
}

// Bot is a registered bot's standing.
type Bot struct {
	Name   string
	Rating Rating
	Games  int // stored games, rated or not: Wins + Draws + Losses
	// Wins, Draws and Losses count its stored games by result.
	Wins, Draws, Losses int
	// Opponents is how many different bots it has met in rated games (as
	// the damping counts them: metCounts).
	Opponents int
}

// Provisional reports whether b has met fewer than ProvisionalOpponents
// different bots: its games count less for its opponents (Weight), and its
// rating rests on few opponents.
func (b Bot) Provisional() bool { return b.Opponents < ProvisionalOpponents }

// tableQuery lists the bots with their results by counting their stored
// games (a draw is a game neither seat won).
const tableQuery = `SELECT b.name, b.rating, b.rd, b.volatility, b.games, b.opponents,
	(SELECT COUNT(*) FROM rating_changes c JOIN games g ON g.id = c.game_id WHERE c.bot = b.name AND g.winner = c.seat),
	(SELECT COUNT(*) FROM rating_changes c JOIN games g ON g.id = c.game_id WHERE c.bot = b.name AND g.winner = -1),
	(SELECT COUNT(*) FROM rating_changes c JOIN games g ON g.id = c.game_id WHERE c.bot = b.name AND g.winner = 1 - c.seat)
	FROM bots b ORDER BY b.rating DESC, b.name`

// Table lists every bot, the best rated first (ties by name).
func (s *Store) Table(ctx context.Context) ([]Bot, error) {
	rows, err := s.db.QueryContext(ctx, tableQuery)
	if err != nil {
		return nil, fmt.Errorf("ladder: table: %w", err)
	}
	defer rows.Close()
	var out []Bot
	for rows.Next() {
		var b Bot
		if err := rows.Scan(&b.Name, &b.Rating.R, &b.Rating.RD, &b.Rating.Vol, &b.Games, &b.Opponents, &b.Wins, &b.Draws, &b.Losses); err != nil {
			return nil, fmt.Errorf("ladder: table: %w", err)
		}
		out = append(out, b)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("ladder: table: %w", err)
	}
	return out, nil
}

// Rating returns bot name's current rating (ErrUnknownBot when it is not
// registered).
func (s *Store) Rating(ctx context.Context, name string) (Rating, error) {
	var r Rating
	err := s.db.QueryRowContext(ctx, `SELECT rating, rd, volatility FROM bots WHERE name = ?`, name).Scan(&r.R, &r.RD, &r.Vol)
	if errors.Is(err, sql.ErrNoRows) {
		return Rating{}, fmt.Errorf("%w: %s", ErrUnknownBot, name)
	}
	if err != nil {
		return Rating{}, fmt.Errorf("ladder: rating of %s: %w", name, err)
	}
	return r, nil
}
