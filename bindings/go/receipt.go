package dpcov

/*
#include "dpcov.h"
*/
import "C"

import "unsafe"

// ReceiptPrefix mirrors dpcov_receipt_prefix: the fields every receipt family starts with, in the
// same order (Receipt, AdasspReceipt, DlyReceipt, CoinpressReceipt and CoinpressMeanReceipt embed
// it), so a ledger or a logger reads what any release spent the same way.
type ReceiptPrefix struct {
	Mechanism    Mechanism // Mechanism.String() names it
	PrivacyModel int32     // dpcov_mechanism_privacy: 1 pure, 2 approximate, 3 zCDP, 4 not private
	Neighbour    int32     // dpcov_neighbour: 0 replace-one, 1 add/remove
	Numerics     int32     // dpcov_numerics: 0 idealized (floating-point noise), 1 exact
	Generator    int32     // dpcov_generator: 0 none (plan), 1 PCG64 (seeded), 2 ChaCha20
	SeedFixed    bool      // the generator came from an explicit seed: no privacy
	Epsilon      float64
	Delta        float64
	Rho          float64 // rho of rho-zCDP where the mechanism states one, else 0
	Bound        float64 // B, the row norm bound (AdaSSP: B_X); 0 if the mechanism takes none
	N            int64   // rows; -1 (withheld) where private or not an input
	Theorem      string
}

// prefixFromC reads the common prefix of any family's C receipt: each starts with the members
// of dpcov_receipt_prefix in its order (checked by static assertions in the library).
func prefixFromC(receipt unsafe.Pointer) ReceiptPrefix {
	c := (*C.dpcov_receipt_prefix)(receipt)
	return ReceiptPrefix{
		Mechanism: Mechanism(c.mechanism), PrivacyModel: int32(c.privacy_model),
		Neighbour: int32(c.neighbour), Numerics: int32(c.numerics), Generator: int32(c.generator),
		SeedFixed: c.seed_fixed != 0, Epsilon: float64(c.epsilon), Delta: float64(c.delta),
		Rho: float64(c.rho), Bound: float64(c.bound), N: int64(c.n),
		Theorem: C.GoString((*C.char)(unsafe.Pointer(&c.theorem[0]))),
	}
}
