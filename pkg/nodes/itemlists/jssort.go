package itemlists

import "sort"

// jsSort sorts like V8's Array.prototype.sort (TimSort), so that a comparison that is not
// consistent (n8n's sort puts a value before null and null before the value) orders items as
// n8n does. Arrays shorter than 64 elements, TimSort's minimum run, are one run made by
// binary insertion; longer ones are sorted stably, which gives TimSort's result whenever the
// comparison is consistent.
func jsSort[T any](a []T, compare func(x, y T) int) {
	n := len(a)
	if n < 2 {
		return
	}
	if n >= 64 {
		sort.SliceStable(a, func(i, j int) bool { return compare(a[i], a[j]) < 0 })
		return
	}
	run := countAndMakeRun(a, compare)
	binaryInsertionSort(a, run, compare)
}

// countAndMakeRun finds the ordered run at the start (reversing a strictly descending one) and
// returns its length.
func countAndMakeRun[T any](a []T, compare func(x, y T) int) int {
	if len(a) == 1 {
		return 1
	}
	runLength := 2
	descending := compare(a[1], a[0]) < 0
	prev := a[1]
	for i := 2; i < len(a); i++ {
		order := compare(a[i], prev)
		if descending && order >= 0 || !descending && order < 0 {
			break
		}
		prev = a[i]
		runLength++
	}
	if descending {
		for i, j := 0, runLength-1; i < j; i, j = i+1, j-1 {
			a[i], a[j] = a[j], a[i]
		}
	}
	return runLength
}

// binaryInsertionSort inserts a[start:] one by one into the sorted a[:start], after equal
// elements.
func binaryInsertionSort[T any](a []T, start int, compare func(x, y T) int) {
	for ; start < len(a); start++ {
		pivot := a[start]
		left, right := 0, start
		for left < right {
			mid := left + (right-left)/2
			if compare(pivot, a[mid]) < 0 {
				right = mid
			} else {
				left = mid + 1
			}
		}
		copy(a[left+1:start+1], a[left:start])
		a[left] = pivot
	}
}
