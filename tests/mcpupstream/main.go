// Command mcpupstream is the MCP server the gateway tests put behind
// `tooleval mcp proxy`: a file tool with a path argument, a write tool,
// a destructive tool, and add_tool, which adds a tool (the server then
// sends notifications/tools/list_changed). It appends every tools/call
// it receives to the file named by TOOLEVAL_MCP_RECORD, one JSON line
// each, after a line {"started": PID}, so that a test can tell what
// reached it and whether it was restarted. It serves stdio, or
// Streamable HTTP with -http ADDR (printing its URL on standard output).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var recordMu sync.Mutex

// record appends one received call to the record file.
func record(req *mcp.CallToolRequest) {
	appendRecord(map[string]any{"tool": req.Params.Name, "arguments": req.Params.Arguments})
}

// appendRecord appends one JSON line to the record file, if there is one.
func appendRecord(entry map[string]any) {
	path := os.Getenv("TOOLEVAL_MCP_RECORD")
	if path == "" {
		return
	}
	recordMu.Lock()
	defer recordMu.Unlock()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		log.Fatal(err)
	}
	defer f.Close()
	line, _ := json.Marshal(entry)
	_, _ = f.Write(append(line, '\n'))
}

func schema(properties ...string) map[string]any {
	props := map[string]any{}
	for _, p := range properties {
		props[p] = map[string]any{"type": "string"}
	}
	return map[string]any{"type": "object", "properties": props}
}

func arguments(req *mcp.CallToolRequest) map[string]string {
	var args map[string]string
	_ = json.Unmarshal(req.Params.Arguments, &args)
	return args
}

func newServer() *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "files-upstream", Version: "1.0.0"}, nil)
	server.AddTool(&mcp.Tool{Name: "read_file", Description: "read a file", InputSchema: schema("path")},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			record(req)
			path := arguments(req)["path"]
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: "contents of " + path}},
				StructuredContent: map[string]any{"path": path, "bytes": 42},
			}, nil
		})
	server.AddTool(&mcp.Tool{Name: "write_file", Description: "write a file", InputSchema: schema("path", "content")},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			record(req)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "wrote " + arguments(req)["path"]}}}, nil
		})
	server.AddTool(&mcp.Tool{Name: "drop_database", Description: "destroy everything", InputSchema: schema(),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			record(req)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "dropped"}}}, nil
		})
	server.AddTool(&mcp.Tool{Name: "add_tool", Description: "add a tool named name", InputSchema: schema("name")},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			record(req)
			name := arguments(req)["name"]
			server.AddTool(&mcp.Tool{Name: name, Description: "added later", InputSchema: schema()},
				func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					record(req)
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " ran"}}}, nil
				})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "added " + name}}}, nil
		})
	server.AddResource(&mcp.Resource{URI: "note://readme", Name: "readme", MIMEType: "text/plain"},
		func(_ context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: req.Params.URI, MIMEType: "text/plain", Text: "the readme"}}}, nil
		})
	server.AddPrompt(&mcp.Prompt{Name: "greet", Description: "a greeting"},
		func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "hello"}}}}, nil
		})
	return server
}

func ptr[T any](v T) *T { return &v }

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP on ADDR instead of stdio")
	flag.Parse()
	appendRecord(map[string]any{"started": os.Getpid()})
	server := newServer()
	if *addr == "" {
		if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
			log.Fatal(err)
		}
		return
	}
	listener, err := net.Listen("tcp", *addr)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("http://%s/mcp\n", listener.Addr())
	handler := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	log.Fatal(http.Serve(listener, handler))
}
