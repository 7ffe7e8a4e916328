package main

import (
	"cmp"
	"slices"
	"strings"
)

// rank returns the position of name in order, or len(order) for a name
// not in it, so that unknown names sort last.
func rank(order []string, name string) int {
	if i := slices.Index(order, name); i >= 0 {
		return i
	}
	return len(order)
}

// distOrder returns the distribution names in the order of the x axis.
func distOrder() []string {
	var names []string
	for _, d := range distributions() {
		names = append(names, d.label())
	}
	return names
}

// byOrder compares names by their position in order, names not in it
// after those in it, by name.
func byOrder(order []string) func(a, b string) int {
	return func(a, b string) int {
		return cmp.Or(cmp.Compare(rank(order, a), rank(order, b)), strings.Compare(a, b))
	}
}

// rowDist and rowMethod pick a row's distribution and method.
func rowDist(r row) string   { return r.dist }
func rowMethod(r row) string { return r.method }

// sortRows orders rows by n, then distribution, then method, each in its
// benchmark order.
func sortRows(rows []row) {
	dists, methods := byOrder(distOrder()), byOrder(methodOrder)
	slices.SortStableFunc(rows, func(a, b row) int {
		return cmp.Or(cmp.Compare(a.n, b.n), dists(a.dist, b.dist), methods(a.method, b.method))
	})
}

// namesOf returns the distinct names field picks from n's rows, sorted by
// byOrder(order).
func namesOf(rows []row, n int, field func(row) string, order []string) []string {
	var names []string
	for _, r := range rows {
		if r.n == n && !slices.Contains(names, field(r)) {
			names = append(names, field(r))
		}
	}
	slices.SortFunc(names, byOrder(order))
	return names
}

// sizesOf returns the distinct n of rows, ascending.
func sizesOf(rows []row) []int {
	var ns []int
	for _, r := range rows {
		ns = append(ns, r.n)
	}
	slices.Sort(ns)
	return slices.Compact(ns)
}

// lookup finds the row of n, dist and method.
func lookup(rows []row, n int, dist, method string) (row, bool) {
	i := slices.IndexFunc(rows, func(r row) bool { return r.n == n && r.dist == dist && r.method == method })
	if i < 0 {
		return row{}, false
	}
	return rows[i], true
}
