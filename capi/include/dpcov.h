/**
 * @file dpcov.h
 * @brief dpcov: differentially private second-moment and covariance matrices. Umbrella header.
 *
 * Include this header (or the individual `dpcov/<area>.h` headers) and link with
 * `pkg-config --cflags --libs dpcov`.
 */
#ifndef DPCOV_H
#define DPCOV_H

#include "dpcov/common.h"
#include "dpcov/gram.h"

#endif /* DPCOV_H */
