// Package inputs reads the input documents the command line evaluates
// or replays: JSON files, directories, JSON Lines and OPA decision logs.
package inputs

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

	"github.com/tooleval/tooleval/engine"
)

// DecisionEntryPoints are the decision log paths whose inputs are
// decision inputs (the input shape of data.tooleval.decision).
var DecisionEntryPoints = []string{"tooleval/decision", "tooleval/explain"}

// Document is one input document and where it was read.
type Document struct {
	// Source says where the request was read: a file, and for JSON
	// Lines and logs the line (file:line).
	Source string `json:"source"`
	// Input is the input document, as JSON.
	Input json.RawMessage `json:"-"`
	// Masked lists the JSON pointers under /input that the decision log
	// masked or erased (OPA's erased and masked event members); the
	// replay cannot see what they held.
	Masked []string `json:"masked,omitempty"`
	// Result is the document a decision log event recorded (masked as
	// the log masked it), or nil.
	Result json.RawMessage `json:"-"`
	// Revisions are the bundle revisions a decision log event recorded
	// (its bundles' revisions, and a legacy top-level revision), sorted;
	// a revision that is not a string is recorded as "".
	Revisions []string `json:"revisions,omitempty"`
}

// maxLine bounds one line of a JSON Lines file or decision log.
const maxLine = 64 << 20

// Read reads the documents of the paths, in order: files (one JSON
// document each, unless named *.jsonl or *.log), directories (their *.json, *.jsonl and
// *.log files, recursively, in lexical order), JSON Lines files (*.jsonl,
// *.log: one input document per line), standard input ("-": one JSON
// document over any number of lines, or else JSON Lines), and
// OPA decision logs (the console or file output of OPA's decision log
// plugin: lines with decision_id and input, of which those of the entry
// points given, such as "tooleval/decision", are read and the others
// skipped). A decision log event names what the mask removed from its
// input; see Document.Masked.
func Read(paths []string, stdin io.Reader, entryPoints ...string) ([]Document, error) {
	r := reader{entryPoints: map[string]bool{}}
	for _, p := range entryPoints {
		r.entryPoints[p] = true
	}
	var out []Document
	for _, path := range paths {
		if path == "-" {
			requests, err := r.readStandardInput(stdin)
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
			requests, err := r.readFile(file)
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
		return nil, fmt.Errorf("inputs: %w", err)
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
		return nil, fmt.Errorf("inputs: %w", err)
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("inputs: %s has no .json, .jsonl or .log file", path)
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

type reader struct {
	entryPoints map[string]bool
}

func (r reader) readFile(path string) ([]Document, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("inputs: %w", err)
	}
	defer f.Close()
	if ext := filepath.Ext(path); ext != ".jsonl" && ext != ".log" {
		data, err := io.ReadAll(f)
		if err != nil {
			return nil, fmt.Errorf("inputs: %s: %w", path, err)
		}
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		doc, ok, err := r.document(path, data)
		if err != nil || !ok {
			return nil, err
		}
		return []Document{doc}, nil
	}
	return r.readLines(path, f)
}

// readStandardInput reads one JSON document (over any number of lines)
// or, when the whole is not one document, JSON Lines.
func (r reader) readStandardInput(in io.Reader) ([]Document, error) {
	data, err := io.ReadAll(in)
	if err != nil {
		return nil, fmt.Errorf("inputs: standard input: %w", err)
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	whole := bytes.TrimSpace(data)
	first, _, _ := bytes.Cut(whole, []byte("\n"))
	if !json.Valid(whole) && json.Valid(bytes.TrimSpace(first)) {
		return r.readLines("standard input", bytes.NewReader(data))
	}
	doc, ok, err := r.document("standard input", whole)
	if err != nil || !ok {
		return nil, err
	}
	return []Document{doc}, nil
}

func (r reader) readLines(name string, in io.Reader) ([]Document, error) {
	scanner := bufio.NewScanner(in)
	scanner.Buffer(make([]byte, 0, 64<<10), maxLine)
	var out []Document
	for line := 1; scanner.Scan(); line++ {
		text := bytes.TrimSpace(scanner.Bytes())
		if len(text) == 0 {
			continue
		}
		req, ok, err := r.document(fmt.Sprintf("%s:%d", name, line), bytes.Clone(text))
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, req)
		}
	}
	if err := scanner.Err(); err != nil {
		return nil, fmt.Errorf("inputs: %s: %w", name, err)
	}
	return out, nil
}

// document reads one JSON document: a decision log event (read when it
// is one of the entry points', skipped otherwise) or an input document.
func (r reader) document(source string, data []byte) (Document, bool, error) {
	if !json.Valid(data) {
		_, err := engine.DecodeInput(data) // says where and why
		return Document{}, false, fmt.Errorf("inputs: %s: not one JSON document: %w", source, err)
	}
	var event struct {
		DecisionID *string          `json:"decision_id"`
		Path       string           `json:"path"`
		Input      *json.RawMessage `json:"input"`
		Erased     []string         `json:"erased"`
		Masked     []string         `json:"masked"`
		Result     json.RawMessage  `json:"result"`
		Bundles    json.RawMessage  `json:"bundles"`
		Revision   json.RawMessage  `json:"revision"`
	}
	if err := json.Unmarshal(data, &event); err != nil || event.DecisionID == nil {
		return Document{Source: source, Input: data}, true, nil // an input document (any JSON value)
	}
	if !r.entryPoints[entryPoint(event.Path)] {
		return Document{}, false, nil // another entry point's event
	}
	var masked []string
	for _, pointer := range append(event.Erased, event.Masked...) {
		if pointer == "/input" || strings.HasPrefix(pointer, "/input/") {
			masked = append(masked, pointer)
		}
	}
	if event.Input == nil {
		if len(masked) == 0 {
			return Document{}, false, nil // an event without input
		}
		// The mask erased the whole input: a document that is not
		// replayable, not one to skip.
		return Document{Source: source, Input: json.RawMessage("null"), Masked: masked, Result: event.Result, Revisions: revisions(event.Bundles, event.Revision)}, true, nil
	}
	return Document{Source: source, Input: *event.Input, Masked: masked, Result: event.Result, Revisions: revisions(event.Bundles, event.Revision)}, true, nil
}

// revisions reads the bundle revisions of a decision log event: each of
// its bundles' ({"NAME": {"revision": REV}}) and its legacy top-level
// revision, sorted. What is not a string, or bundles that are not an
// object of objects, read as "" (a revision that names no bundle).
func revisions(bundles, revision json.RawMessage) []string {
	var out []string
	if len(bundles) > 0 && string(bundles) != "null" {
		var m map[string]map[string]json.RawMessage
		if err := json.Unmarshal(bundles, &m); err != nil {
			out = append(out, "")
		}
		for _, b := range m {
			var r string
			if err := json.Unmarshal(b["revision"], &r); err != nil {
				r = ""
			}
			out = append(out, r)
		}
	}
	if len(revision) > 0 && string(revision) != "null" {
		var r string
		if err := json.Unmarshal(revision, &r); err != nil {
			r = ""
		}
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}

// entryPoint is a decision log path as a/b ("data.a.b" and "a/b" alike).
func entryPoint(path string) string {
	return strings.TrimPrefix(strings.ReplaceAll(path, ".", "/"), "data/")
}
