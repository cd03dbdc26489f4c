// Structs that grow at the end (docs/abi-policy.md): the library accepts any struct_size from the
// struct's first shipped size up, reads an input struct only up to it (later fields keep their
// defaults) and writes an output struct only up to it, so programs compiled against an older or a
// newer header keep working.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstring>
#include <string>
#include <vector>

#include "capi/struct_size.hpp"
#include "core/error.hpp"
#include "dpcov.h"

// A struct as a later version might extend it: `added` appended after the first shipped `b`.
struct Grown {
  size_t struct_size;
  int32_t a;
  double b;
  double added;
};
template <>
inline constexpr size_t dpcov::capi::kFirstShippedSize<Grown> = offsetof(Grown, b) + sizeof(double);

namespace {

using dpcov::capi::read_struct;
using dpcov::capi::struct_bytes;
using dpcov::capi::write_struct;

TEST(CapiStructSize, AnOlderCallersInputKeepsTheDefaultsOfLaterFields) {
  Grown old{};  // compiled before `added` existed: its struct_size ends at `b`
  old.struct_size = offsetof(Grown, b) + sizeof(double);
  old.a = 7;
  old.b = 2.5;
  old.added = 99.0;  // beyond the caller's struct: must not be read
  const Grown read = read_struct(&old, Grown{0, 1, 1.0, -3.0}, "params");
  EXPECT_EQ(read.a, 7);
  EXPECT_EQ(read.b, 2.5);
  EXPECT_EQ(read.added, -3.0);
  EXPECT_EQ(read.struct_size, sizeof(Grown));
}

TEST(CapiStructSize, AnOlderCallersOutputIsWrittenOnlyUpToItsSize) {
  Grown out{};
  out.struct_size = offsetof(Grown, b) + sizeof(double);
  out.added = 42.0;
  write_struct(&out, Grown{sizeof(Grown), 5, 6.0, 7.0});
  EXPECT_EQ(out.a, 5);
  EXPECT_EQ(out.b, 6.0);
  EXPECT_EQ(out.added, 42.0);
  EXPECT_EQ(out.struct_size, offsetof(Grown, b) + sizeof(double));
}

TEST(CapiStructSize, BelowTheFirstShippedSizeIsRefused) {
  Grown small{};
  small.struct_size = offsetof(Grown, b);
  try {
    struct_bytes(&small, "params");
    FAIL() << "accepted a struct_size below the first shipped size";
  } catch (const dpcov::Error &e) {
    EXPECT_EQ(e.status(), dpcov::Status::InvalidArgument);
    EXPECT_NE(std::string(e.what()).find("params->struct_size"), std::string::npos) << e.what();
  }
  EXPECT_THROW(struct_bytes(static_cast<const Grown *>(nullptr), "params"), dpcov::Error);
}

// A newer caller's struct (larger than this library's): accepted, and the bytes past this
// library's struct are left alone.
template <class T>
std::vector<unsigned char> newer_callers_struct() {
  std::vector<unsigned char> bytes(sizeof(T) + 32, 0xA5);
  T value{};
  value.struct_size = sizeof(T) + 32;
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

bool tail_untouched(const std::vector<unsigned char> &bytes, size_t from) {
  for (size_t i = from; i < bytes.size(); ++i)
    if (bytes[i] != 0xA5) return false;
  return true;
}

TEST(CapiStructSize, NewerCallersStructsAreFilledAndTheirTailLeftAlone) {
  auto receipt = newer_callers_struct<dpcov_receipt>();
  ASSERT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 100, 1.0, 1.0, 1e-6, nullptr,
                                 reinterpret_cast<dpcov_receipt *>(receipt.data())),
            DPCOV_OK)
      << dpcov_last_error_message();
  EXPECT_GT(reinterpret_cast<dpcov_receipt *>(receipt.data())->sigma, 0.0);
  EXPECT_TRUE(tail_untouched(receipt, sizeof(dpcov_receipt)));

  dpcov_gram *g = nullptr;
  ASSERT_EQ(dpcov_gram_create(&g, 2), DPCOV_OK);
  auto info = newer_callers_struct<dpcov_gram_info>();
  EXPECT_EQ(dpcov_gram_get_info(g, reinterpret_cast<dpcov_gram_info *>(info.data())), DPCOV_OK);
  EXPECT_EQ(reinterpret_cast<dpcov_gram_info *>(info.data())->dim, 2);
  EXPECT_TRUE(tail_untouched(info, sizeof(dpcov_gram_info)));
  dpcov_gram_destroy(&g);
}

TEST(CapiStructSize, AnUnsetStructSizeIsRefusedWithTheOutputsUntouched) {
  dpcov_receipt receipt{};
  receipt.sigma = 123.0;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 100, 1.0, 1.0, 1e-6, nullptr,
                                 &receipt),
            DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("struct_size"), std::string::npos);
  EXPECT_EQ(receipt.sigma, 123.0);

  dpcov_mechanism_params params;
  ASSERT_EQ(dpcov_mechanism_params_default(&params), DPCOV_OK);
  params.struct_size = 0;
  dpcov_receipt out{};
  out.struct_size = sizeof out;
  EXPECT_EQ(dpcov_mechanism_plan(DPCOV_MECHANISM_ANALYZE_GAUSS, 3, 100, 1.0, 1.0, 1e-6, &params,
                                 &out),
            DPCOV_E_INVALID_ARGUMENT);
}

// An initialiser refuses a null struct and a size below the first shipped size, writing nothing;
// given more than its own size (a newer header's larger struct) it writes only its own size.
template <class T>
void check_init(dpcov_status (*init)(T *, size_t)) {
  std::vector<unsigned char> bytes(sizeof(T) + 16, 0xAB);
  const std::vector<unsigned char> before = bytes;
  T *p = reinterpret_cast<T *>(bytes.data());
  EXPECT_EQ(init(nullptr, sizeof(T)), DPCOV_E_NULL_POINTER);
  EXPECT_EQ(init(p, 0), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_EQ(init(p, dpcov::capi::kFirstShippedSize<T> - 1), DPCOV_E_INVALID_ARGUMENT);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("size"), std::string::npos);
  EXPECT_EQ(bytes, before) << "written on error";
  ASSERT_EQ(init(p, bytes.size()), DPCOV_OK) << dpcov_last_error_message();
  EXPECT_EQ(p->struct_size, sizeof(T));
  for (size_t i = sizeof(T); i < bytes.size(); ++i) EXPECT_EQ(bytes[i], 0xAB) << "byte " << i;
}

TEST(CapiStructSize, InitialisersRefuseASmallSizeAndWriteNoMoreThanTheirOwn) {
  check_init(dpcov_mechanism_params_init);
  check_init(dpcov_row_bounding_init);
  check_init(dpcov_regression_params_init);
  check_init(dpcov_glasso_params_init);
  check_init(dpcov_audit_params_init);
  check_init(dpcov_adassp_params_init);
  check_init(dpcov_coinpress_params_init);
  check_init(dpcov_coinpress_mean_params_init);
  check_init(dpcov_dly_params_init);
  dpcov_dly_params params;
  ASSERT_EQ(dpcov_dly_params_default(&params), DPCOV_OK);
  EXPECT_EQ(params.struct_size, sizeof params);
  EXPECT_EQ(params.variant, DPCOV_DLY_ADAPTIVE);
}

}  // namespace
