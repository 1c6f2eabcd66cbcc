package main

import (
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
	"gonum.org/v1/plot/plotter"
)

const sample = `goos: linux
BenchmarkSession/declared=100-2   	      10	    900000 ns/op
BenchmarkSession/declared=100-2   	      10	   1100000 ns/op
BenchmarkSession/declared=10000-2 	      10	    800000 ns/op
BenchmarkOneShot/declared=100-2   	      10	  11000000 ns/op
BenchmarkOneShot/declared=10000-2 	      10	 150000000 ns/op
BenchmarkCedar/declared=100-2     	   10000	     20000 ns/op
BenchmarkCedar/declared=10000-2   	   10000	     25000 ns/op
`

func writeSample(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "bench.txt")
	require.NoError(t, os.WriteFile(path, []byte(sample), 0o644))
	return path
}

// TestTargets: the 12× Cedar line follows Cedar's medians; the flat and
// growth ceilings sit at 1.3× Session and 100× OneShot at the smallest
// size, across the sizes measured.
func TestTargets(t *testing.T) {
	samples, err := read(writeSample(t))
	require.NoError(t, err)
	got := targets(medians(samples), 12)
	require.Len(t, got, 3)
	require.Equal(t, "target: Session ≤ 12× Cedar", got[0].label)
	require.Equal(t, plotter.XYs{{X: 100, Y: 240}, {X: 10000, Y: 300}}, got[0].points)
	require.Equal(t, "target: Session ≤ 1.3× Session(100)", got[1].label)
	require.InDeltaSlice(t, []float64{1300, 1300}, []float64{got[1].points[0].Y, got[1].points[1].Y}, 1e-9)
	require.Equal(t, "target: OneShot ≤ 100× OneShot(100)", got[2].label)
	require.Equal(t, plotter.XYs{{X: 100, Y: 1.1e6}, {X: 10000, Y: 1.1e6}}, got[2].points)
}

// TestTargetsNeedTheirFamilies: no Cedar, no Cedar line.
func TestTargetsNeedTheirFamilies(t *testing.T) {
	got := targets(map[string]series{"Session": {100: 1000, 10000: 900}}, 12)
	require.Len(t, got, 1)
	require.Equal(t, "Session", got[0].family)
}

// TestRunWritesThePNG renders the sample to a PNG of the set size.
func TestRunWritesThePNG(t *testing.T) {
	out := filepath.Join(t.TempDir(), "perf.png")
	require.NoError(t, run(writeSample(t), out, 12))
	f, err := os.Open(out)
	require.NoError(t, err)
	defer f.Close()
	cfg, err := png.DecodeConfig(f)
	require.NoError(t, err)
	require.Equal(t, 960, cfg.Width) // 10 inches at vgimg's 96 dpi
}

func TestRunFailsWithoutResults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "empty.txt")
	require.NoError(t, os.WriteFile(path, []byte("PASS\n"), 0o644))
	require.ErrorContains(t, run(path, filepath.Join(t.TempDir(), "x.png"), 12), "no benchmark results")
}

func TestDuration(t *testing.T) {
	for us, want := range map[float64]string{0.1: "100 ns", 1: "1 µs", 100: "100 µs", 1000: "1 ms", 1e6: "1 s"} {
		require.Equal(t, want, duration(us))
	}
}
