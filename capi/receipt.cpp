// dpcov/receipt.h: the publishable part of a receipt.
#include "../core/check.hpp"
#include "struct_size.hpp"
#include "../core/mechanisms/public_receipt.hpp"
#include "dpcov/receipt.h"
#include "guard.hpp"
#include "receipt_writer.hpp"

DPCOV_API dpcov_status dpcov_receipt_public(const dpcov_receipt *receipt, dpcov_receipt *out) {
  return dpcov::capi::guarded([&] {
    const dpcov_receipt in = dpcov::capi::read_struct(receipt, dpcov_receipt{}, "receipt");
    dpcov::capi::check_receipt_output(out);
    dpcov::capi::write_struct(
        out, dpcov::capi::c_receipt_fields(
                 dpcov::mechanisms::public_receipt(dpcov::capi::core_receipt(in))));
  });
}
