package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/text/unicode/norm"
)

// The file tools find a requested path as the npm filesystem server
// (@modelcontextprotocol/server-filesystem, src/filesystem/lib.ts of
// modelcontextprotocol/servers) does in validatePath:
//
//   - a relative path is resolved against the allowed directories, the
//     first one whose result lies inside one of them, else the first
//     (resolveRelativePathAgainstAllowedDirectories);
//   - ".." is applied to the string first (path.resolve), and the result
//     must lie inside an allowed directory; then the links are followed
//     (fs.realpath) and the real path must lie inside one too;
//   - a path that does not exist is walked from its allowed directory one
//     component at a time, taking the entry of exactly that name or else
//     the one entry equal to it under NFC (resolveUnicodeEquivalentPath,
//     entry.normalize('NFC') === requestedPart.normalize('NFC')), each
//     step's real path inside an allowed directory.

// fileServer is the allowed directories, real paths.
type fileServer struct {
	dirs []string
}

func addFileTools(server *mcp.Server, dirs []string) {
	f := &fileServer{}
	for _, d := range dirs {
		real, err := filepath.EvalSymlinks(d)
		if err != nil {
			log.Fatal(err)
		}
		f.dirs = append(f.dirs, real)
	}
	text := func(s string) *mcp.CallToolResult {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
	}
	failed := func(err error) *mcp.CallToolResult {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}
	}
	server.AddTool(&mcp.Tool{Name: "read_text_file", Description: "read a file", InputSchema: schema("path")},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			data, err := f.read(arguments(req)["path"])
			if err != nil {
				return failed(err), nil
			}
			return text(data), nil
		})
	server.AddTool(&mcp.Tool{Name: "write_text_file", Description: "write a file", InputSchema: schema("path", "content")},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			args := arguments(req)
			p, err := f.validate(args["path"])
			if err == nil {
				err = os.WriteFile(p, []byte(args["content"]), 0o644)
			}
			if err != nil {
				return failed(err), nil
			}
			return text("wrote " + p), nil
		})
	server.AddTool(&mcp.Tool{Name: "read_multiple_files", Description: "read files",
		InputSchema: map[string]any{"type": "object", "properties": map[string]any{"paths": map[string]any{"type": "array", "items": map[string]any{"type": "string"}}}}},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var args struct {
				Paths []string `json:"paths"`
			}
			if err := jsonUnmarshal(req.Params.Arguments, &args); err != nil {
				return failed(err), nil
			}
			var out []string
			for _, p := range args.Paths {
				data, err := f.read(p)
				if err != nil {
					data = "error: " + err.Error()
				}
				out = append(out, p+": "+data)
			}
			return text(strings.Join(out, "\n")), nil
		})
}

func (f *fileServer) read(requested string) (string, error) {
	p, err := f.validate(requested)
	if err != nil {
		return "", err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return "", err
	}
	return string(data), nil
}

// within reports whether p is an allowed directory or lies below one.
func (f *fileServer) within(p string) bool {
	for _, d := range f.dirs {
		if p == d || strings.HasPrefix(p, d+"/") {
			return true
		}
	}
	return false
}

// validate returns the real path to operate on, as validatePath does.
func (f *fileServer) validate(requested string) (string, error) {
	var abs string
	if path.IsAbs(requested) {
		abs = path.Clean(requested)
	} else {
		abs = path.Join(f.dirs[0], requested)
		for _, d := range f.dirs {
			if candidate := path.Join(d, requested); f.within(candidate) {
				abs = candidate
				break
			}
		}
	}
	if !f.within(abs) {
		return "", fmt.Errorf("access denied - path outside allowed directories: %s", abs)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err == nil {
		if !f.within(real) {
			return "", fmt.Errorf("access denied - symlink target outside allowed directories: %s", real)
		}
		return real, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	return f.unicodeWalk(abs)
}

// unicodeWalk is resolveUnicodeEquivalentPath.
func (f *fileServer) unicodeWalk(abs string) (string, error) {
	allowed := ""
	for _, d := range f.dirs {
		if (abs == d || strings.HasPrefix(abs, d+"/")) && len(d) > len(allowed) {
			allowed = d
		}
	}
	current, err := filepath.EvalSymlinks(allowed)
	if err != nil {
		return "", err
	}
	rel := strings.TrimPrefix(strings.TrimPrefix(abs, allowed), "/")
	if rel == "" {
		return current, nil
	}
	parts := strings.Split(rel, "/")
	for i, part := range parts {
		entries, err := os.ReadDir(current)
		if err != nil {
			return "", err
		}
		var matches []string
		for _, e := range entries {
			if e.Name() == part {
				matches = []string{part}
				break
			}
			if norm.NFC.String(e.Name()) == norm.NFC.String(part) {
				matches = append(matches, e.Name())
			}
		}
		switch len(matches) {
		case 0:
			return path.Join(append([]string{current}, parts[i:]...)...), nil
		case 1:
		default:
			return "", fmt.Errorf("ambiguous Unicode path component: %s", part)
		}
		current, err = filepath.EvalSymlinks(path.Join(current, matches[0]))
		if err != nil {
			return "", err
		}
		if !f.within(current) {
			return "", fmt.Errorf("access denied - symlink target outside allowed directories: %s", current)
		}
	}
	return current, nil
}

func jsonUnmarshal(raw []byte, v any) error { return json.Unmarshal(raw, v) }
