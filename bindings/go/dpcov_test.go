package dpcov

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"testing"
)

// data is n rows of d columns with norms around 1, some over the bound 1 (so some are clipped).
func data(n, d int) Matrix {
	m := NewMatrix(n, d)
	for i := range m.Data {
		m.Data[i] = math.Sin(0.37*float64(i)+0.1) * 0.8
	}
	return m
}

func seeded(t *testing.T, seed uint64) *RNG {
	t.Helper()
	r, err := NewRNGSeeded(seed, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Close)
	return r
}

func gramOf(t *testing.T, a Matrix, bound float64) *Gram {
	t.Helper()
	g, err := NewGram(a.Cols)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(g.Close)
	if err := g.AddRows(a, bound, BoundClip); err != nil {
		t.Fatal(err)
	}
	return g
}

func exactlySymmetric(m Matrix) bool {
	for i := 0; i < m.Rows; i++ {
		for j := 0; j < i; j++ {
			if m.At(i, j) != m.At(j, i) {
				return false
			}
		}
	}
	return true
}

func TestVersionOfTheLoadedLibraryMatchesTheHeaders(t *testing.T) {
	if VersionNumber() != HeaderVersionNumber {
		t.Fatalf("library %d, headers %d", VersionNumber(), HeaderVersionNumber)
	}
	if Version() == "" {
		t.Fatal("empty version string")
	}
}

func TestFailuresAreErrorValuesWithStatusAndMessage(t *testing.T) {
	_, err := NewGram(0)
	var e *Error
	if !errors.As(err, &e) || e.Status != ErrDimension || e.Message == "" {
		t.Fatalf("got %v", err)
	}
	if !errors.Is(err, ErrDimension) || errors.Is(err, ErrNonFinite) {
		t.Fatalf("errors.Is does not follow the status: %v", err)
	}
	if ErrDimension.String() != "DPCOV_E_DIMENSION" {
		t.Fatalf("status name %q", ErrDimension.String())
	}
}

func TestInconsistentMatricesAreRefusedBeforeTheLibrary(t *testing.T) {
	g, err := NewGram(3)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	err = g.AddRows(Matrix{Rows: 2, Cols: 3, Data: make([]float64, 5)}, 1, BoundClip)
	if !errors.Is(err, ErrDimension) {
		t.Fatalf("got %v", err)
	}
}

func TestNonFiniteRowsAreRefusedAndLeaveTheAccumulatorUnchanged(t *testing.T) {
	g := gramOf(t, data(10, 3), 1)
	before, _ := g.Matrix()
	bad := data(2, 3)
	bad.Set(1, 2, math.NaN())
	if err := g.AddRows(bad, 1, BoundClip); !errors.Is(err, ErrNonFinite) {
		t.Fatalf("got %v", err)
	}
	after, _ := g.Matrix()
	for i := range before.Data {
		if before.Data[i] != after.Data[i] {
			t.Fatal("accumulator changed by a refused chunk")
		}
	}
}

func TestClosedHandlesFailWithNullPointer(t *testing.T) {
	g, _ := NewGram(2)
	g.Close()
	g.Close()
	if _, err := g.Info(); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("got %v", err)
	}
}

func TestAnalyzeGaussReleaseIsSymmetricAndReproducibleFromTheSeed(t *testing.T) {
	a := data(200, 4)
	g := gramOf(t, a, 1)
	out1, rec, err := g.Release(AnalyzeGauss, 1, 1e-6, nil, seeded(t, 7))
	if err != nil {
		t.Fatal(err)
	}
	out2, _, err := g.Release(AnalyzeGauss, 1, 1e-6, nil, seeded(t, 7))
	if err != nil {
		t.Fatal(err)
	}
	if out1.Rows != 4 || out1.Cols != 4 || !exactlySymmetric(out1) {
		t.Fatal("release is not a 4 x 4 symmetric matrix")
	}
	for i := range out1.Data {
		if out1.Data[i] != out2.Data[i] {
			t.Fatal("same seed, different release")
		}
	}
	if rec.Mechanism != AnalyzeGauss || rec.N != 200 || !rec.SeedFixed || rec.Sigma <= 0 || rec.Theorem == "" {
		t.Fatalf("receipt %+v", rec)
	}
	plan, err := Plan(AnalyzeGauss, 4, 200, 1, 1, 1e-6, nil)
	if err != nil || plan.Sigma != rec.Sigma {
		t.Fatalf("plan %+v, %v", plan, err)
	}
	gm, _ := g.Matrix()
	direct, _, err := Release(AnalyzeGauss, gm, 200, 1, 1, 1e-6, nil, seeded(t, 7))
	if err != nil {
		t.Fatal(err)
	}
	for i := range out1.Data {
		if direct.Data[i] != out1.Data[i] {
			t.Fatal("Release and Gram.Release differ")
		}
	}
	ld, err := LogDensity(AnalyzeGauss, out1, gm, 200, 1, 1, 1e-6, nil)
	if err != nil || math.IsInf(ld, 0) || math.IsNaN(ld) {
		t.Fatalf("log density %v, %v", ld, err)
	}
}

func TestPreconditionsAreReportedWithTheirStatus(t *testing.T) {
	_, err := Plan(WishartAdditive, 3, 10, 1, 2, 1e-6, nil)
	if !errors.Is(err, ErrPrecondition) {
		t.Fatalf("got %v", err)
	}
	_, err = Plan(WishartJiang, 3, 10, 1, 0.5, 1e-6, nil)
	if !errors.Is(err, ErrNotPrivate) {
		t.Fatalf("got %v", err)
	}
	p := DefaultMechanismParams()
	p.AuditOnlyNotPrivate = true
	rec, err := Plan(WishartJiang, 3, 10, 1, 0.5, 1e-6, &p)
	if err != nil || !rec.NotDP {
		t.Fatalf("receipt %+v, %v", rec, err)
	}
	if AnalyzeGauss.String() != "analyze_gauss" {
		t.Fatal(AnalyzeGauss.String())
	}
}

func TestSketchSplitByGlobalIndexEqualsTheWholeSketch(t *testing.T) {
	key := seeded(t, 3)
	a := data(60, 3)
	whole, err := NewSketch(3, 10, key)
	if err != nil {
		t.Fatal(err)
	}
	defer whole.Close()
	if err := whole.AddRows(a, 0, 1, BoundClip); err != nil {
		t.Fatal(err)
	}
	parts := make([]*Sketch, 2)
	for h := range parts {
		parts[h], _ = whole.Partial()
		defer parts[h].Close()
		rows := Matrix{Rows: 30, Cols: 3, Data: a.Data[h*90 : (h+1)*90]}
		if err := parts[h].AddRows(rows, int64(h*30), 1, BoundClip); err != nil {
			t.Fatal(err)
		}
	}
	if err := parts[1].Merge(parts[0]); err != nil {
		t.Fatal(err)
	}
	s1, _ := whole.Get(0)
	s2, _ := parts[1].Get(0)
	for i := range s1.Data {
		if math.Abs(s1.Data[i]-s2.Data[i]) > 1e-12 {
			t.Fatal("split sketch differs")
		}
	}
	// Export and import the state, as a distributed sum would.
	info, _ := parts[1].Info()
	gm, _ := parts[1].Gram()
	g, err := NewGramFromState(info, gm)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	// The w I block of both from generators of one seed: the states differ by rounding only.
	imported, err := NewSketchFromState(seeded(t, 6), g, s2)
	if err != nil {
		t.Fatal(err)
	}
	defer imported.Close()
	rebuilt, err := NewSketchFromState(seeded(t, 6), g, s1)
	if err != nil {
		t.Fatal(err)
	}
	defer rebuilt.Close()
	if err := imported.AddRows(data(1, 3), 60, 1, BoundClip); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("imported sketch took rows: %v", err)
	}
	r1, err := rebuilt.Release(JLRidge, 1, 1e-6, nil, seeded(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	r2, err := imported.Release(JLRidge, 1, 1e-6, nil, seeded(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	for i := range r1.Matrix.Data {
		if math.Abs(r1.Matrix.Data[i]-r2.Matrix.Data[i]) > 1e-9*(1+math.Abs(r1.Matrix.Data[i])) {
			t.Fatal("imported sketch releases something else")
		}
	}
	if r1.Receipt.ProjectionRows != 10 || r1.Sketch.Rows != 10 {
		t.Fatalf("receipt %+v", r1.Receipt)
	}
}

func TestGeneratorStateRoundTripsAndSubstreamsAreReproducible(t *testing.T) {
	r := seeded(t, 9)
	state, err := r.SaveState()
	if err != nil || len(state) != RNGStateSize() {
		t.Fatal(err)
	}
	x, _ := r.Uint64()
	if err := r.RestoreState(state); err != nil {
		t.Fatal(err)
	}
	y, _ := r.Uint64()
	if x != y {
		t.Fatal("restored generator continues differently")
	}
	if err := r.RestoreState(state[:10]); !errors.Is(err, ErrBufferTooSmall) {
		t.Fatalf("got %v", err)
	}
	s1, _ := r.Substream(5)
	defer s1.Close()
	s2, _ := r.Substream(5)
	defer s2.Close()
	a, _ := s1.Uint64()
	b, _ := s2.Uint64()
	fixed, _ := s1.SeedFixed()
	if a != b || !fixed {
		t.Fatal("substreams differ or lost the seed_fixed flag")
	}
	e, err := NewRNGFromEntropy()
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if fixed, _ := e.SeedFixed(); fixed {
		t.Fatal("entropy generator reports a fixed seed")
	}
}

func TestSamplersAndLogDensities(t *testing.T) {
	r := seeded(t, 11)
	for name, f := range map[string]func() ([]float64, error){
		"uniform":     func() ([]float64, error) { return r.Uniform01(50) },
		"normal":      func() ([]float64, error) { return r.StandardNormal(50) },
		"exponential": func() ([]float64, error) { return r.Exponential(50) },
		"laplace":     func() ([]float64, error) { return r.Laplace(2, 50) },
		"gamma":       func() ([]float64, error) { return r.Gamma(0.5, 50) },
		"chi-square":  func() ([]float64, error) { return r.ChiSquare(3, 50) },
	} {
		x, err := f()
		if err != nil || len(x) != 50 {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := r.Laplace(-1, 5); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("got %v", err)
	}
	eye := MatrixFromRows([][]float64{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}})
	w, err := r.Wishart(5, eye)
	if err != nil || !exactlySymmetric(w) {
		t.Fatal(err)
	}
	ld, err := LogDensityWishart(w, 5, eye)
	if err != nil || math.IsInf(ld, 0) {
		t.Fatal(err)
	}
	iw, err := r.InverseWishart(5, eye)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LogDensityInverseWishart(iw, 5, eye); err != nil {
		t.Fatal(err)
	}
	sphere, err := r.UniformSphere(3, 4)
	if err != nil || sphere.Rows != 4 {
		t.Fatal(err)
	}
	acg, err := r.ACG(eye, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LogDensityACG(eye, acg.Row(0)); err != nil {
		t.Fatal(err)
	}
	b, tries, err := r.Bingham(eye, 3)
	if err != nil || b.Rows != 3 || tries < 3 {
		t.Fatal(err)
	}
	gn, err := r.SymmetricGaussianNoise(1, 3)
	if err != nil || !exactlySymmetric(gn) {
		t.Fatal(err)
	}
	if _, err := LogDensitySymmetricGaussian(gn, 1); err != nil {
		t.Fatal(err)
	}
	ln, err := r.SymmetricLaplaceNoise(1, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LogDensitySymmetricLaplace(ln, 1); err != nil {
		t.Fatal(err)
	}
}

func TestPostprocessingWorksInPlace(t *testing.T) {
	a := MatrixFromRows([][]float64{{1, 2}, {2, 1}}) // eigenvalues 3 and -1
	if err := PSDProject(a); err != nil {
		t.Fatal(err)
	}
	if math.Abs(a.At(0, 0)-1.5) > 1e-12 || math.Abs(a.At(0, 1)-1.5) > 1e-12 {
		t.Fatalf("projection %v", a.Data)
	}
	b := MatrixFromRows([][]float64{{1, 2}, {2, 1}})
	if err := EigenvaluesClip(b, 0, 2); err != nil {
		t.Fatal(err)
	}
	c := MatrixFromRows([][]float64{{1, 2}, {2, 1}})
	if shift, err := AnalyzeGaussShift(c, 0.1, 0.05); err != nil || shift <= 0 {
		t.Fatalf("shift %v, %v", shift, err)
	}
	d := MatrixFromRows([][]float64{{100, 0}, {0, 100}})
	if err := WishartMeanSubtract(d, 10, 1); err != nil || d.At(0, 0) != 90 {
		t.Fatalf("%v %v", d.Data, err)
	}
	e := MatrixFromRows([][]float64{{100, 0}, {0, 100}})
	if s, err := WishartShift(e, 10, 1, 0.05); err != nil || s != 10 {
		t.Fatalf("%v %v", s, err)
	}
	f := MatrixFromRows([][]float64{{100, 0}, {0, 100}})
	r := Receipt{Dim: 2, DOF: 10, Scale: 1}
	r.Mechanism = WishartAdditive
	if unbiased, err := GramEstimate(f, r); err != nil || !unbiased || f.At(0, 0) != 90 {
		t.Fatalf("%v %v %v", f.Data, unbiased, err)
	}
	r.Dim = 3
	if _, err := GramEstimate(f, r); err == nil || f.At(0, 0) != 90 {
		t.Fatalf("a receipt of another d must be refused, a left as it was: %v %v", f.Data, err)
	}
}

func TestEstimatorsOnAnExactGram(t *testing.T) {
	// y = 2 x0 - x1 exactly, plus an intercept column of ones.
	rows := NewMatrix(50, 4)
	for i := 0; i < 50; i++ {
		x0, x1 := math.Sin(float64(i)), math.Cos(1.3*float64(i))
		rows.Set(i, 0, 1)
		rows.Set(i, 1, x0)
		rows.Set(i, 2, x1)
		rows.Set(i, 3, 2*x0-x1+0.01*math.Sin(7*float64(i)))
	}
	g := gramOf(t, rows, 10)
	gm, _ := g.Matrix()
	p := DefaultRegressionParams()
	p.InterceptColumn = 0
	fit, err := RegressionFit(gm, 50, 3, []int64{1, 2}, &p)
	if err != nil {
		t.Fatal(err)
	}
	if len(fit.Coefficients) != 3 || math.Abs(fit.Coefficients[1]-2) > 0.01 ||
		math.Abs(fit.Coefficients[2]+1) > 0.01 || fit.Summary.DOF != 47 {
		t.Fatalf("fit %+v", fit)
	}
	pca, err := PCATopK(gm, 2, true)
	if err != nil || pca.Values[0] < pca.Values[1] || pca.Vectors.Rows != 4 || len(pca.ExplainedRatio) != 2 {
		t.Fatalf("pca %+v %v", pca, err)
	}
	dist, err := PCASubspaceDistance(gm, gm, 2)
	if err != nil || dist.SinThetaSpectral > 1e-6 {
		t.Fatalf("%+v %v", dist, err)
	}
	cov := MatrixFromRows([][]float64{{2, 0.5, 0}, {0.5, 2, 0.5}, {0, 0.5, 2}})
	gl, err := GlassoSolve(cov, 0.1, nil, nil)
	if err != nil || gl.Iterations < 1 || !exactlySymmetric(gl.Precision) {
		t.Fatalf("%+v %v", gl, err)
	}
	warm, err := GlassoSolve(cov, 0.12, nil, &gl.Precision)
	if err != nil || warm.Start != GlassoStartWarm {
		t.Fatalf("%+v %v", warm, err)
	}
	sr, err := MetricSupportRecovery(gl.Precision, gl.Precision, 1e-8)
	if err != nil || sr.Precision != 1 || sr.Recall != 1 {
		t.Fatalf("%+v %v", sr, err)
	}
	if v, err := FrobeniusError(cov, cov, true); err != nil || v != 0 {
		t.Fatal(v, err)
	}
	if v, err := SpectralError(cov, gl.Covariance, false); err != nil || v <= 0 {
		t.Fatal(v, err)
	}
	if v, err := VectorError([]float64{1, 2}, []float64{1, 1}, false); err != nil || v != 1 {
		t.Fatal(v, err)
	}
	if _, err := GlassoSolve(cov, -1, nil, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("got %v", err)
	}

	// Private OLS on the same data: Analyze Gauss plug-in and projection (the latter may refuse).
	mp := DefaultMechanismParams()
	ols, err := OLSAnalyzeGauss(gm, 50, 10, 1, 1e-6, &mp, 3, []int64{1, 2}, &p, seeded(t, 5))
	if err != nil && !errors.Is(err, ErrNotPositiveDefinite) {
		t.Fatal(err)
	}
	if err == nil && (len(ols.Reject) != 3 || ols.Receipt.Mechanism != AnalyzeGauss) {
		t.Fatalf("%+v", ols)
	}
	mp.ProjectionRows = 20
	jl, err := OLSProjection(gm, 50, 10, 1, 1e-6, &mp, 3, []int64{1, 2}, &p, seeded(t, 5))
	if err != nil && !errors.Is(err, ErrRefused) {
		t.Fatal(err)
	}
	if err == nil && jl.Receipt.Mechanism != OLSJL {
		t.Fatalf("%+v", jl)
	}
}

func TestPrivateGlassoReleasesASymmetricPrecisionEstimate(t *testing.T) {
	g := gramOf(t, data(300, 3), 1)
	gm, _ := g.Matrix()
	plan, err := PrivateGlassoPlan(AnalyzeGauss, 3, 300, 1, 1, 1e-6, nil, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	res, err := PrivateGlassoRelease(AnalyzeGauss, gm, 300, 1, 1, 1e-6, nil, 0.1, nil, seeded(t, 8))
	if err != nil {
		t.Fatal(err)
	}
	if !exactlySymmetric(res.Precision) || res.Receipt.Sigma != plan.Sigma || res.Iterations < 1 {
		t.Fatalf("%+v", res)
	}
	p := DefaultMechanismParams()
	p.AuditOnlyNotPrivate = true
	out, err := PrivateGlassoRelease(GlassoOutputWishart, gm, 300, 1, 1, 0, &p, 0.1, nil, seeded(t, 8))
	if err != nil || !out.Receipt.NotDP {
		t.Fatalf("%+v %v", out, err)
	}
	ld, err := PrivateGlassoLogDensity(GlassoOutputWishart, out.Precision, gm, 300, 1, 1, 0, &p, 0.1)
	if err != nil || math.IsNaN(ld) {
		t.Fatalf("%v %v", ld, err)
	}
}

func TestTheKeptGlassoCovarianceSolvesToTheOneCallEstimate(t *testing.T) {
	g := gramOf(t, data(300, 3), 1)
	gm, _ := g.Matrix()
	one, err := PrivateGlassoRelease(LaplaceSym, gm, 300, 1, 1, 0, nil, 0.1, nil, seeded(t, 8))
	if err != nil {
		t.Fatal(err)
	}
	s, r, err := PrivateGlassoCovariance(LaplaceSym, gm, 300, 1, 1, 0, nil, seeded(t, 8))
	if err != nil || r.Epsilon != 1 || !exactlySymmetric(s) {
		t.Fatalf("%v %+v", err, r)
	}
	solved, err := GlassoSolve(s, 0.1, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := range one.Precision.Data {
		if solved.Precision.Data[i] != one.Precision.Data[i] {
			t.Fatalf("entry %d: %v against the one call's %v", i, solved.Precision.Data[i],
				one.Precision.Data[i])
		}
	}
	p := DefaultMechanismParams()
	p.AuditOnlyNotPrivate = true
	if _, _, err := PrivateGlassoCovariance(GlassoOutputWishart, gm, 300, 1, 1, 0, &p,
		seeded(t, 8)); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("output perturbation has no covariance: %v", err)
	}
}

func TestAuditFindsTheNonPrivateWishartMechanism(t *testing.T) {
	mp := DefaultMechanismParams()
	mp.AuditOnlyNotPrivate = true
	ap := DefaultAuditParams()
	ap.Trials = 200
	ap.FirstCheckpoint = 100
	res, err := AuditRun(WishartJiang, 2, 5, 1, 0.5, 1e-6, &mp, &ap)
	if err != nil || res.Verdict != AuditViolation {
		t.Fatalf("%+v %v", res, err)
	}
	rows := MatrixFromRows([][]float64{{1, 0}, {0, 1}, {0.5, 0.5}})
	prime := MatrixFromRows([][]float64{{0, 0}, {0, 1}, {0.5, 0.5}})
	pair, err := AuditRunPair(AnalyzeGauss, rows, prime, 1, 1, 1e-6, nil, &ap)
	if err != nil || pair.Samples == 0 {
		t.Fatalf("%+v %v", pair, err)
	}
}

func TestAuditRowsBlackBox(t *testing.T) {
	for m := int32(AuditRowsDLYGauss); m <= AuditRowsCoinPress; m++ {
		scale := 1.0
		if m == AuditRowsCoinPress {
			scale = 9
		}
		res, err := AuditRowsBlackBox(m, 3, 20, 0.02, 1e-6, scale, BlackBoxTopEigenvectorAlignment,
			100, 1e-6, 5)
		if err != nil || res.Verdict != AuditNoViolationFound || res.Samples != 240 {
			t.Fatalf("%d: %+v %v", m, res, err)
		}
	}
	if _, err := AuditRowsBlackBox(AuditRowsCoinPress, 3, 20, 0.02, 1e-6, 0.5,
		BlackBoxTopEigenvalue, 100, 1e-6, 5); err == nil {
		t.Fatal("K < 1 accepted")
	}
}

func TestAuditRowsExact(t *testing.T) {
	for _, m := range []int32{AuditRowsDLYGauss, AuditRowsDLYSeparate, AuditRowsCoinPress} {
		res, err := AuditRowsExact(m, 1, 0.5, 1e-6, 200, 1e-6, 2)
		if err != nil || res.Verdict != AuditNoViolationFound || res.Samples != 400 ||
			res.N != 1000 || res.ClampHits != 0 {
			t.Fatalf("%d: %+v %v", m, res, err)
		}
	}
	// CoinPress at t = 3: exact per step on its transcript, inside the library.
	res, err := AuditRowsExact(AuditRowsCoinPress, 3, 0.5, 1e-6, 100, 1e-6, 2)
	if err != nil || res.Verdict != AuditNoViolationFound || res.Samples != 200 ||
		res.N != 2000 || res.RhoLower <= 0 || res.RhoLower > 0.5 {
		t.Fatalf("coinpress t = 3: %+v %v", res, err)
	}
}

// Units of exactly k = 3 rows: the release at rho / 9 not flagged, the rows-only variant (at
// rho, spending 9 rho on the pair) flagged; alpha 1e-6 per audit, fixed seed.
func TestAuditRowsUnits(t *testing.T) {
	for _, m := range []int32{AuditRowsDLYGauss, AuditRowsCoinPressMean} {
		res, err := AuditRowsUnits(m, 1, 3, 0.5, 1e-6, false, 1000, 1e-6, 2)
		if err != nil || res.Verdict != AuditNoViolationFound || res.Rho != 0.5 || res.N%3 != 0 {
			t.Fatalf("%d: %+v %v", m, res, err)
		}
		res, err = AuditRowsUnits(m, 1, 3, 0.5, 1e-6, true, 1000, 1e-6, 2)
		if err != nil || res.Verdict != AuditViolation {
			t.Fatalf("%d rows-only: %+v %v", m, res, err)
		}
	}
	if _, err := AuditRowsUnits(AuditRowsDLYGauss, 1, 0, 0.5, 1e-6, false, 100, 1e-6, 2); err == nil {
		t.Fatal("k = 0 accepted")
	}
}

func TestAuditRowsExactPairs(t *testing.T) {
	res, worst, err := AuditRowsExactPairs(AuditRowsDLYGauss, 1, 0.5, 1e-6, 200, 1e-6, 2, 3)
	if err != nil || res.Verdict != AuditNoViolationFound || res.Samples != 3*400 || worst < 0 ||
		worst >= 3 {
		t.Fatalf("%+v %d %v", res, worst, err)
	}
	if _, _, err := AuditRowsExactPairs(AuditRowsDLYGauss, 1, 0.5, 1e-6, 20, 1e-6, 2, 0); err == nil {
		t.Fatal("0 pairs accepted")
	}
}

func TestAuditCoinpressMean(t *testing.T) {
	p := DefaultCoinpressMeanParams()
	p.Radius = 5
	res, err := AuditCoinpressMean(3, 20, p, 300, 1e-6, 2)
	if err != nil || res.Verdict != AuditNoViolationFound || res.Samples != 600 || res.Findings != 0 {
		t.Fatalf("%+v %v", res, err)
	}
	if _, err := AuditCoinpressMean(3, 20, p, 1, 1e-6, 2); err == nil {
		t.Fatal("trials < 2 accepted")
	}
}

func TestOLSAnalyzeGaussIntervals(t *testing.T) {
	// X'X = 1000 I, X'y = 1000 beta, y'y = 1000 (|beta|^2 + 0.01): beta = (0.5, -0.5, 0.25).
	beta := []float64{0.5, -0.5, 0.25}
	g := NewMatrix(4, 4)
	yy := 10.0
	for j, b := range beta {
		g.Data[j*4+j] = 1000
		g.Data[j*4+3], g.Data[3*4+j] = 1000*b, 1000*b
		yy += 1000 * b * b
	}
	g.Data[15] = yy
	mp := DefaultMechanismParams()
	released, receipt, err := Release(AnalyzeGauss, g, 100000, 1, 1, 1e-6, &mp, seeded(t, 6))
	if err != nil {
		t.Fatal(err)
	}
	res, err := OLSAnalyzeGaussIntervals(released, receipt.Sigma, 100000, 3, []int64{0, 1, 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Kappa <= 0 || res.Kappa >= 1 || res.NoiseNormBound <= 0 || len(res.Reject) != 3 {
		t.Fatalf("%+v", res)
	}
	for j := range beta {
		if !(res.CILower[j] < res.DataCILower[j] && res.DataCIUpper[j] < res.CIUpper[j]) {
			t.Fatalf("coefficient %d: %+v", j, res)
		}
	}
	if _, err := OLSAnalyzeGaussIntervals(released, 1e4, 100000, 3, []int64{0, 1, 2}, nil); !errors.Is(err, ErrPrecondition) {
		t.Fatalf("got %v", err)
	}
	bound, err := PCASubspaceErrorBound(released, receipt, 1, 0.95, 50, seeded(t, 8))
	if err != nil || bound.SinThetaBound < 0 || bound.SinThetaBound > 1 || bound.NoiseNorm <= 0 {
		t.Fatalf("%+v %v", bound, err)
	}
	centred, err := PCACentredSubspaceErrorBound(released, receipt, 3, 1, 100000, 1, 0.95, 50, seeded(t, 9))
	if err != nil || centred.SinThetaBound < 0 || centred.SinThetaBound > 1 || centred.NoiseNorm <= 0 {
		t.Fatalf("%+v %v", centred, err)
	}
	if _, err := PCACentredSubspaceErrorBound(released, receipt, 4, 1, 100000, 1, 0.95, 50, seeded(t, 9)); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("got %v", err)
	}
	boot, err := OLSBootstrapIntervals(released, receipt, 3, []int64{0, 1, 2}, nil, 999, seeded(t, 7))
	if err != nil {
		t.Fatal(err)
	}
	for j := range beta {
		if !(boot.CILower[j] < boot.Coefficients[j] && boot.Coefficients[j] < boot.CIUpper[j] &&
			res.CILower[j] < boot.CILower[j] && boot.CIUpper[j] < res.CIUpper[j] && boot.PValues[j] < 0.05) {
			t.Fatalf("coefficient %d: %+v", j, boot)
		}
	}
	// The robust intervals with the meat s^2 X'X~ of the homoscedastic model: about as wide.
	s2 := boot.StdErrors[0] * boot.StdErrors[0] / (1 / released.Data[0])
	meat := Matrix{Rows: 3, Cols: 3, Data: make([]float64, 9)}
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			meat.Data[3*i+j] = s2 * released.Data[4*i+j]
		}
	}
	robust, err := OLSSandwichIntervals(released, receipt, 3, []int64{0, 1, 2}, nil, meat, 999, seeded(t, 7))
	if err != nil || len(robust.CIUpper) != 3 || !(robust.CILower[0] < robust.Coefficients[0]) ||
		robust.StdErrors[0] <= 0 {
		t.Fatalf("%+v %v", robust, err)
	}
	if _, err := OLSSandwichIntervals(released, receipt, 3, []int64{0, 1, 2}, nil, Matrix{Rows: 2, Cols: 2, Data: make([]float64, 4)}, 999, seeded(t, 7)); !errors.Is(err, ErrDimension) {
		t.Fatalf("got %v", err)
	}
	// The same meat with its noise redrawn, the fit's law restricted to the meat's order.
	meatReceipt := receipt
	meatReceipt.Dim = 3
	redrawn, err := OLSRobustIntervals(released, receipt, 3, []int64{0, 1, 2}, nil, meat, meatReceipt, 999, seeded(t, 7))
	if err != nil || len(redrawn.CIUpper) != 3 || !(redrawn.CILower[0] < redrawn.Coefficients[0]) {
		t.Fatalf("%+v %v", redrawn, err)
	}
	if _, err := OLSRobustIntervals(released, receipt, 3, []int64{0, 1, 2}, nil, meat, receipt, 999, seeded(t, 7)); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("a meat receipt of another order: %v", err)
	}
	// With an outcome per coefficient: the bootstrap's bits where no direction is weak.
	flagged, err := OLSIntervals(released, receipt, 3, []int64{0, 1, 2}, nil, nil, nil, 999, seeded(t, 7))
	if err != nil || len(flagged.Bounded) != 3 {
		t.Fatalf("%+v %v", flagged, err)
	}
	for j := range beta {
		if !flagged.Bounded[j] || flagged.CILower[j] != boot.CILower[j] || flagged.CIUpper[j] != boot.CIUpper[j] {
			t.Fatalf("coefficient %d: %+v against %+v", j, flagged, boot)
		}
	}
	both, err := OLSIntervals(released, receipt, 3, []int64{0, 1, 2}, nil, &meat, &meatReceipt, 999, seeded(t, 7))
	if err != nil || both.CILower[0] != redrawn.CILower[0] {
		t.Fatalf("%+v %v", both, err)
	}
	if _, err := OLSIntervals(released, receipt, 3, []int64{0, 1, 2}, nil, &meat, nil, 999, seeded(t, 7)); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("a meat without its receipt: %v", err)
	}
}

func TestThePublicReceiptWithholdsPrivateNAndTheBinghamCounts(t *testing.T) {
	g := gramOf(t, data(40, 3), 1)
	p := DefaultMechanismParams()
	p.Neighbour = NeighbourAddRemove
	_, full, err := g.Release(AnalyzeGauss, 1, 1e-6, &p, seeded(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	shown, err := full.Public()
	if err != nil || full.N != 40 || shown.N != ReceiptNWithheld || shown.Sigma != full.Sigma ||
		shown.Theorem != full.Theorem {
		t.Fatalf("public %+v of %+v, %v", shown, full, err)
	}
	_, iev, err := g.Release(IEV, 1, 0, nil, seeded(t, 4))
	if err != nil {
		t.Fatal(err)
	}
	shown, err = iev.Public()
	if err != nil || iev.BinghamProposals < 3 || shown.BinghamProposals != 0 || shown.N != 40 {
		t.Fatalf("public %+v of %+v, %v", shown, iev, err)
	}
	iev.Neighbour = 7
	if _, err := iev.Public(); err == nil {
		t.Fatal("an unknown neighbour relation was accepted")
	}
}

// diagonalGram returns the second moments [X, y]'[X, y] with X'X = 1000 I, X'y = 1000 beta and
// y'y = 500, for three coefficients.
func diagonalGram(beta []float64) Matrix {
	g := NewMatrix(4, 4)
	for j, b := range beta {
		g.Data[j*4+j] = 1000
		g.Data[j*4+3], g.Data[3*4+j] = 1000*b, 1000*b
	}
	g.Data[15] = 500
	return g
}

func TestAdasspFitRecoversCoefficientsAndRefusesBadBounds(t *testing.T) {
	// X'X = 1000 I, X'y = 1000 beta: at a large epsilon AdaSSP returns beta.
	beta := []float64{0.5, -0.5, 0.25}
	g := diagonalGram(beta)
	params, err := DefaultAdasspParams()
	if err != nil || params.Rho != 0.05 || params.Calibration != AdasspJointAnalytic {
		t.Fatalf("%+v %v", params, err)
	}
	res, err := AdasspFit(g, 3, []int64{0, 1, 2}, 1, 1, 1e6, 1e-6, &params, seeded(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	for j, b := range beta {
		if math.Abs(res.Coefficients[j]-b) > 1e-3 {
			t.Fatalf("coefficient %d: %v", j, res.Coefficients)
		}
	}
	if res.Receipt.Mechanism.String() != "adassp" || res.Receipt.DeltaExact > 1e-6 || len(res.ReleasedXty) != 3 {
		t.Fatalf("%+v", res.Receipt)
	}
	if _, err := AdasspFit(g, 3, []int64{0, 1, 2}, -1, 1, 1, 1e-6, nil, seeded(t, 3)); err == nil {
		t.Fatal("a negative bound was accepted")
	}
}

func TestAdasspProfileIntervalsReadTheMeatAndHoldBeta(t *testing.T) {
	beta := []float64{0.5, -0.5, 0.25}
	res, err := AdasspFit(diagonalGram(beta), 3, []int64{0, 1, 2}, 1, 1, 1e4, 1e-6, nil, seeded(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	meat := make([]float64, 9)
	for j := 0; j < 3; j++ {
		meat[4*j] = 10
	}
	out, err := AdasspProfileIntervals(res, 0, meat, -1, 0.95)
	if err != nil {
		t.Fatal(err)
	}
	for j, b := range beta {
		if !(out.CILower[j] < b && b < out.CIUpper[j]) || !out.Conclusive[j] {
			t.Fatalf("coefficient %d: %+v", j, out)
		}
	}
	if _, err := AdasspProfileIntervals(res, 1000, nil, -1, 0.95); err == nil {
		t.Fatal("homoscedastic intervals without y'y were accepted")
	}
}

func TestAReleaseWithoutASeedUsesTheCryptographicGenerator(t *testing.T) {
	rng, err := NewRNGFromEntropy()
	if err != nil {
		t.Fatal(err)
	}
	defer rng.Close()
	g := make([]float64, 9)
	for i := 0; i < 3; i++ {
		g[4*i] = 10
	}
	_, rec, err := Release(AnalyzeGauss, Matrix{Rows: 3, Cols: 3, Data: g}, 100, 1, 1, 1e-6, nil, rng)
	if err != nil {
		t.Fatal(err)
	}
	if rec.SeedFixed || rec.Generator != 2 {
		t.Fatalf("seed_fixed %v, generator %d: want ChaCha20 (2)", rec.SeedFixed, rec.Generator)
	}
	pub, err := rec.Public()
	if err != nil {
		t.Fatal(err)
	}
	if !rec.DifferentiallyPrivate() || rec.PrivacyClaim() != "private" || pub.PrivacyClaim() != "private" {
		t.Fatalf("unseeded release: claim %q, public %q", rec.PrivacyClaim(), pub.PrivacyClaim())
	}
}

func TestTheReceiptStatesItsPrivacyClaim(t *testing.T) {
	plan, err := Plan(AnalyzeGauss, 3, 100, 1, 1, 1e-6, nil)
	if err != nil {
		t.Fatal(err)
	}
	seeded, broken := plan, plan
	seeded.SeedFixed, seeded.Generator = true, 1
	broken.NotDP, broken.Generator = true, 2
	for _, c := range []struct {
		r       Receipt
		private bool
		claim   string
	}{{plan, true, "plan: nothing released"},
		{seeded, false, "reproducible: not private if the seed is known"},
		{broken, false, "not private: known counterexample"}} {
		pub, err := c.r.Public()
		if err != nil {
			t.Fatal(err)
		}
		if c.r.DifferentiallyPrivate() != c.private || c.r.PrivacyClaim() != c.claim ||
			pub.PrivacyClaim() != c.claim {
			t.Fatalf("%+v: private %v claim %q public %q", c, c.r.DifferentiallyPrivate(),
				c.r.PrivacyClaim(), pub.PrivacyClaim())
		}
	}
}

func TestAnAdasspFitIsChargedItsZcdpRhoUnderZcdpAccounting(t *testing.T) {
	plan, err := AdasspPlan(3, 1.5, 1, 1, 1e-6, nil)
	if err != nil || plan.Rho <= 0 || plan.Mechanism.String() != "adassp" {
		t.Fatalf("plan %+v, %v", plan, err)
	}
	// One fit at epsilon 1 costs 1.16 in a zCDP ledger at delta 1e-5 (proofs/adassp.md, "zCDP").
	l, err := NewLedger(AccountingZCDP, 2, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := l.CheckZCDP(plan.Rho, plan.Epsilon, plan.Delta); err != nil {
		t.Fatal(err)
	}
	if err := l.ChargeZCDP(plan.Rho, plan.Epsilon, plan.Delta); err != nil {
		t.Fatal(err)
	}
	if s, err := l.Spent(); err != nil || s.Charges != 1 || s.Rho != plan.Rho {
		t.Fatalf("spent %+v, %v", s, err)
	}
	if err := l.ChargeZCDP(10, 1, 1e-6); !errors.Is(err, ErrPrecondition) {
		t.Fatalf("over the cap: %v", err)
	}
	if err := l.CheckZCDP(-1, 1, 1e-6); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("negative rho: %v", err)
	}
	if _, err := AdasspPlan(0, 1, 1, 1, 1e-6, nil); !errors.Is(err, ErrDimension) {
		t.Fatalf("no regressors: %v", err)
	}
}

func TestTheLedgerRefusesTheReleaseOverItsCapAndStaysUnchanged(t *testing.T) {
	l, err := NewLedger(AccountingBasic, 1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	plan, err := Plan(LaplaceSym, 3, 100, 1, 0.6, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Charge(plan); err != nil {
		t.Fatal(err)
	}
	if err := l.Check(plan); !errors.Is(err, ErrPrecondition) {
		t.Fatalf("second charge over the cap: %v", err)
	}
	if err := l.Charge(plan); !errors.Is(err, ErrPrecondition) {
		t.Fatalf("second charge over the cap: %v", err)
	}
	s, err := l.Spent()
	if err != nil || s.Charges != 1 || s.Epsilon != 0.6 || s.EpsilonCap != 1 {
		t.Fatalf("spent %+v, %v", s, err)
	}
	// Advanced composition: the first release fixes the per-release budget; a larger one is refused.
	adv, err := NewLedger(AccountingAdvanced, 1, 1e-5)
	if err != nil {
		t.Fatal(err)
	}
	defer adv.Close()
	small, err := Plan(LaplaceSym, 3, 100, 1, 0.1, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := adv.Charge(small); err != nil {
		t.Fatal(err)
	}
	if err := adv.Charge(plan); !errors.Is(err, ErrPrecondition) {
		t.Fatalf("advanced: a release over the first one's budget: %v", err)
	}
	if s, err := adv.Spent(); err != nil || s.Charges != 1 || s.Accounting != AccountingAdvanced {
		t.Fatalf("advanced spent %+v, %v", s, err)
	}
	if _, err := NewLedger(AccountingZCDP, 1, 0); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("zCDP without delta: %v", err)
	}
	l.Close()
	if _, err := l.Spent(); !errors.Is(err, ErrNullPointer) {
		t.Fatalf("closed ledger: %v", err)
	}
}

func TestColumnBoundsScaleIntoTheBoxAndMapBackToTheUserUnits(t *testing.T) {
	lower, upper := []float64{18, 0}, []float64{90, 250000}
	a := MatrixFromRows([][]float64{{18, 0}, {54, 125000}, {100, 250000}})
	z, clamped, err := ColumnBoundsScaleRows(a, lower, upper)
	if err != nil || clamped != 1 || z.Cols != 3 || z.At(0, 0) != 1 || z.At(0, 1) != -1 || z.At(1, 2) != 0 || z.At(2, 1) != 1 {
		t.Fatalf("scaled %+v, clamped %d, %v", z, clamped, err)
	}
	b, err := ColumnBoundsNormBound(2)
	if err != nil || b*b < 3 {
		t.Fatalf("bound %v, %v", b, err)
	}
	s := NewMatrix(3, 3)
	for k := 0; k < z.Rows; k++ {
		for i := 0; i < 3; i++ {
			for j := 0; j < 3; j++ {
				s.Set(i, j, s.At(i, j)+z.At(k, i)*z.At(k, j))
			}
		}
	}
	user, err := ColumnBoundsTransform(s, lower, upper, UnitsUser)
	if err != nil || user.At(0, 0) != 3 || math.Abs(user.At(0, 1)-(18+54+90)) > 1e-9 {
		t.Fatalf("user units %+v, %v", user, err)
	}
	mean, cov, count, err := CentreSecondMoment(user, 0, 1, 0)
	if err != nil || count != 3 || math.Abs(mean[0]-54) > 1e-9 || cov.Rows != 2 || cov.At(0, 1) != cov.At(1, 0) {
		t.Fatalf("centred %v %+v %v, %v", mean, cov, count, err)
	}
	if _, _, _, err := CentreSecondMoment(user, 3, 1, 0); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("bad constant column: %v", err)
	}
	if _, err := ColumnBoundsTransform(s, lower, upper, Units(7)); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("bad units: %v", err)
	}
	if _, _, err := ColumnBoundsScaleRows(a, upper, lower); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("reversed bounds: %v", err)
	}
}

func TestExactGramInChunksReleasesWhatTheRowsRelease(t *testing.T) {
	a := NewMatrix(40, 3)
	for i := range a.Data {
		a.Data[i] = 0.3 * math.Sin(float64(i))
	}
	one, two := seeded(t, 5), seeded(t, 5)
	defer one.Close()
	defer two.Close()
	whole, wr, wg, err := ExactReleaseRows(AnalyzeGauss, a, 1, BoundClip, 1, 1e-6, nil, one)
	if err != nil {
		t.Fatal(err)
	}
	left, err := NewExactGram(AnalyzeGauss, 3, 1, BoundClip, 1, 1e-6, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer left.Close()
	right, err := NewExactGram(AnalyzeGauss, 3, 1, BoundClip, 1, 1e-6, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer right.Close()
	first, second := NewMatrix(15, 3), NewMatrix(25, 3)
	copy(first.Data, a.Data[:45])
	copy(second.Data, a.Data[45:])
	if err := left.AddRows(first); err != nil {
		t.Fatal(err)
	}
	if err := right.AddRows(second); err != nil {
		t.Fatal(err)
	}
	if err := left.Merge(right); err != nil {
		t.Fatal(err)
	}
	if info, err := left.Info(); err != nil || info.Rows != 40 {
		t.Fatalf("info %+v %v", info, err)
	}
	out, r, g, err := left.Release(two)
	if err != nil || !reflect.DeepEqual(out.Data, whole.Data) || r != wr || g != wg {
		t.Fatalf("streamed %v %+v %+v, whole %v %+v %+v (%v)", out.Data, r, g, whole.Data, wr, wg, err)
	}
	if _, err := NewExactGram(AnalyzeGauss, 3, 1, BoundDrop, 1, 1e-6, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("drop: %v", err)
	}
}

func TestExactReleaseIsUnitSquaredTimesIntegersAndBadInputDrawsNothing(t *testing.T) {
	rng, err := NewRNGFromEntropy()
	if err != nil {
		t.Fatal(err)
	}
	defer rng.Close()
	a := NewMatrix(40, 3)
	for i := range a.Data {
		a.Data[i] = 0.3 * math.Sin(float64(i))
	}
	for _, m := range []Mechanism{AnalyzeGauss, LaplaceSym} {
		delta := 1e-6
		if m == LaplaceSym {
			delta = 0
		}
		planned, pg, err := ExactPlan(m, 3, 40, 1, 1, delta, nil)
		if err != nil {
			t.Fatal(err)
		}
		out, rec, g, err := ExactReleaseRows(m, a, 1, BoundClip, 1, delta, nil, rng)
		if err != nil {
			t.Fatal(err)
		}
		if rec.Numerics != 1 || planned.Numerics != 1 || rec.Generator != 2 || g != pg || g.Bits != 12 {
			t.Fatalf("receipt %+v grid %+v plan grid %+v", rec, g, pg)
		}
		for _, v := range out.Data {
			if u := v / (g.Unit * g.Unit); u != math.Round(u) {
				t.Fatalf("%g is not a multiple of unit^2", v)
			}
		}
	}
	fixed := seeded(t, 3)
	defer fixed.Close()
	before, _ := fixed.SaveState()
	if _, _, _, err := ExactReleaseRows(IEV, a, 1, BoundClip, 1, 1e-6, nil, fixed); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("iev: %v", err)
	}
	big := NewMatrix(2, 3)
	big.Data[0] = 5
	if _, _, _, err := ExactReleaseRows(AnalyzeGauss, big, 1, BoundReject, 1, 1e-6, nil, fixed); !errors.Is(err, ErrNormBound) {
		t.Fatalf("reject: %v", err)
	}
	after, _ := fixed.SaveState()
	if !bytes.Equal(before, after) {
		t.Fatal("a refused call advanced the generator")
	}
}

// With an intercept inside the bound (bound^2 = 1 + B^2, B = 1, three features) a slope's
// crossover reads the features' moment 1/3, not bound^2 / 4 = 1/2: 1.5 times the plain one.
func TestTheAdasspForecastWithAnInterceptReadsTheFeaturesMoment(t *testing.T) {
	plan, err := AdasspPlan(4, math.Sqrt(2), 1, 1, 1e-6, nil)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := ForecastAdasspRegression(plan, 1000, 0.95, 1)
	if err != nil || plain.Intercept {
		t.Fatalf("plain %+v, %v", plain, err)
	}
	slope, err := ForecastAdasspRegressionIntercept(plan, 1000, 0.95, 1)
	if err != nil || !slope.Intercept || math.Abs(slope.CrossoverRows/plain.CrossoverRows-1.5) > 1e-12 {
		t.Fatalf("with an intercept %+v (plain %+v), %v", slope, plain, err)
	}
	plan.Bound = 1
	if _, err := ForecastAdasspRegressionIntercept(plan, 1000, 0.95, 1); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("no room for a feature: %v", err)
	}
}

// The library's decisions for the default fit: robust errors' share at n = 5000, the small-n
// split without y'y and without the meat at n = 50.
func TestAdasspDefaultFitDecidesFromPublicValues(t *testing.T) {
	req := AdasspFitRequest{NumRegressors: 3, Bound: math.Sqrt(3.25), BoundY: 1, Epsilon: 1,
		Delta: 1e-6, Rows: 5000, Level: 0.95, Intervals: FitIntervalsDecided, Robust: true,
		SmallNPosterior: true}
	large, err := AdasspDefaultFit(req, nil)
	if err != nil || !large.Robust || math.Abs(large.FitEpsilon-0.8) > 1e-12 || large.Forecast == nil ||
		!large.Params.ReleaseLabelSquare {
		t.Fatalf("n = 5000: %+v, %v", large, err)
	}
	req.Rows = 50
	small, err := AdasspDefaultFit(req, nil)
	if err != nil || small.Robust || !small.SmallNSplit || !small.LabelSquareRefused ||
		!small.Params.WithoutLambdaMin || small.Params.ReleaseLabelSquare {
		t.Fatalf("n = 50: %+v, %v", small, err)
	}
	req.Intervals = 3
	if _, err := AdasspDefaultFit(req, nil); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("intervals 3: %v", err)
	}
}

// A unit-level plan has no public n: its forecast is refused, as C refuses it, and not made as
// if at row level.
func TestTheForecastOfAUnitLevelPlanIsRefused(t *testing.T) {
	params, err := DefaultAdasspParams()
	if err != nil {
		t.Fatal(err)
	}
	params.MaxRowsPerUnit = 4
	plan, err := AdasspPlan(3, math.Sqrt(3), 1, 1, 1e-6, &params)
	if err != nil || plan.MaxRowsPerUnit != 4 {
		t.Fatalf("plan %+v, %v", plan, err)
	}
	if _, err := ForecastAdasspRegression(plan, 5000, 0.95, 1); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("ForecastAdasspRegression: %v", err)
	}
	if _, err := ForecastAdasspRegressionIntercept(plan, 5000, 0.95, 1); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("ForecastAdasspRegressionIntercept: %v", err)
	}
}

// C reads a call's second square matrix at the first's order: one of another order is refused
// before C reads it (a larger one was read as its top-left block, without an error).
func TestASecondMatrixOfAnotherOrderIsRefused(t *testing.T) {
	eye := func(d int) Matrix {
		m := NewMatrix(d, d)
		for i := 0; i < d; i++ {
			m.Data[i*d+i] = 1
		}
		return m
	}
	checks := map[string]error{}
	_, checks["LogDensityWishart"] = LogDensityWishart(eye(2), 5, eye(3))
	_, checks["PCASubspaceDistance"] = PCASubspaceDistance(eye(3), eye(4), 1)
	_, checks["MetricSupportRecovery"] = MetricSupportRecovery(eye(3), eye(2), 0.1)
	_, checks["LogDensity"] = LogDensity(AnalyzeGauss, eye(3), eye(4), 10, 1, 1, 1e-6, nil)
	warm := eye(4)
	_, checks["GlassoSolve"] = GlassoSolve(eye(3), 0.1, nil, &warm)
	g := gramOf(t, data(300, 3), 1)
	gm, _ := g.Matrix()
	released, receipt, err := Release(AnalyzeGauss, gm, 300, 1, 1, 1e-6, nil, seeded(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	// label 2, features {0, 1}: p = 2 coefficients, so a 3 x 3 meat (the label's row too) is wrong.
	_, checks["OLSSandwichIntervals"] = OLSSandwichIntervals(released, receipt, 2,
		[]int64{0, 1}, nil, eye(3), 99, seeded(t, 4))
	for name, err := range checks {
		if !errors.Is(err, ErrDimension) {
			t.Errorf("%s: %v", name, err)
		}
	}
}
