package tests

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	"github.com/tooleval/tooleval/tests/harness"
)

// TestDeployBundleServiceTemplateServes runs docs/deploy.md's bundle
// service set-up: its opa run command as written (the pinned OPA as opa
// on the PATH, the address replaced by a free loopback port) with the
// page's bundle/opa-config.yaml filled in where it says "your own": the
// service's URL (a local bundle service serving a signed bundle) and the
// public key (the page's "..."). OPA then activates the signed bundle
// (/health?bundles answers 200), serves a decision, and logs it to the
// console as the configuration asks.
func TestDeployBundleServiceTemplateServes(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../docs/deploy.md")
	require.NoError(t, err)
	page := string(data)
	const command = "opa run --server --addr 0.0.0.0:8181 --skip-version-check --optimize-store-for-read-speed --config-file bundle/opa-config.yaml"
	require.Contains(t, page, command)
	_, after, _ := strings.Cut(page, command)
	configs := docBlocks(t, after, "yaml")
	require.NotEmpty(t, configs, "docs/deploy.md shows no configuration after %q", command)
	template := configs[0]

	private, public := signingKey(t)
	service := newBundleService(t)
	service.publish(harness.BuildBundle(t, harness.PoliciesDir(), "template-1", "--signing-key", private, "--signing-alg", "RS256"))
	publicPEM, err := os.ReadFile(public)
	require.NoError(t, err)
	const url, placeholder = "https://bundles.example.internal", "      ...\n"
	require.Contains(t, template, url)
	require.Contains(t, template, placeholder)
	filled := strings.NewReplacer(
		url, service.server.URL,
		placeholder, "      "+strings.ReplaceAll(strings.TrimSpace(string(publicPEM)), "\n", "\n      ")+"\n",
	).Replace(template)

	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "bundle"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "bundle", "opa-config.yaml"), []byte(filled), 0o600))
	server := serveDocOPA(t, dir, command)
	require.True(t, server.healthy, "%q did not activate the signed bundle:\n%s", command, server.out.String())
	addr, out := server.addr, server.out

	resp, err := http.Post("http://"+addr+"/v1/data/tooleval/decision", "application/json",
		strings.NewReader(`{"input": {"declared": [{"name": "read_file"}], "calls": [{"id": "c1", "name": "read_file"}]}}`))
	require.NoError(t, err)
	body := new(strings.Builder)
	_, _ = io.Copy(body, resp.Body)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode, body.String())
	require.Contains(t, body.String(), `"outcome":"allow"`)
	require.Eventually(t, func() bool {
		return strings.Contains(out.String(), `"path":"tooleval/decision"`) || strings.Contains(out.String(), `"path": "tooleval/decision"`)
	}, time.Minute, 100*time.Millisecond, "no decision log event on the console:\n%s", out.String())
}
