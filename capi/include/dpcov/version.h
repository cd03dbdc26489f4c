/**
 * @file dpcov/version.h
 * @brief Version of the dpcov headers. The build reads the version from this file.
 */
#ifndef DPCOV_VERSION_H
#define DPCOV_VERSION_H

/** Major version; also the ABI version in the shared library's SONAME (libdpcov.so.MAJOR). */
#define DPCOV_VERSION_MAJOR 0
/** Minor version: additions that keep the ABI. */
#define DPCOV_VERSION_MINOR 1
/** Patch version: fixes only. */
#define DPCOV_VERSION_PATCH 0

/** Single number for compile-time comparisons: major * 10000 + minor * 100 + patch. */
#define DPCOV_VERSION_NUMBER \
  (DPCOV_VERSION_MAJOR * 10000 + DPCOV_VERSION_MINOR * 100 + DPCOV_VERSION_PATCH)

/** @cond INTERNAL */
#define DPCOV_VERSION_STRINGIFY_(x) #x
#define DPCOV_VERSION_STRINGIFY(x) DPCOV_VERSION_STRINGIFY_(x)
/** @endcond */
/** The version as "major.minor.patch". */
#define DPCOV_VERSION_STRING                                                  \
  DPCOV_VERSION_STRINGIFY(DPCOV_VERSION_MAJOR)                                \
  "." DPCOV_VERSION_STRINGIFY(DPCOV_VERSION_MINOR) "." DPCOV_VERSION_STRINGIFY( \
      DPCOV_VERSION_PATCH)

#endif /* DPCOV_VERSION_H */
