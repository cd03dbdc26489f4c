// dpcov/receipt.h: the publishable part of a receipt.
#include "../core/check.hpp"
#include "../core/mechanisms/public_receipt.hpp"
#include "dpcov/receipt.h"
#include "guard.hpp"
#include "receipt_writer.hpp"

DPCOV_API dpcov_status dpcov_receipt_public(const dpcov_receipt *receipt, dpcov_receipt *out) {
  return dpcov::capi::guarded([&] {
    dpcov::check::not_null(receipt, "receipt");
    dpcov::capi::check_receipt_output(out);
    if (receipt->struct_size < sizeof(dpcov_receipt))
      dpcov::fail(DPCOV_E_INVALID_ARGUMENT,
                  "receipt->struct_size must be at least sizeof(dpcov_receipt) = ",
                  sizeof(dpcov_receipt), ", got ", receipt->struct_size);
    dpcov_receipt written = dpcov::mechanisms::public_receipt(*receipt);
    written.struct_size = out->struct_size;
    *out = written;
  });
}
