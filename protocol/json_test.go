package protocol_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/game/grid"
	"github.com/kaisen-ai/kaisen/protocol"
)

// TestObject: a line splits into its members in order; what is not one
// JSON object is a syntax or type error.
func TestObject(t *testing.T) {
	ms, err := protocol.Object([]byte(` {"b": [1, 2], "a":{"x":true}, "c\u0041":"s"}`+"\r"), "line")
	require.NoError(t, err)
	require.Len(t, ms, 3)
	require.Equal(t, []string{"b", "a", "cA"}, []string{ms[0].Key, ms[1].Key, ms[2].Key})
	require.Equal(t, `[1, 2]`, string(ms[0].Val))
	inner, err := protocol.Members(ms[1].Val, `"a"`)
	require.NoError(t, err)
	v, ok := protocol.Lookup(inner, "x")
	require.True(t, ok)
	on, err := protocol.Boolean(v, "x")
	require.NoError(t, err)
	require.True(t, on)
	_, ok = protocol.Lookup(inner, "y")
	require.False(t, ok)

	for _, tc := range []struct {
		line string
		want error
	}{
		{``, protocol.ErrSyntax},
		{`{"a":1`, protocol.ErrSyntax},
		{`{"a":1,"a":2}`, protocol.ErrSyntax},
		{"{\"a\":\"\xff\"}", protocol.ErrSyntax},
		{`[1]`, protocol.ErrType},
		{`"s"`, protocol.ErrType},
	} {
		_, err := protocol.Object([]byte(tc.line), "line")
		require.ErrorIs(t, err, tc.want, tc.line)
	}
}

// TestValues: integers, pairs and positions are read strictly.
func TestValues(t *testing.T) {
	b := grid.MustBoard(3, 2, nil) // 3 columns, 2 rows
	for _, tc := range []struct {
		raw     string
		xy, rc  grid.Cell // Position and RowCol
		wantErr bool
	}{
		{raw: `[1, 0]`, xy: 1, rc: 3},
		{raw: `[2,1]`, xy: 5, rc: grid.None},
		{raw: `[0, 2]`, xy: grid.None, rc: 2},
		{raw: `[-1,0]`, xy: grid.None, rc: grid.None},
		{raw: `[99999999999, 0]`, xy: grid.None, rc: grid.None},
		{raw: `[1.0, 0]`, wantErr: true},
		{raw: `["1", 0]`, wantErr: true},
		{raw: `[1]`, wantErr: true},
		{raw: `[1, 0, 0]`, wantErr: true},
		{raw: `{"x":1}`, wantErr: true},
	} {
		xy, err := protocol.Position([]byte(tc.raw), b, "p")
		rc, err2 := protocol.RowCol([]byte(tc.raw), b, "p")
		if tc.wantErr {
			require.ErrorIs(t, err, protocol.ErrType, tc.raw)
			require.ErrorIs(t, err2, protocol.ErrType, tc.raw)
			continue
		}
		require.NoError(t, err, tc.raw)
		require.NoError(t, err2, tc.raw)
		require.Equal(t, tc.xy, xy, tc.raw)
		require.Equal(t, tc.rc, rc, tc.raw)
	}
	n, err := protocol.Integer([]byte(` -7 `), "n")
	require.NoError(t, err)
	require.Equal(t, -7, n)
	_, err = protocol.Integer([]byte(`1e0`), "n")
	require.ErrorIs(t, err, protocol.ErrType)
	s, err := protocol.Str([]byte(`"a\"b"`), "s")
	require.NoError(t, err)
	require.Equal(t, `a"b`, s)
	_, err = protocol.Str([]byte(`1`), "s")
	require.ErrorIs(t, err, protocol.ErrType)
	_, err = protocol.Array([]byte(`{}`), "a")
	require.ErrorIs(t, err, protocol.ErrType)
	require.Equal(t, byte('['), protocol.KindOf([]byte(" \t[1]")))
}

// TestWriter: the same calls print compact JSON in the classic dialect
// and Python spacing in the submarine-py one.
func TestWriter(t *testing.T) {
	b := grid.MustBoard(3, 2, nil)
	for _, tc := range []struct {
		d    protocol.Dialect
		want string
	}{
		{protocol.Classic, `{"k":[1,0],"rc":[0,1],"cells":[[0,0],[1,2]],"off":[-1,-1],"s":"é\n"},"outcome":true`},
		{protocol.SubmarinePy, `{"k": [1, 0], "rc": [0, 1], "cells": [[0, 0],[1, 2]], "off": [-1, -1], "s": "\u00e9\n"},"outcome":true`},
	} {
		w := protocol.NewWriter(tc.d, 0)
		w.Byte('{')
		w.Key("k")
		w.Cell(b, 1)
		w.Comma()
		w.Key("rc")
		w.RowCol(b, 1)
		w.Comma()
		w.Key("cells")
		w.RowCols(b, []grid.Cell{0, 5})
		w.Comma()
		w.Key("off")
		w.Cell(b, grid.None)
		w.Comma()
		w.Key("s")
		w.Str("é\n")
		w.Byte('}')
		w.Outcome(protocol.Won)
		w.Outcome(protocol.NoOutcome)
		require.Equal(t, tc.want, string(w.Bytes()), tc.d.String())
	}
}

// TestResultLine: the "error" and "outcome" keys every Battleship-board
// result line may have.
func TestResultLine(t *testing.T) {
	var msg string
	var outcome int
	ms, known, err := protocol.ResultLine([]byte(`{"error":"bad","outcome":false,"x":1}`), &msg, &outcome)
	require.NoError(t, err)
	require.Equal(t, 2, known)
	require.Len(t, ms, 3)
	require.Equal(t, "bad", msg)
	require.Equal(t, protocol.Lost, outcome)
	_, known, err = protocol.ResultLine([]byte(`{"x":1}`), &msg, &outcome)
	require.NoError(t, err)
	require.Zero(t, known)
	require.Equal(t, protocol.NoOutcome, outcome)
	_, _, err = protocol.ResultLine([]byte(`{"outcome":1}`), &msg, &outcome)
	require.ErrorIs(t, err, protocol.ErrType)
	require.Equal(t, `{"error":"a\"b"}`, string(protocol.EncodeErrorLine(`a"b`)))
	require.Equal(t, `{"outcome":true}`, string(protocol.EncodeOutcome(true)))
}

// TestNeed: a present key's value; a missing one an ErrType error naming
// the object and the key, as the wire decoders word it.
func TestNeed(t *testing.T) {
	ms, err := protocol.Members([]byte(`{"to":[1,2],"ship":"a"}`), `"move"`)
	require.NoError(t, err)
	tests := []struct {
		key, want, err string
	}{
		{key: "to", want: "[1,2]"},
		{key: "ship", want: `"a"`},
		{key: "distance", err: `protocol: wrong type: "move" needs "distance"`},
	}
	for _, tc := range tests {
		t.Run(tc.key, func(t *testing.T) {
			v, err := protocol.Need(ms, tc.key, `"move"`)
			if tc.err != "" {
				require.ErrorIs(t, err, protocol.ErrType)
				require.EqualError(t, err, tc.err)
				return
			}
			require.NoError(t, err)
			require.Equal(t, tc.want, string(v))
		})
	}
}
