package dpcov

import (
	"errors"
	"math"
	"testing"
)

func TestCoinpressMeanReleaseEstimatesTheMeanAndRefusesBadPriors(t *testing.T) {
	rows := data(2000, 3)
	for i := 0; i < rows.Rows; i++ {
		rows.Data[3*i] += 5
	}
	params := DefaultCoinpressMeanParams()
	if params.Radius >= 0 || params.Steps != 3 || params.Beta != 0.01 {
		t.Fatalf("defaults %+v", params)
	}
	params.Radius = 20
	mean, rec, err := CoinpressMeanRelease(rows, nil, params, seeded(t, 3))
	if err != nil {
		t.Fatal(err)
	}
	if len(mean) != 3 || math.Abs(mean[0]-5) > 0.5 || !rec.SeedFixed || len(rec.StepSigma) != 3 {
		t.Fatalf("mean %v, receipt %+v", mean, rec)
	}
	plan, err := CoinpressMeanPlan(2000, 3, params)
	if err != nil || plan.StepSigma[2] != rec.StepSigma[2] || plan.StepClipRadius[0] != rec.StepClipRadius[0] {
		t.Fatalf("plan %+v, %v", plan, err)
	}
	params.Radius = -1
	if _, _, err := CoinpressMeanRelease(rows, nil, params, seeded(t, 3)); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("negative radius: %v", err)
	}
	params.Radius = 1
	if _, _, err := CoinpressMeanRelease(rows, []float64{1}, params, seeded(t, 3)); !errors.Is(err, ErrDimension) {
		t.Fatalf("short centre: %v", err)
	}
}

func TestCoinpressCentringSplit(t *testing.T) {
	m, c, err := CoinpressCentringSplit(0.5)
	if err != nil || m != 0.0625 || c != 0.4375 {
		t.Fatalf("split %v %v, %v", m, c, err)
	}
	if _, _, err := CoinpressCentringSplit(-1); !errors.Is(err, ErrInvalidArgument) {
		t.Fatalf("negative rho: %v", err)
	}
}
