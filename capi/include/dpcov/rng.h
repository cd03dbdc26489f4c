/**
 * @file dpcov/rng.h
 * @brief The random generator handle every sampler and mechanism takes explicitly.
 *
 * Engines: a generator created from operating-system entropy (dpcov_rng_create_from_entropy(),
 * the production default) is ChaCha20 (libsodium; RFC 8439's block function) keyed by 256 bits
 * from `getrandom`: a cryptographic generator, whose noise nobody can predict without the key. A
 * generator created from a seed (dpcov_rng_create_seeded()) is PCG64
 * (`pcg_engines::setseq_xsl_rr_128_64` of pcg-cpp 0.98.1), a fast statistical generator that is
 * **not** cryptographic; it is for reproducible experiments and tests only. Every release records
 * the engine (dpcov_receipt::generator) and whether a seed was used (dpcov_rng_seed_fixed()),
 * because a seed known to anyone else removes the privacy of the noise.
 *
 * Noise once drawn is consumed: every function that draws advances the generator past its draws
 * even when it then fails (e.g. a refusal, ::DPCOV_E_REFUSED), so a retry never reuses them. Only
 * argument checks, which come before any draw, leave the generator unchanged. A consumer that
 * derives its randomness from a key (a JL sketch's weights, dpcov/sketch.h) draws that key from
 * the generator, so two consumers never share it.
 *
 * fork(): a generator made from entropy before fork() refuses to draw in the child
 * (::DPCOV_E_PRECONDITION), since parent and child would draw the same noise; make a generator in
 * the child. A seeded generator goes on in the child with the parent's numbers (reproducible by
 * design; its releases say they are not private). Substreams derived in the child draw.
 *
 * Every generator carries a 256-bit key. dpcov_rng_substream() derives, from the key and an index
 * alone, an independent generator by a keyed BLAKE2b hash (one-way: a substream's key does not
 * reveal its parent's): "the stream for data row i" is the same on every machine and whatever the
 * parent has already produced. Hash definitions: docs/random.md.
 *
 * Thread-safety: a generator must not be used by two threads at once (give each thread its own,
 * e.g. one substream per thread); distinct generators are independent. Functions that only read
 * a generator (save, substream, seed_fixed) may run concurrently with each other.
 */
#ifndef DPCOV_RNG_H
#define DPCOV_RNG_H

#include "dpcov/common.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Opaque random generator. Create with a `dpcov_rng_create_*` function, free with dpcov_rng_destroy(). */
typedef struct dpcov_rng dpcov_rng;

/** Number of bytes written by dpcov_rng_state_save(); also returned by dpcov_rng_state_size(). */
#define DPCOV_RNG_STATE_SIZE 80

/**
 * Create a ChaCha20 generator keyed by 256 bits from the operating system (`getrandom`). The
 * default for every production use; dpcov_rng_seed_fixed() reports 0.
 * @param[out] out  receives the new handle; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_ENTROPY (the OS entropy source failed),
 *         ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_rng_create_from_entropy(dpcov_rng **out);

/**
 * Create a reproducible PCG64 generator from (seed, stream). Both the engine state and its stream
 * increment are derived from a SplitMix64-based hash of the pair (docs/random.md); distinct pairs
 * give distinct keys. dpcov_rng_seed_fixed() reports 1. For experiments and tests only: a
 * release is not private for anyone who knows the seed.
 * @param[out] out  receives the new handle; untouched on failure.
 * @param seed      any 64-bit value.
 * @param stream    any 64-bit value (stream id); (seed, 0) and (seed, 1) are unrelated generators.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_rng_create_seeded(dpcov_rng **out, uint64_t seed, uint64_t stream);

/** Free a generator and set `*rng` to NULL. Accepts NULL and a pointer to NULL. */
DPCOV_API void dpcov_rng_destroy(dpcov_rng **rng);

/**
 * Create the independent generator number @p index of @p parent (counter-based): its key is a
 * hash of the parent's key and @p index, so it does not depend on how many numbers the parent has
 * produced, and the parent is not changed. The key is a BLAKE2b hash keyed by the parent's key, so
 * it reveals nothing of the parent's key. Inherits the parent's engine and seed_fixed flag.
 * @param[out] out  receives the new handle; untouched on failure.
 * @param parent    the generator whose key is used; not modified.
 * @param index     any 64-bit value (e.g. a global data-row index).
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_NOMEM.
 */
DPCOV_API dpcov_status dpcov_rng_substream(dpcov_rng **out, const dpcov_rng *parent,
                                           uint64_t index);

/**
 * The next 64 uniformly distributed bits of the generator.
 * @param rng       the generator; advanced by one output.
 * @param[out] out  receives the value; untouched on failure.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER.
 */
DPCOV_API dpcov_status dpcov_rng_next_u64(dpcov_rng *rng, uint64_t *out);

/**
 * Whether @p rng descends from an explicit seed (1) or from OS entropy (0); recorded in receipts.
 * @param rng       the generator; not modified.
 * @param[out] out  receives 0 or 1.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER.
 */
DPCOV_API dpcov_status dpcov_rng_seed_fixed(const dpcov_rng *rng, int32_t *out);

/** Size in bytes of a saved generator state: ::DPCOV_RNG_STATE_SIZE. Thread-safe. */
DPCOV_API size_t dpcov_rng_state_size(void);

/**
 * Save the complete state of @p rng (engine, key, engine position, seed_fixed flag) as
 * ::DPCOV_RNG_STATE_SIZE bytes in a portable little-endian format (docs/random.md). The bytes
 * reveal every future output: treat them as secret when the generator is used for a release.
 * @param rng    the generator; not modified.
 * @param out    buffer of at least @p size bytes.
 * @param size   capacity of @p out, >= ::DPCOV_RNG_STATE_SIZE.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_BUFFER_TOO_SMALL.
 */
DPCOV_API dpcov_status dpcov_rng_state_save(const dpcov_rng *rng, void *out, size_t size);

/**
 * Put @p rng exactly in a state saved by dpcov_rng_state_save(): it then continues the saved
 * sequence, with the saved key (substreams) and seed_fixed flag. A PCG64 state (every version-1
 * state) restores with seed_fixed = 1 whatever its flag: PCG64 only ever comes from a seed.
 * @param rng    the generator to overwrite; unchanged on failure.
 * @param state  the saved bytes; not retained.
 * @param size   number of bytes in @p state; must equal ::DPCOV_RNG_STATE_SIZE.
 * @return ::DPCOV_OK, ::DPCOV_E_NULL_POINTER, ::DPCOV_E_BUFFER_TOO_SMALL (size smaller),
 *         ::DPCOV_E_INVALID_ARGUMENT (size larger, or not a saved state: bad magic, version,
 *         flags or increment).
 */
DPCOV_API dpcov_status dpcov_rng_state_restore(dpcov_rng *rng, const void *state, size_t size);

#ifdef __cplusplus
}
#endif

#endif /* DPCOV_RNG_H */
