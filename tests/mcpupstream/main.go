// Command mcpupstream is the MCP server the gateway tests put behind
// `tooleval mcp proxy`: a file tool with a path argument, a write tool,
// a destructive tool, add_tool, which adds a tool (the server then
// sends notifications/tools/list_changed), report (a progress
// notification and a log message) and ask (a sampling request). It appends every tools/call
// it receives to the file named by TOOLEVAL_MCP_RECORD, one JSON line
// each, after a line {"started": PID}, so that a test can tell what
// reached it and whether it was restarted. It serves stdio, or
// Streamable HTTP with -http ADDR (printing its URL on standard output).
//
// Given directories (mcpupstream [-http ADDR] DIR...), it also serves
// read_text_file, read_multiple_files and write_text_file, which touch
// real files and find them as the npm filesystem server does (see
// files.go): the bypasses of a gateway that forwards the client's path
// strings are reproduced, not imagined.
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

func newServer(dirs []string) *mcp.Server {
	server := mcp.NewServer(&mcp.Implementation{Name: "files-upstream", Version: "1.0.0"}, nil)
	// Every tools/call that arrives is recorded before the SDK looks the
	// tool up: a call under a name this server does not have counts as
	// received too.
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if call, ok := req.(*mcp.CallToolRequest); ok && call.Params != nil {
				record(call)
			}
			return next(ctx, method, req)
		}
	})
	server.AddTool(&mcp.Tool{Name: "read_file", Description: "read a file", InputSchema: schema("path")},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			path := arguments(req)["path"]
			return &mcp.CallToolResult{
				Content:           []mcp.Content{&mcp.TextContent{Text: "contents of " + path}},
				StructuredContent: map[string]any{"path": path, "bytes": 42},
			}, nil
		})
	server.AddTool(&mcp.Tool{Name: "write_file", Description: "write a file", InputSchema: schema("path", "content")},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "wrote " + arguments(req)["path"]}}}, nil
		})
	server.AddTool(&mcp.Tool{Name: "drop_database", Description: "destroy everything", InputSchema: schema(),
		Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "dropped"}}}, nil
		})
	server.AddTool(&mcp.Tool{Name: "add_tool", Description: "add a tool named name", InputSchema: schema("name")},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			name := arguments(req)["name"]
			server.AddTool(&mcp.Tool{Name: name, Description: "added later", InputSchema: schema()},
				func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: name + " ran"}}}, nil
				})
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "added " + name}}}, nil
		})
	server.AddTool(&mcp.Tool{Name: "report", Description: "send a progress notification and a log message, then return", InputSchema: schema()},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if token := req.Params.GetProgressToken(); token != nil {
				if err := req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{ProgressToken: token, Progress: 1, Total: 2, Message: "halfway"}); err != nil {
					return nil, err
				}
			}
			if err := req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "upstream", Data: "working"}); err != nil {
				return nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "reported"}}}, nil
		})
	server.AddTool(&mcp.Tool{Name: "ask", Description: "ask the client's model (sampling, as a multi round-trip input request) and return its answer", InputSchema: schema()},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) == 0 {
				return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"answer": &mcp.CreateMessageParams{MaxTokens: 10,
					Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: "say yes"}}}}}}, nil
			}
			var text string
			switch answer := req.Params.InputResponses["answer"].(type) {
			case *mcp.CreateMessageResult:
				text = answer.Content.(*mcp.TextContent).Text
			case *mcp.CreateMessageWithToolsResult:
				text = answer.Content[0].(*mcp.TextContent).Text
			default:
				return nil, fmt.Errorf("unexpected input response %T", answer)
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "the model said " + text}}}, nil
		})
	if len(dirs) > 0 {
		addFileTools(server, dirs)
	}
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
	server := newServer(flag.Args())
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
