package dpcov

/*
#include "dpcov.h"
*/
import "C"

// MechanismInfo is one entry of the library's mechanism registry (dpcov_mechanism_entry): what a
// mechanism is, read from the library. Family, PrivacyModel, Input and Output hold the
// dpcov_mechanism_family, _privacy, _input and _output values; Neighbours and Numerics the
// DPCOV_MECHANISM_NEIGHBOURS_* and DPCOV_MECHANISM_NUMERICS_* bits.
type MechanismInfo struct {
	ID           Mechanism
	Name         string
	Family       int32
	PrivacyModel int32
	Neighbours   int32
	Numerics     int32
	Input        int32
	Output       int32
	Theorem      string // paper, theorem and proof file: what the receipts carry
	ExactTheorem string // the same for exact numerics, "" for a mechanism without them
	Proof        string // the derivation, relative to the source tree
	Header       string // the public header of its entry points
	UnitProof    string // the proof at the level of privacy units, "" for row level only
	// Options holds the DPCOV_MECHANISM_OPTION_* bits of the mechanism-specific options it reads.
	Options int32
	// AuditDataset and AuditNeighbourKind: the standard audit's pair for AuditRun (an
	// AuditDataset and AuditNeighbour value), -1 where AuditRun does not audit it.
	AuditDataset       int32
	AuditNeighbourKind int32
	Summary            string // one line: what it releases
	Preconditions      string // one line: its preconditions, in words
	// Inference holds the DPCOV_MECHANISM_INFERENCE_* bits of the inference its release supports.
	Inference int32
	// UnitRefusal says why it is refused with privacy units, "" when UnitProof names a proof.
	UnitRefusal string
}

// Registry values (dpcov/mechanism.h).
const (
	FamilyGram               = C.DPCOV_MECHANISM_FAMILY_GRAM
	FamilyRowsZCDP           = C.DPCOV_MECHANISM_FAMILY_ROWS_ZCDP
	FamilyRegression         = C.DPCOV_MECHANISM_FAMILY_REGRESSION
	FamilyBound              = C.DPCOV_MECHANISM_FAMILY_BOUND
	PrivacyPure              = C.DPCOV_MECHANISM_PRIVACY_PURE
	PrivacyApproximate       = C.DPCOV_MECHANISM_PRIVACY_APPROXIMATE
	PrivacyZCDP              = C.DPCOV_MECHANISM_PRIVACY_ZCDP
	PrivacyNotPrivate        = C.DPCOV_MECHANISM_PRIVACY_NOT_PRIVATE
	NeighboursReplaceOne     = C.DPCOV_MECHANISM_NEIGHBOURS_REPLACE_ONE
	NeighboursAddRemove      = C.DPCOV_MECHANISM_NEIGHBOURS_ADD_REMOVE
	NumericsSupportIdealized = C.DPCOV_MECHANISM_NUMERICS_IDEALIZED
	NumericsSupportExact     = C.DPCOV_MECHANISM_NUMERICS_EXACT
	OptionLambdaMin          = C.DPCOV_MECHANISM_OPTION_LAMBDA_MIN
	OptionSpectral           = C.DPCOV_MECHANISM_OPTION_SPECTRAL
	OptionProjectionRows     = C.DPCOV_MECHANISM_OPTION_PROJECTION_ROWS
	OptionPosteriorDOF       = C.DPCOV_MECHANISM_OPTION_POSTERIOR_DOF
	OptionAuditUnlock        = C.DPCOV_MECHANISM_OPTION_AUDIT_UNLOCK
	OptionGlassoRho          = C.DPCOV_MECHANISM_OPTION_GLASSO_RHO
	OptionCalibration        = C.DPCOV_MECHANISM_OPTION_CALIBRATION
	InferenceProjectionT     = C.DPCOV_MECHANISM_INFERENCE_PROJECTION_T
	InferenceGuaranteedGauss = C.DPCOV_MECHANISM_INFERENCE_GUARANTEED_GAUSS
	InferenceRobustGram      = C.DPCOV_MECHANISM_INFERENCE_ROBUST_GRAM
)

func mechanismInfo(e *C.dpcov_mechanism_entry) MechanismInfo {
	return MechanismInfo{
		ID: Mechanism(e.id), Name: C.GoString(e.name), Family: int32(e.family),
		PrivacyModel: int32(e.privacy_model), Neighbours: int32(e.neighbours),
		Numerics: int32(e.numerics), Input: int32(e.input), Output: int32(e.output),
		Theorem: C.GoString(e.theorem), ExactTheorem: C.GoString(e.exact_theorem),
		Proof: C.GoString(e.proof), Header: C.GoString(e.header),
		UnitProof: C.GoString(e.unit_proof), Options: int32(e.options),
		AuditDataset: int32(e.audit_dataset), AuditNeighbourKind: int32(e.audit_neighbour_kind),
		Summary: C.GoString(e.summary), Preconditions: C.GoString(e.preconditions),
		Inference: int32(e.inference), UnitRefusal: C.GoString(e.unit_refusal),
	}
}

// Mechanisms lists every mechanism the library releases, in id order.
func Mechanisms() ([]MechanismInfo, error) {
	count := int(C.dpcov_mechanism_count())
	out := make([]MechanismInfo, 0, count)
	for i := 0; i < count; i++ {
		var e C.dpcov_mechanism_entry
		e.struct_size = C.size_t(C.sizeof_dpcov_mechanism_entry)
		if err := call(func() C.dpcov_status { return C.dpcov_mechanism_info(C.int32_t(i), &e) }); err != nil {
			return nil, err
		}
		out = append(out, mechanismInfo(&e))
	}
	return out, nil
}

// Info is the registry entry of the mechanism; ErrInvalidArgument for an id the library does not know.
func (m Mechanism) Info() (MechanismInfo, error) {
	var e C.dpcov_mechanism_entry
	e.struct_size = C.size_t(C.sizeof_dpcov_mechanism_entry)
	if err := call(func() C.dpcov_status { return C.dpcov_mechanism_info_by_id(C.int32_t(m), &e) }); err != nil {
		return MechanismInfo{}, err
	}
	return mechanismInfo(&e), nil
}
