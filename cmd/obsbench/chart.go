package main

import (
	"fmt"
	"image/color"
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
	chartWidth  = 15 * vg.Inch
	chartHeight = 5 * vg.Inch
	legendWidth = 3.4 * vg.Inch
)

// logSpread is the ratio of the largest to the smallest value from which
// a chart's y axis is logarithmic.
const logSpread = 20

// chartName returns the file name of n's chart of times.
func chartName(n int) string { return fmt.Sprintf("sort_%d.svg", n) }

// ratioChartName returns the file name of n's chart of ratios.
func ratioChartName(n int) string { return fmt.Sprintf("ratio_%d.svg", n) }

// series is one line of a chart: its legend, the method whose style it
// takes, and a value per distribution it has one for.
type series struct {
	legend, method string
	values         map[string]float64
}

// writeCharts writes, per n of rows, the chart of times and, when some
// method of ours has its rival's rows, the chart of ratios into dir, and
// returns the files' paths.
func writeCharts(dir string, rows []row) ([]string, error) {
	var paths []string
	for _, n := range sizesOf(rows) {
		dists := namesOf(rows, n, rowDist, distOrder())
		charts := []struct {
			name, title, yLabel string
			lines               []series
			one                 bool
		}{
			{chartName(n), fmt.Sprintf("Sorting %s keys", sizeName(n)), "median time (ms)", timeSeries(rows, n), false},
			{ratioChartName(n), fmt.Sprintf("Sorting %s keys: ours / CUB, below 1 when ours is faster", sizeName(n)),
				"median time ratio", ratioSeries(rows, n), true},
		}
		for _, c := range charts {
			if len(c.lines) == 0 {
				continue
			}
			path := filepath.Join(dir, c.name)
			if err := drawChart(path, c.title, c.yLabel, dists, c.lines, c.one); err != nil {
				return nil, fmt.Errorf("drawing %s: %w", path, err)
			}
			paths = append(paths, path)
		}
	}
	return paths, nil
}

// timeSeries returns n's medians, one series per method.
func timeSeries(rows []row, n int) []series {
	var lines []series
	for _, m := range namesOf(rows, n, rowMethod, methodOrder) {
		s := series{legend: m, method: m, values: map[string]float64{}}
		for _, r := range rows {
			if r.n == n && r.method == m {
				s.values[r.dist] = r.medianMS
			}
		}
		lines = append(lines, s)
	}
	return lines
}

// ratioSeries returns n's ratios of our methods to their rivals, one
// series per method with at least one.
func ratioSeries(rows []row, n int) []series {
	var lines []series
	for _, c := range comparisonsOf(rows, n) {
		s := series{legend: c.ours + " / " + c.theirs, method: c.ours, values: map[string]float64{}}
		for _, dist := range namesOf(rows, n, rowDist, distOrder()) {
			if q, ok := ratioOf(rows, n, dist, c); ok {
				s.values[dist] = q
			}
		}
		if len(s.values) > 0 {
			lines = append(lines, s)
		}
	}
	return lines
}

// drawChart draws lines across the distributions as an SVG file, with a
// grey line at 1, inside the y axis, when one is set.
func drawChart(path, title, yLabel string, dists []string, lines []series, one bool) error {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = "key distribution"
	p.Y.Label.Text = yLabel
	p.NominalX(dists...)
	p.X.Min, p.X.Max = -0.5, float64(len(dists))-0.5
	p.Add(plotter.NewGrid())
	legend := plot.NewLegend()
	legend.Top, legend.Left = true, true
	var values []float64
	for _, s := range lines {
		var pts plotter.XYs
		for x, dist := range dists {
			if v, ok := s.values[dist]; ok {
				pts = append(pts, plotter.XY{X: float64(x), Y: v})
				values = append(values, v)
			}
		}
		line, points, err := plotter.NewLinePoints(pts)
		if err != nil {
			return err
		}
		styleLine(line, points, s.method)
		p.Add(line, points)
		legend.Add(s.legend, line, points)
	}
	if one {
		f := plotter.NewFunction(func(float64) float64 { return 1 })
		f.Color = color.Gray{Y: 96}
		f.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
		p.Add(f)
		legend.Add("ours = CUB", f)
		values = append(values, 1)
		p.Y.Min, p.Y.Max = min(p.Y.Min, 1), max(p.Y.Max, 1)
	}
	if logScale(values) {
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

// logScale reports whether values spread so widely that a logarithmic
// axis shows them better (and can: all are positive).
func logScale(values []float64) bool {
	if len(values) == 0 || slices.Min(values) <= 0 {
		return false
	}
	return slices.Max(values)/slices.Min(values) >= logSpread
}
