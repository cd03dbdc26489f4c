/*
 * One differentially private release from rows spread over MPI ranks (docs/distributed.md).
 *
 * Each rank reads only its own shard of the rows, accumulates their Gram matrix (and, for the
 * Johnson-Lindenstrauss mechanisms, their sketch R_A A), and the partial states are summed on
 * rank 0 with MPI_Reduce. Rank 0 rebuilds an accumulator from the sums
 * (dpcov_gram_create_from_state, dpcov_sketch_create_from_state) and releases once, spending the
 * privacy budget once for all the rows.
 *
 * The sketch's Gaussian weights for a row come from the generator's substream for the row's GLOBAL
 * index, so the summed sketch is the sketch of all rows whatever the split; every rank uses the
 * same generator key, broadcast from rank 0.
 *
 * Usage:
 *   mpirun -np P mpi_release --mechanism NAME --epsilon E --delta D --bound B
 *                            (--csv FILE | --generate N --dim D) [--projection-rows R]
 *                            [--seed S] [--serial]
 *   --csv FILE     numeric comma-separated rows (a first line that is not numeric is a header).
 *                  Rank k reads the lines starting in bytes [k S / P, (k + 1) S / P) of the file
 *                  (S its size); MPI_Exscan of the shard row counts gives each line's global index.
 *   --generate N   N rows of D columns generated from the global row index alone (for tests).
 *   --seed S       a fixed seed: reproducible, NOT private. Without it rank 0 draws the key from
 *                  the operating system's entropy.
 *   --serial       every row in one process and one accumulator, released directly: the
 *                  single-process release the distributed one must equal (run with one rank).
 * Rank 0 prints the number of ranks, the receipt and the released matrix (row by row, %.17g).
 */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpcov.h"

enum { kChunkRows = 1024 };

struct options {
  const char *mechanism;
  double epsilon, delta, bound;
  const char *csv;
  int64_t generate, dim, projection_rows;
  int has_seed, serial;
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
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (strcmp(a, "--serial") == 0) {
      o.serial = 1;
      continue;
    }
    if (v == NULL) usage_error("every option but --serial takes a value");
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

static int is_sketch_mechanism(int32_t id) {
  return id == DPCOV_MECHANISM_JL_RIDGE || id == DPCOV_MECHANISM_JL_RIDGE_SIGMA_MIN ||
         id == DPCOV_MECHANISM_OLS_JL;
}

static void add_rows(int rank, struct accumulator *acc, const struct options *o,
                     const double *rows, int64_t count, int64_t first_index) {
  if (acc->sketch != NULL)
    CHECK(rank, dpcov_sketch_add_rows(acc->sketch, DPCOV_ROW_MAJOR, count, o->dim, rows, o->dim,
                                      first_index, o->bound, DPCOV_BOUND_CLIP));
  else
    CHECK(rank, dpcov_gram_add_rows(acc->gram, DPCOV_ROW_MAJOR, count, o->dim, rows, o->dim,
                                    o->bound, DPCOV_BOUND_CLIP));
}

/* Generated rows: row i depends only on i (through the substream i of a fixed data key), so every
 * split of the index range gives the same rows. Entries are uniform in (-0.6, 0.6): some rows
 * exceed a bound of 1 and are clipped. */
static void generate_shard(int rank, int size, struct accumulator *acc, const struct options *o) {
  const int64_t begin = o->generate * rank / size, end = o->generate * (rank + 1) / size;
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

/* Reads the shard's lines (pass 1: count rows; pass 2: add them with their global indices). */
static void read_csv_shard(int rank, int size, struct accumulator *acc, const struct options *o) {
  FILE *f = fopen(o->csv, "rb");
  if (f == NULL) usage_error("cannot open the CSV file");
  fseek(f, 0, SEEK_END);
  const long bytes = ftell(f);
  const long begin = (long)((int64_t)bytes * rank / size);
  const long end = (long)((int64_t)bytes * (rank + 1) / size);
  char line[65536];
  double *rows = malloc((size_t)(kChunkRows * o->dim) * sizeof(double));
  if (rows == NULL) usage_error("out of memory");

  int64_t count = 0;
  if (seek_shard(f, begin, end))
    while (ftell(f) < end && fgets(line, sizeof line, f) != NULL)
      count += parse_line(line, o->dim, rows);
  /* Global index of the shard's first row: the rows of the shards before it. */
  int64_t first_index = 0;
  if (size > 1) {
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

static void print_release(int ranks, const dpcov_receipt *r, const dpcov_gram_info *info,
                          const double *m, int64_t d) {
  printf("ranks %d\n", ranks);
  printf("mechanism %s\nn %lld\nclipped %lld\ndim %lld\nseed_fixed %d\n",
         dpcov_mechanism_name(r->mechanism), (long long)r->n, (long long)info->clipped,
         (long long)r->dim, (int)r->seed_fixed);
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

  /* One generator key for every rank: rank 0 creates it (from entropy unless --seed) and
   * broadcasts its state. The state is secret: it reveals the noise and the sketch's weights. */
  unsigned char key_state[DPCOV_RNG_STATE_SIZE];
  dpcov_rng *rng = NULL;
  if (rank == 0) {
    CHECK(rank, o.has_seed ? dpcov_rng_create_seeded(&rng, o.seed, 0)
                           : dpcov_rng_create_from_entropy(&rng));
    CHECK(rank, dpcov_rng_state_save(rng, key_state, sizeof key_state));
  }
  MPI_Bcast(key_state, (int)sizeof key_state, MPI_UNSIGNED_CHAR, 0, MPI_COMM_WORLD);
  if (rank != 0) {
    CHECK(rank, dpcov_rng_create_seeded(&rng, 0, 0));
    CHECK(rank, dpcov_rng_state_restore(rng, key_state, sizeof key_state));
  }

  struct accumulator acc = {NULL, NULL};
  if (is_sketch_mechanism(id))
    CHECK(rank, dpcov_sketch_create(&acc.sketch, o.dim, o.projection_rows, rng));
  else
    CHECK(rank, dpcov_gram_create(&acc.gram, o.dim));
  if (o.csv != NULL)
    read_csv_shard(o.serial ? 0 : rank, o.serial ? 1 : size, &acc, &o);
  else
    generate_shard(o.serial ? 0 : rank, o.serial ? 1 : size, &acc, &o);

  const int64_t d = o.dim, r = o.projection_rows;
  double *released = malloc((size_t)(d * d) * sizeof(double));
  dpcov_mechanism_params params;
  dpcov_mechanism_params_default(&params);
  params.projection_rows = is_sketch_mechanism(id) ? r : 0;
  dpcov_receipt receipt;
  memset(&receipt, 0, sizeof receipt);
  receipt.struct_size = sizeof receipt;
  dpcov_gram_info info;
  memset(&info, 0, sizeof info);
  info.struct_size = sizeof info;

  if (o.serial) {
    /* The single-process release: straight from the accumulator. */
    if (acc.sketch != NULL) {
      CHECK(rank, dpcov_sketch_get_info(acc.sketch, &info));
      CHECK(rank, dpcov_sketch_release(id, acc.sketch, o.epsilon, o.delta, &params, rng,
                                       DPCOV_ROW_MAJOR, NULL, 0, released, d, &receipt));
    } else {
      CHECK(rank, dpcov_gram_get_info(acc.gram, &info));
      CHECK(rank, dpcov_mechanism_release_gram(id, acc.gram, o.epsilon, o.delta, &params, rng,
                                               DPCOV_ROW_MAJOR, released, d, &receipt));
    }
  } else {
    /* Export this rank's state: G, the counters and (JL) the data sketch R_A A. */
    double *g = malloc((size_t)(d * d) * sizeof(double));
    double *g_sum = malloc((size_t)(d * d) * sizeof(double));
    double *s = NULL, *s_sum = NULL;
    if (acc.sketch != NULL) {
      s = malloc((size_t)(r * d) * sizeof(double));
      s_sum = malloc((size_t)(r * d) * sizeof(double));
      CHECK(rank, dpcov_sketch_get_info(acc.sketch, &info));
      CHECK(rank, dpcov_sketch_get_gram(acc.sketch, DPCOV_ROW_MAJOR, g, d));
      CHECK(rank, dpcov_sketch_get(acc.sketch, 0.0, DPCOV_ROW_MAJOR, s, d));
    } else {
      CHECK(rank, dpcov_gram_get_info(acc.gram, &info));
      CHECK(rank, dpcov_gram_get_matrix(acc.gram, DPCOV_ROW_MAJOR, g, d));
    }
    int64_t counts[3] = {info.rows, info.clipped, info.dropped}, count_sum[3] = {0, 0, 0};
    MPI_Reduce(g, g_sum, (int)(d * d), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Reduce(counts, count_sum, 3, MPI_INT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
    if (s != NULL) MPI_Reduce(s, s_sum, (int)(r * d), MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);

    if (rank == 0) {
      /* Rebuild the accumulator of all rows and release once. */
      info.dim = d;
      info.rows = count_sum[0];
      info.clipped = count_sum[1];
      info.dropped = count_sum[2];
      info.bound = o.bound;
      dpcov_gram *total = NULL;
      CHECK(rank, dpcov_gram_create_from_state(&total, &info, DPCOV_ROW_MAJOR, g_sum, d));
      if (s != NULL) {
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
    free(g);
    free(g_sum);
    free(s);
    free(s_sum);
  }
  if (rank == 0) print_release(size, &receipt, &info, released, d);

  free(released);
  dpcov_sketch_destroy(&acc.sketch);
  dpcov_gram_destroy(&acc.gram);
  dpcov_rng_destroy(&rng);
  MPI_Finalize();
  return 0;
}
