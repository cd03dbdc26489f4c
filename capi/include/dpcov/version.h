/**
 * @file dpcov/version.h
 * @brief Version of the dpcov headers. The build reads the version from this file.
 */
#ifndef DPCOV_VERSION_H
#define DPCOV_VERSION_H

#define DPCOV_VERSION_MAJOR 0
#define DPCOV_VERSION_MINOR 1
#define DPCOV_VERSION_PATCH 0

/** Single number for compile-time comparisons: major * 10000 + minor * 100 + patch. */
#define DPCOV_VERSION_NUMBER \
  (DPCOV_VERSION_MAJOR * 10000 + DPCOV_VERSION_MINOR * 100 + DPCOV_VERSION_PATCH)

#define DPCOV_VERSION_STRINGIFY_(x) #x
#define DPCOV_VERSION_STRINGIFY(x) DPCOV_VERSION_STRINGIFY_(x)
/** The version as "major.minor.patch". */
#define DPCOV_VERSION_STRING                                                  \
  DPCOV_VERSION_STRINGIFY(DPCOV_VERSION_MAJOR)                                \
  "." DPCOV_VERSION_STRINGIFY(DPCOV_VERSION_MINOR) "." DPCOV_VERSION_STRINGIFY( \
      DPCOV_VERSION_PATCH)

#endif /* DPCOV_VERSION_H */
