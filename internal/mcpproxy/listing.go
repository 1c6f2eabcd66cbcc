package mcpproxy

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// listing is what tools/list answers: the served tools as the upstream
// listed them, in its order and unchanged (the SDK's own tools/list would
// sort them by name). generation tells one listing from the next, so that
// a cursor of an older listing is refused instead of paging through a
// different list.
type listing struct {
	generation uint64
	tools      []*mcp.Tool
}

// without is the listing less the tools named in removed, as a new
// generation; the listing itself when removed is empty.
func (l *listing) without(removed []string) *listing {
	if len(removed) == 0 {
		return l
	}
	gone := make(map[string]bool, len(removed))
	for _, name := range removed {
		gone[name] = true
	}
	next := &listing{generation: l.generation + 1}
	for _, tool := range l.tools {
		if !gone[tool.Name] {
			next.tools = append(next.tools, tool)
		}
	}
	return next
}

// listPageSize is the most tools one tools/list page holds, the SDK's
// default page size.
const listPageSize = mcp.DefaultPageSize

// listTools answers a client's tools/list from the current listing, a
// page of listPageSize tools at a time. A cursor this proxy did not
// give, or one of an earlier listing (the client was told of the change
// by notifications/tools/list_changed), is invalid params: the client
// lists again from the start.
func (p *Proxy) listTools(params *mcp.ListToolsParams) (*mcp.ListToolsResult, error) {
	current := p.listed.Load()
	offset := 0
	if params != nil && params.Cursor != "" {
		var err error
		if offset, err = readCursor(params.Cursor, current.generation, len(current.tools)); err != nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: err.Error()}
		}
	}
	end := min(offset+listPageSize, len(current.tools))
	res := &mcp.ListToolsResult{Tools: append([]*mcp.Tool{}, current.tools[offset:end]...)}
	res.CacheScope = "public" // the protocol's default, required on the wire
	if end < len(current.tools) {
		res.NextCursor = writeCursor(current.generation, end)
	}
	return res, nil
}

// writeCursor is the opaque cursor of the page that starts at offset of
// the listing generation.
func writeCursor(generation uint64, offset int) string {
	return base64.RawURLEncoding.EncodeToString(fmt.Appendf(nil, "%d:%d", generation, offset))
}

// readCursor is the offset a cursor of writeCursor names, if it names a
// page of the listing generation with total tools.
func readCursor(cursor string, generation uint64, total int) (int, error) {
	raw, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return 0, fmt.Errorf("invalid cursor: list the tools again without one")
	}
	gen, off, ok := strings.Cut(string(raw), ":")
	g, gErr := strconv.ParseUint(gen, 10, 64)
	o, oErr := strconv.Atoi(off)
	switch {
	case !ok || gErr != nil || oErr != nil:
		return 0, fmt.Errorf("invalid cursor: list the tools again without one")
	case g != generation:
		return 0, fmt.Errorf("the tool list changed since this cursor was given: list the tools again without one")
	case o <= 0 || o >= total:
		return 0, fmt.Errorf("invalid cursor: list the tools again without one")
	}
	return o, nil
}
