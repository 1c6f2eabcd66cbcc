package hookwire

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"time"
)

// Client asks a running tooleval serve: at an http://HOST:PORT URL or a
// Unix socket (unix:PATH, or a path starting with /).
//
// It speaks the one exchange it needs, an HTTP/1.0 POST whose answer
// ends with the connection, on a plain net.Conn: net/http and the TLS
// stack it links made a command hook start about twice as slowly, and
// tooleval serve listens on loopback or a socket only (no TLS to speak).
type Client struct {
	network, address, host string
	timeout                time.Duration
}

// NewClient returns a client of the server at target, waiting at most
// timeout for an answer.
func NewClient(target string, timeout time.Duration) (*Client, error) {
	switch {
	case strings.HasPrefix(target, "unix:") || strings.HasPrefix(target, "/"):
		return &Client{network: "unix", address: strings.TrimPrefix(target, "unix:"), host: "tooleval", timeout: timeout}, nil
	case strings.HasPrefix(target, "http://"):
		hostport := strings.TrimSuffix(strings.TrimPrefix(target, "http://"), "/")
		if _, _, err := net.SplitHostPort(hostport); err != nil || strings.ContainsAny(hostport, "/?#@ \r\n") {
			return nil, fmt.Errorf("tooleval serve at %q: give http://HOST:PORT or unix:PATH", target)
		}
		return &Client{network: "tcp", address: hostport, host: hostport, timeout: timeout}, nil
	}
	return nil, fmt.Errorf("tooleval serve at %q: give http://HOST:PORT or unix:PATH", target)
}

// Answer forwards a hook payload to the server and returns its answer.
func (c *Client) Answer(ctx context.Context, cliRuntime string, payload []byte) (*Answer, error) {
	body, err := c.post(ctx, "/v1/hooks/"+cliRuntime+"/answer", payload)
	if err != nil {
		return nil, err
	}
	var a Answer
	if err := json.Unmarshal(body, &a); err != nil {
		return nil, fmt.Errorf("read tooleval serve's answer: %w", err)
	}
	switch {
	case a.Outcome != Allow && a.Outcome != Ask && a.Outcome != Deny:
		return nil, fmt.Errorf("tooleval serve's answer has outcome %q", a.Outcome)
	case !json.Valid(a.Output) || !bytes.HasPrefix(bytes.TrimSpace(a.Output), []byte("{")):
		return nil, errors.New("tooleval serve's answer has no output document")
	}
	return &a, nil
}

// post sends one HTTP/1.0 POST and returns the body of a 200 answer (at
// most MaxPayload bytes).
func (c *Client) post(ctx context.Context, path string, payload []byte) ([]byte, error) {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	var dialer net.Dialer
	conn, err := dialer.DialContext(ctx, c.network, c.address)
	if err != nil {
		return nil, fmt.Errorf("ask tooleval serve: %w", err)
	}
	defer conn.Close()
	// the context's end (its deadline included) cuts the exchange short;
	// ctx.Err() is set by then, so the error says which end it was
	stop := context.AfterFunc(ctx, func() { _ = conn.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	request := fmt.Sprintf("POST %s HTTP/1.0\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", path, c.host, len(payload))
	if _, err := conn.Write(append([]byte(request), payload...)); err != nil {
		return nil, fmt.Errorf("ask tooleval serve: %w", err)
	}
	body, err := readResponse(bufio.NewReader(conn))
	if err != nil && ctx.Err() != nil {
		return nil, fmt.Errorf("ask tooleval serve: %w", ctx.Err())
	}
	return body, err
}

// readResponse reads an HTTP/1.x answer: a 200 status line, headers, and
// a body of Content-Length bytes or up to the connection's end.
func readResponse(r *bufio.Reader) ([]byte, error) {
	status, err := r.ReadString('\n')
	if err != nil {
		return nil, fmt.Errorf("read tooleval serve's answer: %w", err)
	}
	status = strings.TrimRight(status, "\r\n")
	proto, code, _ := strings.Cut(status, " ")
	if !strings.HasPrefix(proto, "HTTP/1.") {
		return nil, fmt.Errorf("tooleval serve's answer is not HTTP: %q", status)
	}
	if !strings.HasPrefix(code, "200") {
		return nil, fmt.Errorf("tooleval serve answered %s", code)
	}
	length := int64(-1)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, fmt.Errorf("read tooleval serve's answer: %w", err)
		}
		line = strings.TrimRight(line, "\r\n")
		if line == "" {
			break
		}
		name, value, _ := strings.Cut(line, ":")
		value = strings.TrimSpace(value)
		switch strings.ToLower(name) {
		case "content-length":
			if length, err = strconv.ParseInt(value, 10, 64); err != nil || length < 0 || length > MaxPayload {
				return nil, fmt.Errorf("tooleval serve's answer has Content-Length %q", value)
			}
		case "transfer-encoding":
			return nil, fmt.Errorf("tooleval serve's answer has Transfer-Encoding %q (an HTTP/1.0 answer has none)", value)
		}
	}
	if length >= 0 {
		body := make([]byte, length)
		if _, err := io.ReadFull(r, body); err != nil {
			return nil, fmt.Errorf("read tooleval serve's answer: %w", err)
		}
		return body, nil
	}
	body, err := io.ReadAll(io.LimitReader(r, MaxPayload+1))
	if err != nil {
		return nil, fmt.Errorf("read tooleval serve's answer: %w", err)
	}
	if len(body) > MaxPayload {
		return nil, fmt.Errorf("tooleval serve's answer is larger than %d bytes", MaxPayload)
	}
	return body, nil
}
