// Command perfplot draws docs/performance.png from `go test -bench`
// output: the median time per batch of each benchmark family (Session,
// OneShot, Naive, Reference, Cedar) against the number of declared
// tools, on log-log axes.
//
// Usage:
//
//	go run . -in ../../build/bench.txt -out ../../docs/performance.png
package main

import (
	"bufio"
	"flag"
	"fmt"
	"image/color"
	"os"
	"regexp"
	"sort"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// line matches "BenchmarkSession/declared=1000-2   20   123456 ns/op ...".
var line = regexp.MustCompile(`^Benchmark(\w+)/declared=(\d+)(?:-\d+)?\s+\d+\s+([\d.]+) ns/op`)

var families = []string{"Session", "OneShot", "Naive", "Reference", "Cedar"}

var colors = map[string]color.Color{
	"Session":   color.RGBA{R: 0x1f, G: 0x77, B: 0xb4, A: 0xff},
	"OneShot":   color.RGBA{R: 0xff, G: 0x7f, B: 0x0e, A: 0xff},
	"Naive":     color.RGBA{R: 0xd6, G: 0x27, B: 0x28, A: 0xff},
	"Reference": color.RGBA{R: 0x2c, G: 0xa0, B: 0x2c, A: 0xff},
	"Cedar":     color.RGBA{R: 0x94, G: 0x67, B: 0xbd, A: 0xff},
}

func main() {
	in := flag.String("in", "build/bench.txt", "benchmark output")
	out := flag.String("out", "docs/performance.png", "PNG to write")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "perfplot:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	samples, err := read(in)
	if err != nil {
		return err
	}
	p := plot.New()
	p.Title.Text = "tooleval: time per batch of 10 calls (median)"
	p.X.Label.Text = "declared tools"
	p.Y.Label.Text = "time per batch (µs)"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, plot.LogTicks{Prec: -1}
	p.Legend.Top, p.Legend.Left = true, true
	p.Add(plotter.NewGrid())
	drawn := 0
	for _, family := range families {
		sizes := samples[family]
		if len(sizes) == 0 {
			continue
		}
		var pts plotter.XYs
		for _, n := range sortedKeys(sizes) {
			pts = append(pts, plotter.XY{X: float64(n), Y: median(sizes[n]) / 1000})
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		l.Color, s.Color = colors[family], colors[family]
		l.Width = vg.Points(2)
		s.Shape = draw.CircleGlyph{}
		p.Add(l, s)
		p.Legend.Add(family, l, s)
		drawn++
	}
	if drawn == 0 {
		return fmt.Errorf("no benchmark results in %s", in)
	}
	return p.Save(8*vg.Inch, 5*vg.Inch, out)
}

// read returns the ns/op samples per family and declared-tool count.
func read(path string) (map[string]map[int][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	samples := map[string]map[int][]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		m := line.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		n, _ := strconv.Atoi(m[2])
		ns, _ := strconv.ParseFloat(m[3], 64)
		if samples[m[1]] == nil {
			samples[m[1]] = map[int][]float64{}
		}
		samples[m[1]][n] = append(samples[m[1]][n], ns)
	}
	return samples, sc.Err()
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func sortedKeys(m map[int][]float64) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}
