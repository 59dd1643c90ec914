package client_test

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/kaisen-ai/kaisen/client"
	"github.com/kaisen-ai/kaisen/game/submarine"
	"github.com/kaisen-ai/kaisen/players"
)

func TestAuthenticate(t *testing.T) {
	const token = "kt_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ"
	tests := []struct {
		name, bot, token string
		want             string // the line sent, or "" for an error
	}{
		{"a bot", "mybot", token, "auth mybot " + token},
		{"empty name", "", token, ""},
		{"name with a space", "my bot", token, ""},
		{"token with a line break", "mybot", "kt_a\nauth other x", ""},
		{"no token", "mybot", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cc, sc := net.Pipe()
			defer cc.Close()
			defer sc.Close()
			got := make(chan string, 1)
			go func() {
				line, _ := bufio.NewReader(sc).ReadString('\n')
				got <- line
			}()
			err := client.Authenticate(cc, tt.bot, tt.token, time.Second)
			if tt.want == "" {
				require.ErrorIs(t, err, client.ErrAuthArgs)
				if tt.token != "" {
					assert.NotContains(t, err.Error(), tt.token)
				}
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want+"\n", <-got)
		})
	}
}

func TestPlayRefused(t *testing.T) {
	tests := []struct{ line, want string }{
		{"refused: max_connections", "the server refused the connection: max_connections"},
		{"refused: auth_failed: wrong bot name or token", "the server refused the connection: auth_failed: wrong bot name or token"},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			cc, sc := net.Pipe()
			defer cc.Close()
			go func() {
				_, _ = sc.Write([]byte(tt.line + "\n"))
				_ = sc.Close()
			}()
			build := func(r *submarine.Rules) (players.Factory, error) { return players.New("random", r, nil) }
			_, err := client.PlaySubmarine(context.Background(), cc, build, seeded, client.SubmarinePlayOptions{})
			require.ErrorIs(t, err, client.ErrRefused)
			assert.True(t, strings.HasSuffix(err.Error(), tt.want), err.Error())
		})
	}
}
