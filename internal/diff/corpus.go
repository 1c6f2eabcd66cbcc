// Package diff replays a corpus of requests under two policies (a base
// and a candidate) and reports every call whose verdict, reason or layer
// changes, with the changes in each request's effective tools and
// errors: the impact analysis behind `tooleval diff`.
package diff

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// Request is one replayable request of a corpus.
type Request struct {
	// Source says where the request was read: a file, and for JSON
	// Lines and logs the line (file:line).
	Source string `json:"source"`
	// Input is the input document, as JSON.
	Input json.RawMessage `json:"-"`
	// Masked lists the JSON pointers under /input that the decision log
	// masked or erased (OPA's erased and masked event members); the
	// replay cannot see what they held.
	Masked []string `json:"masked,omitempty"`
}

// maxLine bounds one line of a JSON Lines file or decision log.
const maxLine = 64 << 20

// Read reads the requests of the corpus paths, in order: JSON files
// (one input document each), directories (their *.json, *.jsonl and
// *.log files, recursively, in lexical order), JSON Lines files (*.jsonl,
// *.log, or "-" for standard input: one input document per line), and
// OPA decision logs (the console or file output of OPA's decision log
// plugin: lines with decision_id and input, of which those whose path is
// a tooleval decision are replayed). A decision log event names what the
// mask removed from its input; see Request.Masked.
func Read(paths []string, stdin io.Reader) ([]Request, error) {
	var out []Request
	for _, path := range paths {
		if path == "-" {
			requests, err := readLines("standard input", stdin)
			if err != nil {
				return nil, err
			}
			out = append(out, requests...)
			continue
		}
		files, err := corpusFiles(path)
		if err != nil {
			return nil, err
		}
		for _, file := range files {
			requests, err := readFile(file)
			if err != nil {
				return nil, err
			}
			out = append(out, requests...)
		}
	}
	return out, nil
}

func corpusFiles(path string) ([]string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	if !info.IsDir() {
		return []string{path}, nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && corpusExtension(p) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("corpus: %s has no .json, .jsonl or .log file", path)
	}
	return files, nil
}

func corpusExtension(p string) bool {
	switch filepath.Ext(p) {
	case ".json", ".jsonl", ".log":
		return true
	}
	return false
}

func readFile(path string) ([]Request, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	defer f.Close()
	if filepath.Ext(path) == ".json" {
		data, err := io.ReadAll(f)
		if err != nil {
			return nil, fmt.Errorf("corpus: %s: %w", path, err)
		}
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		r, ok, err := request(path, data)
		if err != nil || !ok {
			return nil, err
		}
		return []Request{r}, nil
	}
	return readLines(path, f)
}

func readLines(name string, r io.Reader) ([]Request, error) {
	scanner := bufio.NewScanner(r)
	scanner.Buffer(make([]byte, 0, 64<<10), maxLine)
	var out []Request
	for line := 1; scanner.Scan(); line++ {
		text := bytes.TrimSpace(scanner.Bytes())
		if len(text) == 0 {
			continue
		}
		req, ok, err := request(fmt.Sprintf("%s:%d", name, line), bytes.Clone(text))
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, req)
		}
	}
	if err := scanner.Err(); err != nil {
		return nil, fmt.Errorf("corpus: %s: %w", name, err)
	}
	return out, nil
}

// request reads one JSON document: a decision log event (replayed when
// it is a tooleval decision, skipped otherwise) or an input document.
func request(source string, data []byte) (Request, bool, error) {
	if !json.Valid(data) {
		return Request{}, false, fmt.Errorf("corpus: %s: not one JSON document", source)
	}
	var event struct {
		DecisionID *string          `json:"decision_id"`
		Path       string           `json:"path"`
		Input      *json.RawMessage `json:"input"`
		Erased     []string         `json:"erased"`
		Masked     []string         `json:"masked"`
	}
	if err := json.Unmarshal(data, &event); err != nil || event.DecisionID == nil {
		return Request{Source: source, Input: data}, true, nil // an input document (any JSON value)
	}
	if !decisionPath(event.Path) || event.Input == nil {
		return Request{}, false, nil // another entry point's event, or one without input
	}
	var masked []string
	for _, pointer := range append(event.Erased, event.Masked...) {
		if pointer == "/input" || strings.HasPrefix(pointer, "/input/") {
			masked = append(masked, pointer)
		}
	}
	return Request{Source: source, Input: *event.Input, Masked: masked}, true, nil
}

// decisionPath reports whether a decision log path is one of the
// entry points whose input is a decision input.
func decisionPath(path string) bool {
	path = strings.TrimPrefix(strings.ReplaceAll(path, ".", "/"), "data/")
	return path == "tooleval/decision" || path == "tooleval/explain"
}
