package mcpproxy

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio serves one client on a newline-delimited JSON-RPC stream
// (the proxy's standard input and output) until the client closes its
// end or ctx ends. See [ScreenedTransport] for what a malformed line
// gets.
func (p *Proxy) ServeStdio(ctx context.Context, in io.Reader, out io.Writer) error {
	if err := p.server.Run(ctx, NewScreenedTransport(in, out)); err != nil && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("mcp proxy: serve the client: %w", err)
	}
	return nil
}

// ScreenedTransport is the SDK's newline-delimited JSON-RPC transport
// with every incoming line screened first: a line that is not one
// JSON-RPC message is answered with a JSON-RPC error (-32700 parse
// error, or -32600 invalid request for valid JSON that is not a
// message, or a batch) and dropped, and the session goes on. The SDK's
// own transport ends the session at the first such line.
type ScreenedTransport struct {
	in  io.Reader
	out *lineWriter
}

// NewScreenedTransport returns a transport that reads messages from in
// and writes them to out.
func NewScreenedTransport(in io.Reader, out io.Writer) *ScreenedTransport {
	return &ScreenedTransport{in: in, out: &lineWriter{w: out}}
}

// Connect starts screening the input and returns the SDK's connection
// over what passes.
func (t *ScreenedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	screened, feed := io.Pipe()
	go t.screen(feed)
	conn, err := (&mcp.IOTransport{Reader: screened, Writer: t.out}).Connect(ctx)
	if err != nil {
		return nil, fmt.Errorf("connect the screened stream: %w", err)
	}
	return conn, nil
}

// screen copies the input line by line to feed, answering the lines
// that are not messages itself, and closes feed at the end of the input.
func (t *ScreenedTransport) screen(feed *io.PipeWriter) {
	r := bufio.NewReaderSize(t.in, 64<<10)
	for {
		line, tooLong, readErr := readLine(r, mcp.DefaultMaxLineLength)
		if tooLong || len(bytes.TrimSpace(line)) > 0 {
			if reply := screenLine(line, tooLong); reply != nil {
				t.out.writeMessage(reply)
			} else if _, err := feed.Write(append(line, '\n')); err != nil {
				return
			}
		}
		if readErr != nil {
			_ = feed.Close()
			return
		}
	}
}

// readLine reads one line without its newline. A line longer than limit
// is read to its end and dropped (tooLong).
func readLine(r *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong {
			line = append(line, chunk...)
			if len(line) > limit {
				tooLong, line = true, nil
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), tooLong, err
	}
}

// screenLine returns the error response for a line that is not one
// JSON-RPC message, or nil when the line may pass.
func screenLine(line []byte, tooLong bool) *jsonrpc.Response {
	switch trimmed := bytes.TrimSpace(line); {
	case tooLong:
		return errorResponse(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "the message is longer than the proxy accepts")
	case !json.Valid(trimmed):
		return errorResponse(jsonrpc.ID{}, jsonrpc.CodeParseError, "parse error: the line is not JSON")
	case trimmed[0] == '[':
		return errorResponse(jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "JSON-RPC batches are not accepted: send one message per line")
	}
	if _, err := jsonrpc.DecodeMessage(line); err != nil {
		return errorResponse(requestID(line), jsonrpc.CodeInvalidRequest, "invalid request: "+err.Error())
	}
	return nil
}

// requestID is the id of a malformed request when it has a valid one,
// else the null id.
func requestID(line []byte) jsonrpc.ID {
	var message struct {
		ID any `json:"id"`
	}
	if json.Unmarshal(line, &message) != nil {
		return jsonrpc.ID{}
	}
	id, err := jsonrpc.MakeID(message.ID)
	if err != nil {
		return jsonrpc.ID{}
	}
	return id
}

func errorResponse(id jsonrpc.ID, code int64, message string) *jsonrpc.Response {
	return &jsonrpc.Response{ID: id, Error: &jsonrpc.Error{Code: code, Message: message}}
}

// lineWriter writes whole lines, one writer at a time: the SDK's
// messages and the screen's replies never interleave.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// Write writes p (one message with its newline, as the SDK writes).
func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// Close does not close the underlying stream, which the process owns.
func (w *lineWriter) Close() error { return nil }

// writeMessage writes one encoded message and a newline.
func (w *lineWriter) writeMessage(msg jsonrpc.Message) {
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return
	}
	_, _ = w.Write(append(data, '\n'))
}
