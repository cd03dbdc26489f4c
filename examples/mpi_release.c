/*
 * One differentially private release from rows spread over MPI ranks (docs/distributed.md).
 *
 * Each rank reads only its own shard of the rows, accumulates their Gram matrix (and, for the
 * Johnson-Lindenstrauss mechanisms, their sketch R_A A), and the partial states are summed on
 * rank 0 with MPI_Reduce. Rank 0 rebuilds an accumulator from the sums
 * (dpcov_gram_create_from_state, dpcov_sketch_create_from_state) and releases once, spending the
 * privacy budget once for all the rows.
 *
 * Keys stay with whoever adds the noise. Rank 0 alone holds the release generator: the Gram
 * mechanisms need no key anywhere else. The JL sketch needs Gaussian weights at every row, so rank k
 * receives (point to point, never broadcast) a shard key of its own, derived one-way from rank 0's
 * (dpcov_rng_substream, index kShardKeys + k): it knows the weights of its own rows only, not those
 * of other ranks' rows nor of the w I block, which come from the release generator on rank 0. No
 * rank but rank 0 can reproduce the released noise. A row's weights come from the substream, for
 * the row's GLOBAL index, of the key its shard's sketch draws from the shard key, so the summed
 * sketch does not depend on how the rows are read, given the number of shards.
 *
 * Mechanisms with exact numerics (Analyze Gauss and symmetric Laplace) use them unless
 * --idealized is given, as every other surface does: each rank bounds its raw rows in a bounded
 * accumulator with exact numerics (dpcov_gram_create_bounded: the rows rounded to the release's
 * grid, summed in exact integers), exports its state as bytes (dpcov_gram_export_state), and
 * rank 0 gathers the states (MPI_Gatherv), imports and merges them (dpcov_gram_import_state,
 * dpcov_gram_merge: integer addition) and releases: byte for byte the single-process release
 * with the same seed, however the rows were split.
 *
 * Usage:
 *   mpirun -np P mpi_release --mechanism NAME --epsilon E --delta D --bound B
 *                            (--csv FILE | --generate N --dim D) [--projection-rows R]
 *                            [--seed S] [--serial [--shards P]] [--idealized]
 *   --csv FILE     numeric comma-separated rows (a first line that is not numeric is a header).
 *                  Rank k reads the lines starting in bytes [k S / P, (k + 1) S / P) of the file
 *                  (S its size); MPI_Exscan of the shard row counts gives each line's global index.
 *   --generate N   N rows of D columns generated from the global row index alone (for tests).
 *   --idealized    floating-point sums and noise for a mechanism with exact numerics (the
 *                  receipt says DPCOV_NUMERICS_IDEALIZED): the guarantee is the idealized
 *                  mechanism's. Refused for the mechanisms that have no exact numerics.
 *   --seed S       a fixed seed: reproducible, NOT private. Without it rank 0 draws the key from
 *                  the operating system's entropy.
 *   --serial       every row in one process, released directly: the single-process release the
 *                  distributed one must equal (run with one rank). JL mechanisms: the rows are
 *                  split into P shards (--shards P, default 1), each with its shard key, as P ranks
 *                  would split them.
 * Rank 0 prints the number of ranks, the receipt (its numerics too) and the released matrix (row by
 * row, %.17g).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpcov.h"

enum { kChunkRows = 1024 };

/* Substream indices of the shard keys (one per rank) under the release generator's key. */
static const uint64_t kShardKeys = UINT64_C(1) << 62;

struct options {
  const char *mechanism;
  double epsilon, delta, bound;
  const char *csv;
  int64_t generate, dim, projection_rows;
  int has_seed, serial, shards, idealized;
  int exact; /* decided: the mechanism has exact numerics and --idealized was not given */
  uint64_t seed;
};

/* The accumulators a rank fills: a sketch (JL mechanisms, which keeps the Gram alongside) or a
 * Gram accumulator. */
struct accumulator {
  dpcov_gram *gram;
  dpcov_sketch *sketch;
};

static void die(int rank, const char *what, dpcov_status status) {
  fprintf(stderr, "rank %d: %s failed: %s: %s\n", rank, what, dpcov_status_string(status),
          dpcov_last_error_message());
  MPI_Abort(MPI_COMM_WORLD, 2);
}

#define CHECK(rank, call)                     \
  do {                                        \
    dpcov_status status_ = (call);            \
    if (status_ != DPCOV_OK) die(rank, #call, status_); \
  } while (0)

static void usage_error(const char *message) {
  fprintf(stderr, "mpi_release: %s\n", message);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static struct options parse(int argc, char **argv) {
  struct options o;
  memset(&o, 0, sizeof o);
  o.shards = 1;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--serial") == 0 || strcmp(a, "--idealized") == 0) {
      *(strcmp(a, "--serial") == 0 ? &o.serial : &o.idealized) = 1;
      continue;
    }
    if (v == NULL) usage_error("every option but --serial and --idealized takes a value");
    if (strcmp(a, "--shards") == 0) {
      o.shards = (int)strtol(v, NULL, 10);
      ++i;
      continue;
    }
    ++i;
    if (strcmp(a, "--mechanism") == 0) o.mechanism = v;
    else if (strcmp(a, "--epsilon") == 0) o.epsilon = strtod(v, NULL);
    else if (strcmp(a, "--delta") == 0) o.delta = strtod(v, NULL);
    else if (strcmp(a, "--bound") == 0) o.bound = strtod(v, NULL);
    else if (strcmp(a, "--csv") == 0) o.csv = v;
    else if (strcmp(a, "--generate") == 0) o.generate = strtoll(v, NULL, 10);
    else if (strcmp(a, "--dim") == 0) o.dim = strtoll(v, NULL, 10);
    else if (strcmp(a, "--projection-rows") == 0) o.projection_rows = strtoll(v, NULL, 10);
    else if (strcmp(a, "--seed") == 0) {
      o.has_seed = 1;
      o.seed = strtoull(v, NULL, 10);
    } else usage_error("unknown option");
  }
  if (o.mechanism == NULL) usage_error("--mechanism is required");
  if ((o.csv == NULL) == (o.generate <= 0)) usage_error("give exactly one of --csv and --generate");
  return o;
}

static int32_t mechanism_id(const char *name) {
  for (int32_t id = 1; id <= DPCOV_MECHANISM_OLS_JL; ++id)
    if (strcmp(dpcov_mechanism_name(id), name) == 0) return id;
  usage_error("unknown mechanism");
  return 0;
}

/* Whether the registry lists exact numerics for mechanism @p id (safe by default). */
static int has_exact_numerics(int32_t id) {
  const int32_t count = dpcov_mechanism_count();
  for (int32_t i = 0; i < count; ++i) {
    dpcov_mechanism_entry e;
    memset(&e, 0, sizeof e);
    e.struct_size = sizeof e;
    if (dpcov_mechanism_info(i, &e) == DPCOV_OK && e.id == id)
      return (e.numerics & DPCOV_MECHANISM_NUMERICS_EXACT) != 0;
  }
  return 0;
}

static int is_sketch_mechanism(int32_t id) {
  return id == DPCOV_MECHANISM_JL_RIDGE || id == DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN ||
         id == DPCOV_MECHANISM_OLS_JL;
}

static void add_rows(int rank, struct accumulator *acc, const struct options *o,
                     const double *rows, int64_t count, int64_t first_index) {
  if (o->exact)
    CHECK(rank, dpcov_gram_add_raw_rows(acc->gram, DPCOV_ROW_MAJOR, count, o->dim, rows, o->dim,
                                        NULL));
  else if (acc->sketch != NULL)
    CHECK(rank, dpcov_sketch_add_rows(acc->sketch, DPCOV_ROW_MAJOR, count, o->dim, rows, o->dim,
                                      first_index, o->bound, DPCOV_BOUND_CLIP));
  else
    CHECK(rank, dpcov_gram_add_rows(acc->gram, DPCOV_ROW_MAJOR, count, o->dim, rows, o->dim,
                                    o->bound, DPCOV_BOUND_CLIP));
}

/* Generated rows: row i depends only on i (through the substream i of a fixed data key), so every
 * split of the index range gives the same rows. Entries are uniform in (-0.6, 0.6): some rows
 * exceed a bound of 1 and are clipped. */
static void generate_shard(int rank, int shard, int shards, struct accumulator *acc,
                           const struct options *o) {
  const int64_t begin = o->generate * shard / shards, end = o->generate * (shard + 1) / shards;
  dpcov_rng *data_key = NULL;
  CHECK(rank, dpcov_rng_create_seeded(&data_key, 20261122, 0));
  double *rows = malloc((size_t)(kChunkRows * o->dim) * sizeof(double));
  if (rows == NULL) usage_error("out of memory");
  for (int64_t first = begin; first < end; first += kChunkRows) {
    const int64_t count = end - first < kChunkRows ? end - first : kChunkRows;
    for (int64_t i = 0; i < count; ++i) {
      dpcov_rng *row_stream = NULL;
      CHECK(rank, dpcov_rng_substream(&row_stream, data_key, (uint64_t)(first + i)));
      CHECK(rank, dpcov_sample_uniform01(row_stream, o->dim, rows + i * o->dim));
      for (int64_t j = 0; j < o->dim; ++j) rows[i * o->dim + j] = 1.2 * rows[i * o->dim + j] - 0.6;
      dpcov_rng_destroy(&row_stream);
    }
    add_rows(rank, acc, o, rows, count, first);
  }
  free(rows);
  dpcov_rng_destroy(&data_key);
}

/* Parses one CSV line into o->dim values. Returns 1 for a row, 0 for a line that is not numeric
 * (a header) or empty; a numeric line with the wrong number of fields is an error. */
static int parse_line(const char *line, int64_t dim, double *out) {
  const char *p = line;
  while (*p == ' ' || *p == '\t') ++p;
  if (*p == '\0' || *p == '\n' || *p == '\r') return 0;
  for (int64_t j = 0; j < dim; ++j) {
    char *end = NULL;
    out[j] = strtod(p, &end);
    if (end == p) {
      if (j == 0) return 0;
      usage_error("a CSV row has fewer fields than --dim");
    }
    p = end;
    while (*p == ' ' || *p == '\t') ++p;
    if (j + 1 < dim) {
      if (*p != ',') usage_error("a CSV row has fewer fields than --dim");
      ++p;
    }
  }
  while (*p == ' ' || *p == '\t' || *p == '\r') ++p;
  if (*p != '\0' && *p != '\n') usage_error("a CSV row has more fields than --dim");
  return 1;
}

/* Positions `f` at the first line that starts in [begin, end) of the file and returns 1, or 0 if
 * no line starts there. A line belongs to the shard holding its first byte. */
static int seek_shard(FILE *f, long begin, long end) {
  if (begin > 0) {
    if (fseek(f, begin - 1, SEEK_SET) != 0) return 0;
    int c = fgetc(f);
    while (c != '\n' && c != EOF) c = fgetc(f);
    if (c == EOF) return 0;
  } else {
    rewind(f);
  }
  return ftell(f) < end;
}

/* Reads the shard's lines (pass 1: count rows; pass 2: add them with their global indices). The
 * global index of the shard's first row is the rows of the shards before it: from MPI_Exscan in a
 * distributed run, from *next_index (advanced past this shard) when one process reads every
 * shard in turn. */
static void read_csv_shard(int rank, int shard, int shards, struct accumulator *acc,
                           const struct options *o, int64_t *next_index) {
  FILE *f = fopen(o->csv, "rb");
  if (f == NULL) usage_error("cannot open the CSV file");
  fseek(f, 0, SEEK_END);
  const long bytes = ftell(f);
  const long begin = (long)((int64_t)bytes * shard / shards);
  const long end = (long)((int64_t)bytes * (shard + 1) / shards);
  char line[65536];
  double *rows = malloc((size_t)(kChunkRows * o->dim) * sizeof(double));
  if (rows == NULL) usage_error("out of memory");

  int64_t count = 0;
  if (seek_shard(f, begin, end))
    while (ftell(f) < end && fgets(line, sizeof line, f) != NULL)
      count += parse_line(line, o->dim, rows);
  int64_t first_index = 0;
  if (next_index != NULL) {
    first_index = *next_index;
    *next_index += count;
  } else if (shards > 1) {
    MPI_Exscan(&count, &first_index, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0) first_index = 0; /* MPI_Exscan leaves rank 0's result undefined */
  }

  int64_t buffered = 0;
  if (seek_shard(f, begin, end))
    while (ftell(f) < end && fgets(line, sizeof line, f) != NULL) {
      buffered += parse_line(line, o->dim, rows + buffered * o->dim);
      if (buffered == kChunkRows) {
        add_rows(rank, acc, o, rows, buffered, first_index);
        first_index += buffered;
        buffered = 0;
      }
    }
  if (buffered > 0) add_rows(rank, acc, o, rows, buffered, first_index);
  free(rows);
  fclose(f);
}

/* This rank's shard key (JL mechanisms), derived one-way from the release generator on rank 0 and
 * sent to each rank alone: rank k learns the weights of its own rows only. */
static dpcov_rng *own_shard_key(int rank, int size, const dpcov_rng *release_key) {
  unsigned char state[DPCOV_RNG_STATE_SIZE];
  dpcov_rng *key = NULL;
  if (rank == 0) {
    for (int k = 1; k < size; ++k) {
      CHECK(rank, dpcov_rng_substream(&key, release_key, kShardKeys + (uint64_t)k));
      CHECK(rank, dpcov_rng_state_save(key, state, sizeof state));
      dpcov_rng_destroy(&key);
      MPI_Send(state, (int)sizeof state, MPI_UNSIGNED_CHAR, k, 0, MPI_COMM_WORLD);
    }
    CHECK(rank, dpcov_rng_substream(&key, release_key, kShardKeys));
  } else {
    MPI_Recv(state, (int)sizeof state, MPI_UNSIGNED_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(rank, dpcov_rng_create_seeded(&key, 0, 0));
    CHECK(rank, dpcov_rng_state_restore(key, state, sizeof state));
  }
  memset(state, 0, sizeof state); /* the state is the key */
  return key;
}

/* Adds an accumulator's state (G, the counters and, for a sketch, R_A A) to the running sums. */
static void add_state(int rank, const struct accumulator *acc, int64_t d, int64_t r, double *g_sum,
                      double *s_sum, int64_t counts[3]) {
  dpcov_gram_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  double *g = malloc((size_t)(d * d) * sizeof(double));
  double *s = acc->sketch != NULL ? malloc((size_t)(r * d) * sizeof(double)) : NULL;
  if (g == NULL || (acc->sketch != NULL && s == NULL)) usage_error("out of memory");
  if (acc->sketch != NULL) {
    CHECK(rank, dpcov_sketch_get_info(acc->sketch, &info));
    CHECK(rank, dpcov_sketch_get_gram(acc->sketch, DPCOV_ROW_MAJOR, g, d));
    CHECK(rank, dpcov_sketch_get(acc->sketch, 0.0, DPCOV_ROW_MAJOR, s, d));
    for (int64_t i = 0; i < r * d; ++i) s_sum[i] += s[i];
  } else {
    CHECK(rank, dpcov_gram_get_info(acc->gram, &info));
    CHECK(rank, dpcov_gram_get_matrix(acc->gram, DPCOV_ROW_MAJOR, g, d));
  }
  for (int64_t i = 0; i < d * d; ++i) g_sum[i] += g[i];
  counts[0] += info.rows;
  counts[1] += info.clipped;
  counts[2] += info.dropped;
  free(g);
  free(s);
}

/* A bounded accumulator with exact numerics for the release of mechanism @p id. */
static dpcov_gram *exact_accumulator(int rank, const struct options *o, int32_t id) {
  dpcov_row_bounding spec;
  CHECK(rank, dpcov_row_bounding_default(&spec));
  spec.bound = o->bound;
  spec.mechanism = id;
  spec.epsilon = o->epsilon;
  spec.delta = o->delta;
  dpcov_gram *gram = NULL;
  CHECK(rank, dpcov_gram_create_bounded(&gram, o->dim, &spec));
  return gram;
}

/* The bytes of an accumulator's state (dpcov_gram_export_state), malloc'd; their count in @p n. */
static unsigned char *export_state(int rank, const dpcov_gram *gram, size_t *n) {
  CHECK(rank, dpcov_gram_export_state(gram, NULL, 0, n));
  unsigned char *bytes = malloc(*n);
  if (bytes == NULL) usage_error("out of memory");
  CHECK(rank, dpcov_gram_export_state(gram, bytes, *n, n));
  return bytes;
}

/* Merges the state @p bytes into @p *total (which it creates from them when NULL). */
static void merge_state(int rank, dpcov_gram **total, const unsigned char *bytes, size_t n) {
  dpcov_gram *part = NULL;
  CHECK(rank, dpcov_gram_import_state(&part, bytes, n));
  if (*total == NULL) {
    *total = part;
    return;
  }
  CHECK(rank, dpcov_gram_merge(*total, part));
  dpcov_gram_destroy(&part);
}

/* Rank 0 gathers every rank's exported state and merges them in rank order; NULL elsewhere. The
 * states are the curator's exact statistics: they go to rank 0 only. */
static dpcov_gram *gather_states(int rank, int size, const dpcov_gram *gram) {
  size_t n = 0;
  unsigned char *mine = export_state(rank, gram, &n);
  int len = (int)n, *lens = NULL, *offsets = NULL;
  unsigned char *all = NULL;
  if (rank == 0) {
    lens = malloc((size_t)size * sizeof(int));
    offsets = malloc((size_t)size * sizeof(int));
    if (lens == NULL || offsets == NULL) usage_error("out of memory");
  }
  MPI_Gather(&len, 1, MPI_INT, lens, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int k = 0, at = 0; k < size; at += lens[k], ++k) offsets[k] = at;
    all = malloc((size_t)(offsets[size - 1] + lens[size - 1]));
    if (all == NULL) usage_error("out of memory");
  }
  MPI_Gatherv(mine, len, MPI_UNSIGNED_CHAR, all, lens, offsets, MPI_UNSIGNED_CHAR, 0,
              MPI_COMM_WORLD);
  dpcov_gram *total = NULL;
  if (rank == 0)
    for (int k = 0; k < size; ++k) merge_state(rank, &total, all + offsets[k], (size_t)lens[k]);
  free(mine);
  free(all);
  free(lens);
  free(offsets);
  return total;
}

static void print_release(int ranks, const dpcov_receipt *r, const dpcov_gram_info *info,
                          const double *m, int64_t d) {
  printf("ranks %d\n", ranks);
  printf("mechanism %s\nn %lld\nclipped %lld\ndim %lld\nseed_fixed %d\ngenerator %d\n",
         dpcov_mechanism_name(r->mechanism), (long long)r->n, (long long)info->clipped,
         (long long)r->dim, (int)r->seed_fixed, (int)r->generator);
  printf("numerics %s\n", r->numerics == DPCOV_NUMERICS_EXACT ? "exact" : "idealized");
  printf("epsilon %.17g\ndelta %.17g\nsigma %.17g\nthreshold_w2 %.17g\ntest_value %.17g\n",
         r->epsilon, r->delta, r->sigma, r->threshold_w2, r->test_value);
  printf("matrix\n");
  for (int64_t i = 0; i < d; ++i)
    for (int64_t j = 0; j < d; ++j) printf("%.17g%c", m[i * d + j], j + 1 < d ? ' ' : '\n');
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  struct options o = parse(argc, argv);
  const int32_t id = mechanism_id(o.mechanism);
  if (o.serial && size != 1) usage_error("--serial runs in one process");
  if (o.dim < 1) usage_error("--dim must be >= 1");
  if (is_sketch_mechanism(id) && o.projection_rows < 1)
    usage_error("the JL mechanisms need --projection-rows");
  const int has_exact = has_exact_numerics(id);
  if (o.idealized && !has_exact)
    usage_error("--idealized is for the mechanisms with exact numerics (analyze_gauss, "
                "laplace_sym); this one has idealized numerics only");
  o.exact = has_exact && !o.idealized;

  /* The release generator lives on rank 0 only (from entropy unless --seed). */
  dpcov_rng *rng = NULL;
  if (rank == 0)
    CHECK(rank, o.has_seed ? dpcov_rng_create_seeded(&rng, o.seed, 0)
                           : dpcov_rng_create_from_entropy(&rng));
  const int sketching = is_sketch_mechanism(id);
  if (o.shards < 1 || (o.shards > 1 && !(o.serial && sketching)))
    usage_error("--shards P >= 1 goes with --serial and a JL mechanism");
  const int shards = o.serial ? o.shards : size;
  const int64_t d = o.dim, r = o.projection_rows;

  /* This process's part of the sums: G, the counters and (JL) the data sketch R_A A, over its
   * shard (or, with --serial, over every shard in turn). */
  double *g_part = calloc((size_t)(d * d), sizeof(double));
  double *s_part = sketching ? calloc((size_t)(r * d), sizeof(double)) : NULL;
  int64_t counts[3] = {0, 0, 0};
  int64_t next_index = 0;
  dpcov_gram *exact_total = NULL; /* exact numerics: the merged states (rank 0) */
  dpcov_rng *key = sketching && !o.serial ? own_shard_key(rank, size, rng) : NULL;
  for (int shard = o.serial ? 0 : rank; shard < (o.serial ? shards : rank + 1); ++shard) {
    if (o.serial && sketching) CHECK(rank, dpcov_rng_substream(&key, rng, kShardKeys + shard));
    struct accumulator acc = {NULL, NULL};
    if (sketching)
      CHECK(rank, dpcov_sketch_create(&acc.sketch, d, r, key));
    else if (o.exact)
      acc.gram = exact_accumulator(rank, &o, id);
    else
      CHECK(rank, dpcov_gram_create(&acc.gram, d));
    if (o.csv != NULL)
      read_csv_shard(rank, shard, shards, &acc, &o, o.serial ? &next_index : NULL);
    else
      generate_shard(rank, shard, shards, &acc, &o);
    if (o.exact && o.serial) {
      size_t n = 0;
      unsigned char *bytes = export_state(rank, acc.gram, &n);
      merge_state(rank, &exact_total, bytes, n);
      free(bytes);
    } else if (o.exact) {
      exact_total = gather_states(rank, size, acc.gram);
    } else {
      add_state(rank, &acc, d, r, g_part, s_part, counts);
    }
    dpcov_sketch_destroy(&acc.sketch);
    dpcov_gram_destroy(&acc.gram);
    if (o.serial) dpcov_rng_destroy(&key);
  }
  dpcov_rng_destroy(&key);

  double *g_sum = g_part, *s_sum = s_part;
  int64_t count_sum[3] = {counts[0], counts[1], counts[2]};
  if (!o.serial && !o.exact) {
    g_sum = malloc((size_t)(d * d) * sizeof(double));
    s_sum = sketching ? malloc((size_t)(r * d) * sizeof(double)) : NULL;
    MPI_Reduce(g_part, g_sum, (int)(d * d), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(counts, count_sum, 3, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (sketching)
      MPI_Reduce(s_part, s_sum, (int)(r * d), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  }

  double *released = malloc((size_t)(d * d) * sizeof(double));
  dpcov_receipt receipt;
  memset(&receipt, 0, sizeof receipt);
  receipt.struct_size = sizeof receipt;
  dpcov_gram_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;
  if (rank == 0) {
    /* Rebuild the accumulator of all rows and release once, with the release generator. */
    dpcov_mechanism_params params;
    dpcov_mechanism_params_default(&params);
    params.projection_rows = sketching ? r : 0;
    info.dim = d;
    info.rows = count_sum[0];
    info.clipped = count_sum[1];
    info.dropped = count_sum[2];
    info.bound = o.bound;
    dpcov_gram *total = exact_total;
    if (total != NULL)
      CHECK(rank, dpcov_gram_get_info(total, &info));
    else
      CHECK(rank, dpcov_gram_create_from_state(&total, &info, DPCOV_ROW_MAJOR, g_sum, d));
    if (sketching) {
      dpcov_sketch *sketch = NULL;
      CHECK(rank, dpcov_sketch_create_from_state(&sketch, rng, r, total, DPCOV_ROW_MAJOR, s_sum,
                                                 d));
      CHECK(rank, dpcov_sketch_release(id, sketch, o.epsilon, o.delta, &params, rng,
                                       DPCOV_ROW_MAJOR, NULL, 0, released, d, &receipt));
      dpcov_sketch_destroy(&sketch);
    } else {
      CHECK(rank, dpcov_mechanism_release_gram(id, total, o.epsilon, o.delta, &params, rng,
                                               DPCOV_ROW_MAJOR, released, d, &receipt));
    }
    dpcov_gram_destroy(&total);
  }
  if (g_sum != g_part) free(g_sum);
  if (s_sum != s_part) free(s_sum);
  free(g_part);
  free(s_part);
  if (rank == 0) print_release(size, &receipt, &info, released, d);

  free(released);
  dpcov_rng_destroy(&rng);
  MPI_Finalize();
  return 0;
}
