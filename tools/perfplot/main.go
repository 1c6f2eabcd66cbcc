// Command perfplot draws docs/performance.png from `go test -bench`
// output: the median time per batch of each benchmark family (Session,
// OneShot, Naive, Reference, Cedar) against the number of declared
// tools, on log-log axes, with the targets of docs/performance.md that
// are times per batch drawn as dashed lines, and the legend beside the
// plot area so that it covers no data.
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
	"gonum.org/v1/plot/vg/vgimg"
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

// Targets of docs/performance.md that are a time per batch against the
// number of declared tools.
const (
	// sessionFlat: Session(10,000) / Session(100) ≤ 1.3×.
	sessionFlat = 1.3
	// oneShotGrowth: OneShot(10,000) / OneShot(100) ≤ 100×.
	oneShotGrowth = 100
)

// Size of the image and of the strip the legend is drawn in.
const (
	width  = 10 * vg.Inch
	height = 5.5 * vg.Inch
	gap    = 0.15 * vg.Inch
)

func main() {
	in := flag.String("in", "build/bench.txt", "benchmark output")
	out := flag.String("out", "docs/performance.png", "PNG to write")
	cedar := flag.Float64("cedar-target", 12, "the target: a Session batch at most this many times Cedar's, at every size")
	flag.Parse()
	if err := run(*in, *out, *cedar); err != nil {
		fmt.Fprintln(os.Stderr, "perfplot:", err)
		os.Exit(1)
	}
}

// series is the median time per batch in µs, by declared-tool count.
type series map[int]float64

// target is a dashed line for one target, drawn in the colour of the
// family it bounds.
type target struct {
	label  string
	family string
	dashes []vg.Length
	points plotter.XYs
}

func run(in, out string, cedarFactor float64) error {
	samples, err := read(in)
	if err != nil {
		return err
	}
	med := medians(samples)
	p := plot.New()
	p.Title.Text = "tooleval: time per batch of 10 calls (median)"
	p.X.Label.Text = "declared tools"
	p.Y.Label.Text = "time per batch"
	p.X.Scale, p.Y.Scale = plot.LogScale{}, plot.LogScale{}
	p.X.Tick.Marker, p.Y.Tick.Marker = plot.LogTicks{Prec: -1}, durationTicks{}
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.TextStyle.Font.Size = vg.Points(10)
	legend.Top, legend.Left = true, true
	legend.ThumbnailWidth = vg.Points(28)
	if err := addFamilies(p, &legend, med); err != nil {
		return err
	}
	for _, t := range targets(med, cedarFactor) {
		if err := addTarget(p, &legend, t); err != nil {
			return err
		}
	}
	return save(p, &legend, out)
}

// addFamilies draws each family's medians as a line with points.
func addFamilies(p *plot.Plot, legend *plot.Legend, med map[string]series) error {
	drawn := 0
	for _, family := range families {
		pts := points(med[family])
		if len(pts) == 0 {
			continue
		}
		l, s, err := plotter.NewLinePoints(pts)
		if err != nil {
			return fmt.Errorf("%s: %w", family, err)
		}
		l.Color, s.Color = colors[family], colors[family]
		l.Width = vg.Points(2)
		s.Shape = draw.CircleGlyph{}
		p.Add(l, s)
		legend.Add(family, l, s)
		drawn++
	}
	if drawn == 0 {
		return fmt.Errorf("no benchmark results")
	}
	return nil
}

func addTarget(p *plot.Plot, legend *plot.Legend, t target) error {
	l, err := plotter.NewLine(t.points)
	if err != nil {
		return fmt.Errorf("target %q: %w", t.label, err)
	}
	l.Color = colors[t.family]
	l.Width = vg.Points(1.5)
	l.Dashes = t.dashes
	p.Add(l)
	legend.Add(t.label, l)
	return nil
}

// save draws the plot on the left of the image and the legend in a strip
// on its right, outside the plot area, and writes the PNG.
func save(p *plot.Plot, legend *plot.Legend, out string) error {
	img := vgimg.New(width, height)
	dc := draw.New(img)
	strip := legend.Rectangle(draw.Canvas{}).Size().X + gap
	p.Draw(draw.Crop(dc, 0, -strip, 0, 0))
	legend.Draw(draw.Crop(dc, width-strip+gap/2, 0, 0, -gap))
	f, err := os.Create(out)
	if err != nil {
		return fmt.Errorf("write plot: %w", err)
	}
	if _, err := (vgimg.PngCanvas{Canvas: img}).WriteTo(f); err != nil {
		f.Close()
		return fmt.Errorf("write plot %s: %w", out, err)
	}
	return f.Close()
}

// targets is the dashed lines of the targets the data has families for:
// Session at most cedarFactor times Cedar at each size; Session flat in
// declared (at most 1.3 times its time at the smallest size); OneShot at
// most 100 times its time at the smallest size.
func targets(med map[string]series, cedarFactor float64) []target {
	var out []target
	if len(med["Session"]) > 0 && len(med["Cedar"]) > 0 {
		var pts plotter.XYs
		for _, n := range sortedKeys(med["Cedar"]) {
			pts = append(pts, plotter.XY{X: float64(n), Y: cedarFactor * med["Cedar"][n]})
		}
		out = append(out, target{
			label:  fmt.Sprintf("target: Session ≤ %g× Cedar", cedarFactor),
			family: "Session", dashes: []vg.Length{vg.Points(8), vg.Points(4)}, points: pts,
		})
	}
	if t, ok := ceiling(med["Session"], sessionFlat, "Session"); ok {
		t.dashes = []vg.Length{vg.Points(2), vg.Points(3)}
		out = append(out, t)
	}
	if t, ok := ceiling(med["OneShot"], oneShotGrowth, "OneShot"); ok {
		t.dashes = []vg.Length{vg.Points(8), vg.Points(4)}
		out = append(out, t)
	}
	return out
}

// ceiling is a horizontal line at factor times the family's time at its
// smallest size, across its sizes.
func ceiling(s series, factor float64, family string) (target, bool) {
	keys := sortedKeys(s)
	if len(keys) < 2 {
		return target{}, false
	}
	first, last := keys[0], keys[len(keys)-1]
	y := factor * s[first]
	return target{
		label:  fmt.Sprintf("target: %s ≤ %g× %s(%d)", family, factor, family, first),
		family: family,
		points: plotter.XYs{{X: float64(first), Y: y}, {X: float64(last), Y: y}},
	}, true
}

// durationTicks are log ticks on a µs axis labelled as durations
// (1 µs, 10 ms, 1 s).
type durationTicks struct{}

// Ticks implements plot.Ticker.
func (durationTicks) Ticks(min, max float64) []plot.Tick {
	ticks := plot.LogTicks{Prec: -1}.Ticks(min, max)
	for i, t := range ticks {
		if t.Label != "" {
			ticks[i].Label = duration(t.Value)
		}
	}
	return ticks
}

// duration writes a time in µs in the largest unit it is at least one of.
func duration(us float64) string {
	switch {
	case us >= 1e6:
		return fmt.Sprintf("%g s", us/1e6)
	case us >= 1e3:
		return fmt.Sprintf("%g ms", us/1e3)
	case us >= 1:
		return fmt.Sprintf("%g µs", us)
	default:
		return fmt.Sprintf("%g ns", us*1e3)
	}
}

// medians is the median of each family's samples per size, in µs.
func medians(samples map[string]map[int][]float64) map[string]series {
	out := map[string]series{}
	for family, sizes := range samples {
		out[family] = series{}
		for n, ns := range sizes {
			out[family][n] = median(ns) / 1000
		}
	}
	return out
}

func points(s series) plotter.XYs {
	var pts plotter.XYs
	for _, n := range sortedKeys(s) {
		pts = append(pts, plotter.XY{X: float64(n), Y: s[n]})
	}
	return pts
}

// read returns the ns/op samples per family and declared-tool count.
func read(path string) (map[string]map[int][]float64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read benchmarks: %w", err)
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
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	return samples, nil
}

func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func sortedKeys[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Ints(keys)
	return keys
}
