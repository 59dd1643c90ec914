package ladder

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/kaisen-ai/kaisen/protocol"
)

// AuthWord starts the line a bot sends first on a rated listener:
//
//	auth NAME TOKEN
//
// NAME is its registered name and TOKEN the token Register printed. The
// word itself is protocol.AuthWord, shared with the client.
const AuthWord = protocol.AuthWord

// ErrAuthLine is wrapped by ParseAuth's errors. They never contain the
// token (nor anything after the name), so they are safe to log.
var ErrAuthLine = errors.New("ladder: bad auth line")

// tokenLen is the length of a token: the prefix and 256 bits in base64url.
const tokenLen = len(TokenPrefix) + 43

// ParseAuth parses an auth line ("auth NAME TOKEN", single spaces) into
// the name and the token. A malformed line is an ErrAuthLine error that
// names what is wrong without quoting the token.
func ParseAuth(line string) (name, token string, err error) {
	f := strings.Split(line, " ")
	if len(f) != 3 || f[0] != AuthWord {
		return "", "", fmt.Errorf("%w: want %q", ErrAuthLine, AuthWord+" NAME TOKEN")
	}
	if err := ValidName(f[1]); err != nil {
		return "", "", fmt.Errorf("%w: %w", ErrAuthLine, err)
	}
	if len(f[2]) != tokenLen || !strings.HasPrefix(f[2], TokenPrefix) {
		return "", "", fmt.Errorf("%w: the token is not a token (%d characters starting with %q)", ErrAuthLine, tokenLen, TokenPrefix)
	}
	return f[1], f[2], nil
}

// Limiter limits failed authentications per key (a client's network): after
// Max failures within Window, Allow refuses the key until the oldest of them
// is Window old. Its memory is bounded: at most MaxKeys keys are tracked
// (expired ones are dropped first; beyond that an arbitrary one is). It is
// safe for concurrent use; the caller passes the time (synctest-friendly).
type Limiter struct {
	Max     int
	Window  time.Duration
	MaxKeys int

	mu    sync.Mutex
	fails map[string][]time.Time // failures within the window, oldest first
}

// NewLimiter allows max failures per key within window, tracking at most
// 65,536 keys.
func NewLimiter(max int, window time.Duration) *Limiter {
	return &Limiter{Max: max, Window: window, MaxKeys: 1 << 16, fails: map[string][]time.Time{}}
}

// recent drops key's failures older than the window and returns the rest.
// The caller holds mu.
func (l *Limiter) recent(key string, now time.Time) []time.Time {
	fs := l.fails[key]
	i := 0
	for i < len(fs) && now.Sub(fs[i]) >= l.Window {
		i++
	}
	fs = fs[i:]
	if len(fs) == 0 {
		delete(l.fails, key)
		return nil
	}
	l.fails[key] = fs
	return fs
}

// Allow reports whether key may try to authenticate now.
func (l *Limiter) Allow(key string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.recent(key, now)) < l.Max
}

// Fail records a failed authentication of key at now.
func (l *Limiter) Fail(key string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fs := l.recent(key, now)
	if fs == nil && len(l.fails) >= l.MaxKeys {
		for k := range l.fails { // drop the expired, then anything
			l.recent(k, now)
		}
		for k := range l.fails {
			if len(l.fails) < l.MaxKeys {
				break
			}
			delete(l.fails, k)
		}
	}
	if len(fs) >= l.Max { // keep the newest Max: enough to decide
		fs = fs[1:]
	}
	l.fails[key] = append(fs, now)
}

// Succeed forgets key's failures (it proved it holds a token).
func (l *Limiter) Succeed(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.fails, key)
}
