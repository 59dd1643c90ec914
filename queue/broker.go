package queue

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nkeys"
)

// ErrInsecure is returned for a broker listening beyond loopback without
// credentials.
var ErrInsecure = errors.New("queue: a broker listening beyond loopback needs credentials (--user and --password, or --nkey)")

// BrokerConfig is the embedded JetStream server of kaisen broker.
type BrokerConfig struct {
	Listen   string // HOST:PORT; port 0 picks a free port
	StoreDir string // JetStream file store
	User     string // with Password: user/password authentication
	Password string
	Nkey     string // a user's public nkey (U...): nkey authentication
}

// Broker is a running embedded JetStream server.
type Broker struct {
	srv *server.Server
}

// Loopback reports whether host (a name or an address) is a loopback
// address: localhost, 127.0.0.0/8 or ::1.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// StartBroker starts the embedded server and waits until it accepts
// connections. A listen address beyond loopback is refused without
// credentials (ErrInsecure).
func StartBroker(c BrokerConfig) (*Broker, error) {
	host, portText, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return nil, fmt.Errorf("queue: listen %q: want HOST:PORT: %w", c.Listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("queue: listen %q: bad port", c.Listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if c.StoreDir == "" {
		return nil, errors.New("queue: the broker needs a store directory")
	}
	if (c.User == "") != (c.Password == "") {
		return nil, errors.New("queue: --user and --password go together")
	}
	if c.Nkey != "" && !nkeys.IsValidPublicUserKey(c.Nkey) {
		return nil, fmt.Errorf("queue: nkey %q is not a user's public nkey (U...)", c.Nkey)
	}
	if !Loopback(host) && c.User == "" && c.Nkey == "" {
		return nil, fmt.Errorf("%w: listen %s", ErrInsecure, c.Listen)
	}
	opts := &server.Options{
		ServerName: "kaisen-broker", Host: host, Port: port, JetStream: true, StoreDir: c.StoreDir,
		NoSigs: true, NoLog: true, MaxPayload: int32(maxMessage),
	}
	switch {
	case c.Nkey != "":
		opts.Nkeys = []*server.NkeyUser{{Nkey: c.Nkey}}
		if c.User != "" {
			opts.Users = []*server.User{{Username: c.User, Password: c.Password}}
		}
	case c.User != "":
		opts.Username, opts.Password = c.User, c.Password
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("queue: broker: %w", err)
	}
	go srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("queue: broker on %s did not start within 10s", c.Listen)
	}
	return &Broker{srv: srv}, nil
}

// URL is the broker's client URL (nats://HOST:PORT).
func (b *Broker) URL() string { return b.srv.ClientURL() }

// Close stops the broker and waits until it has stopped.
func (b *Broker) Close() {
	b.srv.Shutdown()
	b.srv.WaitForShutdown()
}

// redact hides the password of a URL for messages.
func redact(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.User == nil {
		return raw
	}
	if _, ok := u.User.Password(); ok {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	return u.String()
}
