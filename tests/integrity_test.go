package tests

import (
	"context"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/tooleval/tooleval/engine"
	"github.com/tooleval/tooleval/internal/corpus"
	"github.com/tooleval/tooleval/tests/harness"
)

// bundleFiles lists the files of the policy bundle, as a loader reads
// them: the manifest, the Rego modules and the data files (tests and Go
// files are not part of it).
func bundleFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	require.NoError(t, filepath.WalkDir(harness.PoliciesDir(), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if strings.HasSuffix(name, "_test.rego") || strings.HasSuffix(name, ".go") {
			return nil
		}
		rel, err := filepath.Rel(harness.PoliciesDir(), path)
		files = append(files, rel)
		return err
	}))
	require.GreaterOrEqual(t, len(files), 30, "the bundle's files were not found")
	return files
}

// bundleCopy copies the bundle to a new directory, without the file
// skip, and with the files of replace written instead of theirs.
func bundleCopy(t *testing.T, skip string, replace map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for _, rel := range bundleFiles(t) {
		if rel == skip {
			continue
		}
		data, err := os.ReadFile(filepath.Join(harness.PoliciesDir(), rel))
		require.NoError(t, err)
		if r, ok := replace[rel]; ok {
			data = []byte(r)
		}
		require.NoError(t, os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, rel), data, 0o644))
	}
	return dir
}

// integrityCorpus is what a loaded bundle must decide like the full one:
// generated decisions and launches, the configuration check, and a
// sub-agent calling a full-width spelling of an excluded tool.
func integrityCorpus(t *testing.T) (decisions, launches [][]byte) {
	t.Helper()
	gen := corpus.New(12)
	for _, doc := range gen.Decisions(200) {
		data, err := json.Marshal(doc)
		require.NoError(t, err)
		decisions = append(decisions, data)
	}
	decisions = append(decisions, []byte(`{"agent": {"role": "subagent", "depth": 1},
		"declared": [{"name": "message"}, {"name": "read_file"}],
		"calls": [{"id": "a", "name": "ｍｅｓｓａｇｅ"}, {"id": "b", "name": "read_file"}, {"id": "c", "name": "ＲＥＡＤ_ＦＩＬＥ"}]}`))
	for _, doc := range gen.Launches(60) {
		data, err := json.Marshal(doc)
		require.NoError(t, err)
		launches = append(launches, data)
	}
	return decisions, launches
}

// documents decides the corpus with e and returns every document.
func documents(t *testing.T, e *engine.Engine, decisions, launches [][]byte) []string {
	t.Helper()
	ctx := context.Background()
	var out []string
	for _, in := range decisions {
		d, err := e.Decide(ctx, engine.JSON(in))
		require.NoError(t, err)
		data, err := d.JSON()
		require.NoError(t, err)
		out = append(out, string(data))
	}
	for _, in := range launches {
		l, err := e.Launch(ctx, engine.JSON(in))
		require.NoError(t, err)
		data, err := l.JSON()
		require.NoError(t, err)
		out = append(out, string(data))
	}
	c, err := e.Check(ctx, nil)
	require.NoError(t, err)
	data, err := c.JSON()
	require.NoError(t, err)
	return append(out, string(data))
}

// TestIncompleteBundlesAreRefused removes each file of the bundle in
// turn, and empties each data file, and loads the result. Loading must
// either refuse it (and a reload keep the last good policy serving), or,
// when the file is not needed, decide exactly as the full bundle does.
// Each variant compiles the bundle: make test loads half of them (about
// 40 s of CPU less on the 2-core machine), make soak all.
func TestIncompleteBundlesAreRefused(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	full, err := engine.New(ctx, engine.WithBundle(bundleCopy(t, "", nil)))
	require.NoError(t, err)
	decisions, launches := integrityCorpus(t)
	want := documents(t, full, decisions, launches)
	fullRevision := full.Revision()

	type variant struct{ name, skip, replace string }
	var variants []variant
	for _, rel := range bundleFiles(t) {
		variants = append(variants, variant{"without " + rel, rel, ""})
		if strings.HasSuffix(rel, ".json") {
			variants = append(variants, variant{rel + " holding {}", "", rel})
		}
	}
	// make test loads half of them, the half the day's parity picks (so
	// that two days cover them all); make soak (a scale of 2 or more)
	// loads every one.
	stride := 2
	if scale, err := corpus.Scaled(1); err == nil && scale >= 2 {
		stride = 1
	}
	offset := time.Now().UTC().YearDay() % stride
	t.Logf("loading the variants %d mod %d of %d (%s=2 or more loads all)", offset, stride, len(variants), corpus.ScaleVariable)
	var accepted []string
	loaded := 0
	for i, v := range variants {
		if i%stride != offset {
			continue
		}
		loaded++
		var replace map[string]string
		if v.replace != "" {
			replace = map[string]string{v.replace: "{}"}
		}
		dir := bundleCopy(t, v.skip, replace)
		err := full.Reload(ctx, dir)
		if err != nil {
			require.Equal(t, fullRevision, full.Revision(), "%s: a refused reload replaced the policy", v.name)
			continue
		}
		accepted = append(accepted, v.name)
		got := documents(t, full, decisions, launches)
		for i := range want {
			require.Equal(t, want[i], got[i], "%s was loaded and decides differently (document %d)", v.name, i)
		}
		require.NoError(t, full.Reload(ctx, bundleCopy(t, "", nil)))
	}
	t.Logf("%d incomplete bundles loaded: %d refused; accepted, deciding as the full bundle: %v", loaded, loaded-len(accepted), accepted)

	// engine.New (and so --bundle) refuses the same way.
	_, err = engine.New(ctx, engine.WithBundle(bundleCopy(t, "tooleval/unicode/data.json", nil)))
	require.ErrorContains(t, err, "unicode")
}
