package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Chart geometry: the plot on the left, the legend in a column on the right.
const (
	chartWidth  = 12 * vg.Inch
	chartHeight = 5 * vg.Inch
	legendWidth = 1.6 * vg.Inch
)

// logSpread is the ratio of the largest to the smallest median from which
// a chart's y axis is logarithmic.
const logSpread = 20

// chartName returns the file name of n's chart.
func chartName(n int) string { return fmt.Sprintf("sort_%d.svg", n) }

// writeCharts writes one SVG chart per n of rows into dir and returns the
// files' paths.
func writeCharts(dir string, rows []row) ([]string, error) {
	var paths []string
	for _, n := range sizesOf(rows) {
		path := filepath.Join(dir, chartName(n))
		if err := writeChart(path, rows, n); err != nil {
			return nil, fmt.Errorf("drawing %s: %w", path, err)
		}
		paths = append(paths, path)
	}
	return paths, nil
}

// writeChart draws n's medians, one line per method across the
// distributions, as an SVG file.
func writeChart(path string, rows []row, n int) error {
	dists := namesOf(rows, n, rowDist, distOrder())
	p := plot.New()
	p.Title.Text = fmt.Sprintf("Sorting %s uint32 keys", sizeName(n))
	p.X.Label.Text = "key distribution"
	p.Y.Label.Text = "median time (ms)"
	p.NominalX(dists...)
	p.X.Min, p.X.Max = -0.5, float64(len(dists))-0.5
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	var medians []float64
	for _, m := range namesOf(rows, n, rowMethod, methodOrder) {
		var pts plotter.XYs
		for x, dist := range dists {
			if r, ok := lookup(rows, n, dist, m); ok {
				pts = append(pts, plotter.XY{X: float64(x), Y: r.medianMS})
				medians = append(medians, r.medianMS)
			}
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		styleLine(line, points, m)
		p.Add(line, points)
		legend.Add(m, line, points)
	}
	if logScale(medians) {
		p.Y.Scale = plot.LogScale{}
		p.Y.Tick.Marker = plot.LogTicks{Prec: -1}
		p.Y.Label.Text += ", log scale"
	}
	canvas := vgsvg.New(chartWidth, chartHeight)
	dc := draw.New(canvas)
	p.Draw(draw.Crop(dc, 0, -legendWidth, 0, 0))
	legend.Draw(draw.Crop(dc, chartWidth-legendWidth+vg.Points(8), 0, 0, -vg.Points(24)))
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if _, err := canvas.WriteTo(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// styleLine gives method m its colour and glyph (the same in every chart),
// and a dashed line for the baseline's methods.
func styleLine(line *plotter.Line, points *plotter.Scatter, m string) {
	i := rank(methodOrder, m)
	line.Color = plotutil.DarkColors[i%len(plotutil.DarkColors)]
	line.Width = vg.Points(1.5)
	if !strings.HasPrefix(m, "obs_") {
		line.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		line.Width = vg.Points(1)
	}
	points.Color = line.Color
	points.Shape = plotutil.DefaultGlyphShapes[i%len(plotutil.DefaultGlyphShapes)]
	points.Radius = vg.Points(2.5)
}

// logScale reports whether medians spread so widely that a logarithmic
// axis shows them better (and can: all are positive).
func logScale(medians []float64) bool {
	if len(medians) == 0 || slices.Min(medians) <= 0 {
		return false
	}
	return slices.Max(medians)/slices.Min(medians) >= logSpread
}
