// A Go user of the binding from a dpcov checkout, resolved through a go.work workspace (no
// replace directive) and linked against the installed library through pkg-config.
package main

import (
	"errors"
	"fmt"
	"os"

	"dpcov.dev/dpcov"
)

func main() {
	gram, err := dpcov.NewGram(2)
	if err != nil {
		fmt.Println("FAILED:", err)
		os.Exit(1)
	}
	defer gram.Close()
	rows := dpcov.Matrix{Rows: 2, Cols: 2, Data: []float64{1, 2, 3, 4}}
	if err := gram.AddRows(rows, 10, dpcov.BoundClip); err != nil {
		fmt.Println("FAILED:", err)
		os.Exit(1)
	}
	g, err := gram.Matrix()
	if err != nil {
		fmt.Println("FAILED:", err)
		os.Exit(1)
	}
	// A library error matches its status with errors.Is and unwraps to *dpcov.Error with errors.As.
	_, err = dpcov.NewGram(0)
	var e *dpcov.Error
	if !errors.Is(err, dpcov.ErrDimension) || !errors.As(err, &e) {
		fmt.Println("FAILED: NewGram(0) gave", err)
		os.Exit(1)
	}
	fmt.Printf("Go (go.work): dpcov %s, G = %v, NewGram(0): %s\n", dpcov.Version(), g.Data, e.Status)
}
