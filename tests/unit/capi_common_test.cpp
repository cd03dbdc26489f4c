// Status names, versions, the thread-local error message and the exception guard.
#include <gtest/gtest.h>

#include <new>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>

#include "capi/guard.hpp"
#include "core/error.hpp"
#include "dpcov.h"

namespace {

TEST(CapiCommon, EveryStatusHasADistinctName) {
  std::set<std::string> names;
  for (int32_t s = 0; s >= DPCOV_E_INTERNAL; --s) {
    const std::string name = dpcov_status_string(s);
    EXPECT_EQ(name.rfind("DPCOV_", 0), 0u) << s;
    EXPECT_NE(name, "DPCOV_E_UNKNOWN") << s;
    names.insert(name);
  }
  EXPECT_EQ(names.size(), static_cast<size_t>(1 - DPCOV_E_INTERNAL));
  EXPECT_STREQ(dpcov_status_string(1), "DPCOV_E_UNKNOWN");
  EXPECT_STREQ(dpcov_status_string(-1000), "DPCOV_E_UNKNOWN");
}

TEST(CapiCommon, StatusNumbersArePinned) {
  // These numbers are ABI: changing one breaks every binding.
  EXPECT_EQ(DPCOV_E_NULL_POINTER, -1);
  EXPECT_EQ(DPCOV_E_NON_FINITE, -5);
  EXPECT_EQ(DPCOV_E_PRECONDITION, -7);
  EXPECT_EQ(DPCOV_E_NOT_PRIVATE, -9);
  EXPECT_EQ(DPCOV_E_NOMEM, -17);
  EXPECT_EQ(DPCOV_E_INTERNAL, -18);
  EXPECT_EQ(DPCOV_ROW_MAJOR, 101);
  EXPECT_EQ(DPCOV_COL_MAJOR, 102);
}

TEST(CapiCommon, VersionOfLoadedLibraryMatchesHeader) {
  EXPECT_EQ(dpcov_version_number(), DPCOV_VERSION_NUMBER);
  EXPECT_STREQ(dpcov_version_string(), DPCOV_VERSION_STRING);
}

TEST(CapiCommon, GuardMapsExceptionsToStatusAndMessage) {
  using dpcov::capi::guarded;
  EXPECT_EQ(guarded([] { throw dpcov::Error(dpcov::Status::Precondition, "eps < 1 required"); }),
            DPCOV_E_PRECONDITION);
  EXPECT_STREQ(dpcov_last_error_message(), "eps < 1 required");
  EXPECT_EQ(guarded([] { throw std::bad_alloc(); }), DPCOV_E_NOMEM);
  EXPECT_EQ(guarded([] { throw std::logic_error("boom"); }), DPCOV_E_INTERNAL);
  EXPECT_NE(std::string(dpcov_last_error_message()).find("boom"), std::string::npos);
  EXPECT_EQ(guarded([] { throw 42; }), DPCOV_E_INTERNAL);
  EXPECT_EQ(guarded([] {}), DPCOV_OK);
  // Success leaves the last message alone.
  EXPECT_NE(std::string(dpcov_last_error_message()).find("unknown"), std::string::npos);
}

TEST(CapiCommon, LastErrorMessageIsPerThread) {
  dpcov_gram *g = nullptr;
  ASSERT_EQ(dpcov_gram_create(&g, 0), DPCOV_E_DIMENSION);
  const std::string here = dpcov_last_error_message();
  std::string there = "unset";
  std::thread t([&] { there = dpcov_last_error_message(); });
  t.join();
  EXPECT_EQ(there, "");
  EXPECT_EQ(std::string(dpcov_last_error_message()), here);
}

}  // namespace
