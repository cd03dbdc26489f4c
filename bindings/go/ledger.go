package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// Accounting is how a Ledger composes its charges (dpcov/ledger.h).
type Accounting int32

const (
	// AccountingBasic adds up the epsilons and the deltas.
	AccountingBasic Accounting = C.DPCOV_ACCOUNTING_BASIC
	// AccountingZCDP adds up zCDP rhos (Gaussian and pure releases), converted at the delta cap.
	AccountingZCDP Accounting = C.DPCOV_ACCOUNTING_ZCDP
	// AccountingAdvanced is advanced composition (Dwork-Rothblum-Vadhan) at the per-release
	// budget the first charge fixes.
	AccountingAdvanced Accounting = C.DPCOV_ACCOUNTING_ADVANCED
)

// Ledger is a privacy budget with a total cap: check a release's plan receipt with Check before
// releasing, record it with Charge after, also when the release failed after drawing its noise (a
// refusal, a numerical failure: see dpcov/ledger.h). Release it with Close.
type Ledger struct {
	p *C.dpcov_ledger
}

// LedgerSpent is what a ledger has spent (dpcov_ledger_spent).
type LedgerSpent struct {
	Accounting Accounting
	Charges    int64
	Epsilon    float64
	Delta      float64
	Rho        float64
	EpsilonCap float64
	DeltaCap   float64
}

// NewLedger is an empty ledger with the total budget (epsilonCap, deltaCap).
func NewLedger(accounting Accounting, epsilonCap, deltaCap float64) (*Ledger, error) {
	l := &Ledger{}
	err := call(func() C.dpcov_status {
		return C.dpcov_ledger_create(&l.p, C.int32_t(accounting), C.double(epsilonCap), C.double(deltaCap))
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

// Close frees the ledger. Closing twice is harmless.
func (l *Ledger) Close() {
	if l != nil {
		C.dpcov_ledger_destroy(&l.p)
	}
}

func (l *Ledger) handle() *C.dpcov_ledger {
	if l == nil {
		return nil
	}
	return l.p
}

// Check returns an error (ErrPrecondition) if the release r describes would exceed the cap; it
// changes nothing. r is read through its common prefix (dpcov_ledger_check_receipt), so it must
// be a receipt the library wrote (its mechanism and privacy model those of the registry).
func (l *Ledger) Check(r Receipt) error {
	c := receiptToC(r)
	return call(func() C.dpcov_status { return C.dpcov_ledger_check_receipt(l.handle(), unsafe.Pointer(&c)) })
}

// Charge records the release r describes (dpcov_ledger_charge_receipt); on any error the ledger
// is unchanged.
func (l *Ledger) Charge(r Receipt) error {
	c := receiptToC(r)
	return call(func() C.dpcov_status { return C.dpcov_ledger_charge_receipt(l.handle(), unsafe.Pointer(&c)) })
}

// CheckZCDP returns an error (ErrPrecondition) if a release stated in zCDP, rho-zCDP and
// (epsilon, delta)-DP, would exceed the cap (dpcov_ledger_check_zcdp: AdaSSP's Rho, Epsilon
// and Delta, or a CoinPress or Dong-Liang-Yi receipt's rho, epsilon and delta); it changes
// nothing. zCDP accounting charges rho, basic and advanced accounting (epsilon, delta).
func (l *Ledger) CheckZCDP(rho, epsilon, delta float64) error {
	return call(func() C.dpcov_status {
		return C.dpcov_ledger_check_zcdp(l.handle(), C.double(rho), C.double(epsilon), C.double(delta))
	})
}

// ChargeZCDP records the release CheckZCDP describes; on any error the ledger is unchanged.
func (l *Ledger) ChargeZCDP(rho, epsilon, delta float64) error {
	return call(func() C.dpcov_status {
		return C.dpcov_ledger_charge_zcdp(l.handle(), C.double(rho), C.double(epsilon), C.double(delta))
	})
}

// Spent is what the ledger has spent.
func (l *Ledger) Spent() (LedgerSpent, error) {
	s := C.dpcov_ledger_spent{struct_size: C.size_t(C.sizeof_dpcov_ledger_spent)}
	if err := call(func() C.dpcov_status { return C.dpcov_ledger_get_spent(l.handle(), &s) }); err != nil {
		return LedgerSpent{}, err
	}
	return LedgerSpent{Accounting: Accounting(s.accounting), Charges: int64(s.charges),
		Epsilon: float64(s.epsilon), Delta: float64(s.delta), Rho: float64(s.rho),
		EpsilonCap: float64(s.epsilon_cap), DeltaCap: float64(s.delta_cap)}, nil
}
