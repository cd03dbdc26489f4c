// Every sampler of dpcov::random. Each takes the generator explicitly; log-densities sit beside
// their samplers. Continuous samplers work in floating point ("idealized numerics", Mironov 2012):
// they are exact up to the rounding of the values they return.
#pragma once

#include "acg.hpp"
#include "bingham.hpp"
#include "exponential.hpp"
#include "gamma.hpp"
#include "normal.hpp"
#include "rng.hpp"
#include "sphere.hpp"
#include "symmetric_noise.hpp"
#include "uniform.hpp"
#include "wishart.hpp"
