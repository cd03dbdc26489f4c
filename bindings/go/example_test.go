package dpcov_test

import (
	"errors"
	"fmt"
	"math"

	"dpcov.dev/dpcov"
)

// A covariance release from rows streamed into a Gram accumulator. Real releases use
// dpcov.NewRNGFromEntropy; the fixed seed only makes the example reproducible.
func Example() {
	rows := dpcov.MatrixFromRows([][]float64{
		{0.1, 0.2, 0.3}, {0.4, 0.1, 0.0}, {0.2, 0.2, 0.2}, {0.9, 0.9, 0.9},
	})
	gram, err := dpcov.NewGram(3)
	if err != nil {
		panic(err)
	}
	defer gram.Close()
	if err := gram.AddRows(rows, 1.0, dpcov.BoundClip); err != nil {
		panic(err)
	}
	rng, err := dpcov.NewRNGSeeded(42, 0)
	if err != nil {
		panic(err)
	}
	defer rng.Close()
	released, receipt, err := gram.Release(dpcov.AnalyzeGauss, 1.0, 1e-6, nil, rng)
	if err != nil {
		panic(err)
	}
	info, _ := gram.Info()
	fmt.Println(released.Rows, released.Cols, receipt.Mechanism, receipt.N, info.Clipped)
	fmt.Println("seed fixed:", receipt.SeedFixed)
	// Output:
	// 3 3 analyze_gauss 4 1
	// seed fixed: true
}

// A failed call returns an *Error whose status errors.Is recognises.
func ExampleError() {
	_, err := dpcov.Plan(dpcov.WishartAdditive, 3, 100, 1.0, 2.0, 1e-6, nil)
	fmt.Println(errors.Is(err, dpcov.ErrPrecondition))
	var e *dpcov.Error
	fmt.Println(errors.As(err, &e), e.Status)
	// Output:
	// true
	// true DPCOV_E_PRECONDITION
}

// Rows split over two goroutines, sketched with their global indices, give the sketch of all rows.
func ExampleSketch_Merge() {
	key, _ := dpcov.NewRNGSeeded(1, 0)
	defer key.Close()
	a, _ := dpcov.NewSketch(2, 4, key)
	defer a.Close()
	b, _ := a.Partial()
	defer b.Close()
	_ = a.AddRows(dpcov.MatrixFromRows([][]float64{{0.5, 0.1}, {0.2, 0.3}}), 0, 1.0, dpcov.BoundClip)
	_ = b.AddRows(dpcov.MatrixFromRows([][]float64{{0.7, 0.0}}), 2, 1.0, dpcov.BoundClip)
	if err := a.Merge(b); err != nil {
		panic(err)
	}
	info, _ := a.Info()
	fmt.Println(info.Rows)
	// Output: 3
}

// Post-processing: project a noisy release onto the positive semidefinite cone.
func ExamplePSDProject() {
	a := dpcov.MatrixFromRows([][]float64{{1, 2}, {2, 1}})
	if err := dpcov.PSDProject(a); err != nil {
		panic(err)
	}
	fmt.Println(math.Round(a.At(0, 0)*100)/100, math.Round(a.At(0, 1)*100)/100)
	// Output: 1.5 1.5
}
