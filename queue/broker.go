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
	// Cluster, when its Name is set, makes the broker one node of a
	// JetStream cluster (streams and buckets then take Settings.Replicas).
	Cluster Cluster
}

// Cluster is a broker's place in a JetStream cluster: the cluster's name,
// this node's unique name, the address it takes routes from the other
// nodes on, and the route URLs of (some of) the other nodes. Nodes find
// the rest of the cluster through the ones they are given.
type Cluster struct {
	Name   string   // the cluster's name, the same on every node
	Node   string   // this node's name, unique in the cluster
	Listen string   // HOST:PORT of this node's routes; port 0 picks a free port
	Routes []string // nats-route://HOST:PORT of other nodes
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
	if err := c.Cluster.apply(opts, c.User, c.Password); err != nil {
		return nil, err
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

// apply sets the cluster options of a node (none when c.Name is empty).
// With a user and password the routes between the nodes authenticate with
// them too; routes beyond loopback need them.
func (c Cluster) apply(opts *server.Options, user, password string) error {
	if c.Name == "" {
		if c.Node != "" || c.Listen != "" || len(c.Routes) > 0 {
			return errors.New("queue: cluster settings without a cluster name")
		}
		return nil
	}
	if c.Node == "" {
		return fmt.Errorf("queue: cluster %s: every node needs a name of its own", c.Name)
	}
	host, portText, err := net.SplitHostPort(c.Listen)
	if err != nil {
		return fmt.Errorf("queue: cluster listen %q: want HOST:PORT: %w", c.Listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return fmt.Errorf("queue: cluster listen %q: bad port", c.Listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if !Loopback(host) && user == "" {
		return fmt.Errorf("%w: cluster listen %s (routes authenticate with --user and --password)", ErrInsecure, c.Listen)
	}
	routes := make([]*url.URL, 0, len(c.Routes))
	for _, r := range c.Routes {
		u, err := url.Parse(r)
		if err != nil || u.Scheme != "nats-route" || u.Host == "" {
			return fmt.Errorf("queue: cluster route %q: want nats-route://HOST:PORT", redact(r))
		}
		if u.User == nil && user != "" {
			u.User = url.UserPassword(user, password)
		}
		routes = append(routes, u)
	}
	opts.ServerName = c.Node
	opts.Cluster = server.ClusterOpts{Name: c.Name, Host: host, Port: port, Username: user, Password: password}
	opts.Routes = routes
	return nil
}

// URL is the broker's client URL (nats://HOST:PORT).
func (b *Broker) URL() string { return b.srv.ClientURL() }

// RouteURL is the URL other nodes of its cluster route to
// (nats-route://HOST:PORT), "" for a broker outside a cluster.
func (b *Broker) RouteURL() string {
	addr := b.srv.ClusterAddr()
	if addr == nil {
		return ""
	}
	return "nats-route://" + addr.String()
}

// Name is the broker's server name (its cluster node name, or
// kaisen-broker outside a cluster).
func (b *Broker) Name() string { return b.srv.Name() }

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
