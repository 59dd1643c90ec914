package wire

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/kaisen-ai/kaisen/game/abilities"
	"github.com/kaisen-ai/kaisen/protocol"
)

// Version is the version of the abilities protocol this package
// speaks; the server's hello names it and a client refuses any other.
// Version 2 (docs/protocol.md, "Constant shape") added the confirm line
// (ConfirmAnswer) and dropped the "your turn" after a seat's own move.
const Version = 2

// ErrVersion is wrapped by the error of a client that does not speak the
// version a server's hello names.
var ErrVersion = errors.New("protocol: unsupported abilities protocol version")

// Hello is the first line an abilities server sends each client:
// the protocol version, the client's seat (0 or 1), both seats' sides and
// the rules options. The board and fleet are the classic ones (10x10,
// 4,3,3,2,2,2,1,1,1,1) in versions 1 and 2.
type Hello struct {
	Version int
	Seat    int
	Sides   [2]abilities.Side
	Options abilities.Options
}

// abOption is one rules option as the hello names it (its YAML and JSON
// key in abilities.Options).
type abOption struct {
	name string
	at   func(o *abilities.Options) *bool
}

var abOptions = []abOption{
	{"salvo_shoots_again", func(o *abilities.Options) *bool { return &o.SalvoShootsAgain }},
	{"false_miss_any_hit", func(o *abilities.Options) *bool { return &o.FalseMissAnyHit }},
	{"move_may_touch", func(o *abilities.Options) *bool { return &o.MoveMayTouch }},
	{"hide_moves", func(o *abilities.Options) *bool { return &o.HideMoves }},
	{"scan_afloat_only", func(o *abilities.Options) *bool { return &o.ScanAfloatOnly }},
	{"suppress_passive", func(o *abilities.Options) *bool { return &o.SuppressPassive }},
}

// EncodeHello prints h:
//
//	{"hello":{"game":"abilities","version":2,"seat":0,"sides":["ai","humans"],"options":{"hide_moves":true}}}
//
// options lists the options that are on, in the order of abilities.Options.
func EncodeHello(h Hello) []byte {
	w := protocol.NewWriter(protocol.Classic, 128)
	w.Raw(`{"hello":{"game":`)
	w.Str(abilities.Name)
	w.Raw(`,"version":`)
	w.Int(h.Version)
	w.Raw(`,"seat":`)
	w.Int(h.Seat)
	w.Raw(`,"sides":[`)
	w.Str(h.Sides[0].String())
	w.Byte(',')
	w.Str(h.Sides[1].String())
	w.Raw(`],"options":{`)
	n := 0
	for _, o := range abOptions {
		if *o.at(&h.Options) {
			if n > 0 {
				w.Byte(',')
			}
			w.Str(o.name)
			w.Raw(":true")
			n++
		}
	}
	w.Raw("}}}")
	return w.Bytes()
}

// DecodeHello parses a hello line. A version other than
// Version is refused (ErrVersion) before anything after it is
// read. Unknown keys of "hello" are ignored (room for compatible
// extensions), but every known one is checked: the game must be
// "abilities", the seat 0 or 1, the sides "ai" or "humans", every option a
// known name with a boolean. Failures are a *protocol.ProtocolError.
func DecodeHello(line []byte) (Hello, error) {
	h, err := decodeHello(line)
	if err != nil {
		return Hello{}, protocol.Wrap(line, err)
	}
	return h, nil
}

func decodeHello(line []byte) (Hello, error) {
	var h Hello
	ms, err := protocol.Object(line, "hello line")
	if err != nil {
		return h, err
	}
	raw, ok := protocol.Lookup(ms, "hello")
	if !ok || len(ms) != 1 {
		return h, fmt.Errorf(`%w: a hello line is {"hello":{...}}`, protocol.ErrType)
	}
	body, err := protocol.Members(raw, `"hello"`)
	if err != nil {
		return h, err
	}
	need := func(key string) (json.RawMessage, error) {
		v, ok := protocol.Lookup(body, key)
		if !ok {
			return nil, fmt.Errorf(`%w: "hello" needs %q`, protocol.ErrType, key)
		}
		return v, nil
	}
	v, err := need("game")
	if err != nil {
		return h, err
	}
	game, err := protocol.Str(v, `"hello.game"`)
	if err != nil {
		return h, err
	}
	if game != abilities.Name {
		return h, fmt.Errorf("%w: hello for game %q, want %q", protocol.ErrUnexpected, game, abilities.Name)
	}
	if v, err = need("version"); err != nil {
		return h, err
	}
	if h.Version, err = protocol.Integer(v, `"hello.version"`); err != nil {
		return h, err
	}
	if h.Version != Version { // checked first: another version may have other keys
		return h, fmt.Errorf("%w: the server speaks version %d, this side %d", ErrVersion, h.Version, Version)
	}
	if v, err = need("seat"); err != nil {
		return h, err
	}
	if h.Seat, err = protocol.Integer(v, `"hello.seat"`); err != nil {
		return h, err
	}
	if h.Seat != 0 && h.Seat != 1 {
		return h, fmt.Errorf("%w: hello seat %d, want 0 or 1", protocol.ErrType, h.Seat)
	}
	if v, err = need("sides"); err != nil {
		return h, err
	}
	sides, err := protocol.Array(v, `"hello.sides"`)
	if err != nil {
		return h, err
	}
	if len(sides) != 2 {
		return h, fmt.Errorf("%w: hello has %d sides, want 2", protocol.ErrType, len(sides))
	}
	for i, sraw := range sides {
		s, err := protocol.Str(sraw, fmt.Sprintf(`"hello.sides"[%d]`, i))
		if err != nil {
			return h, err
		}
		if h.Sides[i], err = abilities.ParseSide(s); err != nil {
			return h, fmt.Errorf("%w: %w", protocol.ErrType, err)
		}
	}
	if v, err = need("options"); err != nil {
		return h, err
	}
	opts, err := protocol.Members(v, `"hello.options"`)
	if err != nil {
		return h, err
	}
	for _, m := range opts {
		i := slices.IndexFunc(abOptions, func(o abOption) bool { return o.name == m.Key })
		if i < 0 {
			return h, fmt.Errorf("%w: unknown rules option %q", protocol.ErrType, m.Key)
		}
		on, err := protocol.Boolean(m.Val, fmt.Sprintf(`"hello.options.%s"`, m.Key))
		if err != nil {
			return h, err
		}
		*abOptions[i].at(&h.Options) = on
	}
	return h, nil
}
