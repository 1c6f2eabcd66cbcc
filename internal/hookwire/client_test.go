package hookwire

import (
	"bufio"
	"context"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// rawServer answers every connection with answer after reading the
// request's head, and returns its http:// target.
func rawServer(t *testing.T, answer string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = l.Close() })
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer conn.Close()
				r := bufio.NewReader(conn)
				for {
					line, err := r.ReadString('\n')
					if err != nil || line == "\r\n" {
						break
					}
				}
				if answer != "" {
					_, _ = conn.Write([]byte(answer))
				} else {
					time.Sleep(time.Minute) // never answers
				}
			}()
		}
	}()
	return "http://" + l.Addr().String()
}

// Every answer the client cannot read exactly is an error (the hook then
// refuses the call); a well-formed one is read, with or without a length.
func TestClientReadsOnlyWellFormedAnswers(t *testing.T) {
	const good = `{"outcome":"allow","message":"","output":{}}`
	for name, tc := range map[string]struct {
		answer string
		ok     bool
	}{
		"length":            {"HTTP/1.0 200 OK\r\nContent-Length: 44\r\n\r\n" + good, true},
		"to the end":        {"HTTP/1.0 200 OK\r\n\r\n" + good, true},
		"short body":        {"HTTP/1.0 200 OK\r\nContent-Length: 99\r\n\r\n" + good, false},
		"chunked":           {"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2c\r\n" + good + "\r\n0\r\n\r\n", false},
		"status":            {"HTTP/1.0 500 Internal Server Error\r\n\r\n" + good, false},
		"not HTTP":          {"SSH-2.0-OpenSSH\r\n\r\n", false},
		"huge length":       {"HTTP/1.0 200 OK\r\nContent-Length: 99999999999\r\n\r\n", false},
		"negative length":   {"HTTP/1.0 200 OK\r\nContent-Length: -1\r\n\r\n" + good, false},
		"body over the cap": {"HTTP/1.0 200 OK\r\n\r\n" + strings.Repeat(" ", MaxPayload+1), false},
		"no head end":       {"HTTP/1.0 200 OK\r\nContent-Length: 44\r\n", false},
	} {
		t.Run(name, func(t *testing.T) {
			c, err := NewClient(rawServer(t, tc.answer), time.Minute)
			require.NoError(t, err)
			a, err := c.Answer(context.Background(), "claude-code", []byte(`{}`))
			if tc.ok {
				require.NoError(t, err)
				require.Equal(t, Allow, a.Outcome)
			} else {
				require.Error(t, err)
			}
		})
	}
}

// A server that does not answer in time is an error, whichever ends
// first: the client's timeout or the caller's context.
func TestClientGivesUp(t *testing.T) {
	target := rawServer(t, "")
	c, err := NewClient(target, 100*time.Millisecond)
	require.NoError(t, err)
	_, err = c.Answer(context.Background(), "claude-code", []byte(`{}`))
	require.ErrorIs(t, err, context.DeadlineExceeded)

	c, err = NewClient(target, time.Hour)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = c.Answer(ctx, "claude-code", []byte(`{}`))
	require.ErrorIs(t, err, context.Canceled)
}

func TestNewClientTargets(t *testing.T) {
	for _, bad := range []string{"https://example.com", "http://example.com", "http://a:1/x", "http://u@a:1", "ftp://a:1", "a:1"} {
		_, err := NewClient(bad, time.Second)
		require.ErrorContains(t, err, "give http://HOST:PORT or unix:PATH", bad)
	}
	for _, good := range []string{"http://127.0.0.1:8181", "http://127.0.0.1:8181/", "http://[::1]:1", "unix:/run/x.sock", "/run/x.sock"} {
		_, err := NewClient(good, time.Second)
		require.NoError(t, err, good)
	}
}
