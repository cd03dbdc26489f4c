/* Prints dpcov_mechanism_plan() receipts as JSON lines, for the proof check scripts
 * (proofs/check/), which recompute every constant independently and compare.
 *
 * Reads one request per line from stdin:
 *   <mechanism name> <d> <n> <B> <epsilon> <delta> [neighbour=replace|add_remove]
 *   [calibration=analytic|classical|upper_triangle|published] [lambda_min_bound=<x>]
 *   [scope=domain|input] [audit=1]
 *   [calibration=bingham_published|bingham_sensitivity] [split=uniform|adaptive] [beta=<x>]
 *   [rank=<k>] [r=<projection rows>] [m=<posterior dof>]
 *   [rho=<graphical-lasso penalty>]  (plans with dpcov_private_glasso_plan() instead)
 *   [exact=1]  (plans with dpcov_exact_plan() instead; the grid's fields are printed too)
 * and writes one JSON object per line: the receipt's fields, or {"status": ..., "message": ...}
 * when the plan fails. Doubles are printed with 17 significant digits (exact round trip). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dpcov.h"

static int mechanism_from(const char *name) {
  int32_t id;
  for (id = 1; id <= 13; ++id)
    if (strcmp(dpcov_mechanism_name(id), name) == 0) return id;
  return -1;
}

static int apply_option(dpcov_mechanism_params *p, const char *option) {
  if (strcmp(option, "neighbour=replace") == 0) p->neighbour = DPCOV_NEIGHBOUR_REPLACE_ONE;
  else if (strcmp(option, "neighbour=add_remove") == 0) p->neighbour = DPCOV_NEIGHBOUR_ADD_REMOVE;
  else if (strcmp(option, "calibration=analytic") == 0)
    p->calibration = DPCOV_CALIBRATION_ANALYTIC_GAUSSIAN;
  else if (strcmp(option, "calibration=classical") == 0)
    p->calibration = DPCOV_CALIBRATION_CLASSICAL_GAUSSIAN;
  else if (strcmp(option, "calibration=upper_triangle") == 0)
    p->calibration = DPCOV_CALIBRATION_LAPLACE_UPPER_TRIANGLE;
  else if (strcmp(option, "calibration=published") == 0)
    p->calibration = DPCOV_CALIBRATION_LAPLACE_PUBLISHED;
  else if (strncmp(option, "lambda_min_bound=", 17) == 0)
    p->lambda_min_bound = strtod(option + 17, NULL);
  else if (strcmp(option, "scope=domain") == 0) p->lambda_min_scope = DPCOV_LAMBDA_MIN_DOMAIN;
  else if (strcmp(option, "scope=input") == 0) p->lambda_min_scope = DPCOV_LAMBDA_MIN_INPUT;
  else if (strcmp(option, "audit=1") == 0) p->audit_only_not_private = 1;
  else if (strcmp(option, "calibration=bingham_published") == 0)
    p->calibration = DPCOV_CALIBRATION_BINGHAM_PUBLISHED;
  else if (strcmp(option, "calibration=bingham_sensitivity") == 0)
    p->calibration = DPCOV_CALIBRATION_BINGHAM_SENSITIVITY;
  else if (strcmp(option, "split=uniform") == 0) p->budget_split = DPCOV_BUDGET_SPLIT_UNIFORM;
  else if (strcmp(option, "split=adaptive") == 0) p->budget_split = DPCOV_BUDGET_SPLIT_ADAPTIVE;
  else if (strncmp(option, "beta=", 5) == 0) p->beta = strtod(option + 5, NULL);
  else if (strncmp(option, "rank=", 5) == 0) p->rank = strtoll(option + 5, NULL, 10);
  else if (strncmp(option, "r=", 2) == 0) p->projection_rows = strtoll(option + 2, NULL, 10);
  else if (strncmp(option, "m=", 2) == 0) p->posterior_dof = strtoll(option + 2, NULL, 10);
  else return 0;
  return 1;
}

int main(void) {
  char line[1024];
  while (fgets(line, sizeof line, stdin) != NULL) {
    char *tokens[16];
    int count = 0, i;
    char *token = strtok(line, " \t\r\n");
    dpcov_mechanism_params params;
    dpcov_receipt r;
    dpcov_status status;
    int mechanism;
    double rho = 0.0;
    int exact = 0;
    dpcov_exact_grid grid;
    char clip_upper[32];
    while (token != NULL && count < 16) {
      tokens[count++] = token;
      token = strtok(NULL, " \t\r\n");
    }
    if (count == 0) continue;
    if (count < 6) {
      fprintf(stderr, "plan_receipts: need at least 6 fields, got %d\n", count);
      return 2;
    }
    mechanism = mechanism_from(tokens[0]);
    dpcov_mechanism_params_default(&params);
    for (i = 6; i < count; ++i)
      if (strncmp(tokens[i], "rho=", 4) == 0) rho = strtod(tokens[i] + 4, NULL);
      else if (strcmp(tokens[i], "exact=1") == 0) exact = 1;
      else if (!apply_option(&params, tokens[i])) {
        fprintf(stderr, "plan_receipts: unknown option %s\n", tokens[i]);
        return 2;
      }
    memset(&r, 0, sizeof r);
    r.struct_size = sizeof r;
    memset(&grid, 0, sizeof grid);
    grid.struct_size = sizeof grid;
    if (exact)
      status = dpcov_exact_plan(mechanism, strtoll(tokens[1], NULL, 10),
                                strtoll(tokens[2], NULL, 10), strtod(tokens[3], NULL),
                                strtod(tokens[4], NULL), strtod(tokens[5], NULL), &params, &r,
                                &grid);
    else if (rho != 0.0)
      status = dpcov_private_glasso_plan(mechanism, strtoll(tokens[1], NULL, 10),
                                         strtoll(tokens[2], NULL, 10), strtod(tokens[3], NULL),
                                         strtod(tokens[4], NULL), strtod(tokens[5], NULL), &params,
                                         rho, &r);
    else
      status = dpcov_mechanism_plan(mechanism, strtoll(tokens[1], NULL, 10),
                                    strtoll(tokens[2], NULL, 10), strtod(tokens[3], NULL),
                                    strtod(tokens[4], NULL), strtod(tokens[5], NULL), &params, &r);
    if (status != DPCOV_OK) {
      printf("{\"status\": \"%s\", \"message\": \"%s\"}\n", dpcov_status_string(status),
             dpcov_last_error_message());
      continue;
    }
    /* JSON has no infinity; Python's json module reads the token Infinity. */
    if (isinf(r.clip_upper)) strcpy(clip_upper, "Infinity");
    else sprintf(clip_upper, "%.17g", r.clip_upper);
    printf("{\"status\": \"DPCOV_OK\", \"mechanism\": \"%s\", \"neighbour\": %d, "
           "\"calibration\": %d, \"not_dp\": %d, \"seed_fixed\": %d, \"sensitivity_norm\": %d, "
           "\"lambda_min_scope\": %d, \"dim\": %lld, \"n\": %lld, \"bound\": %.17g, "
           "\"epsilon\": %.17g, \"delta\": %.17g, \"sensitivity\": %.17g, \"sigma\": %.17g, "
           "\"scale\": %.17g, \"dof\": %.17g, \"lambda_min_bound\": %.17g, \"theorem\": \"%s\", "
           "\"epsilon_eigenvalues\": %.17g, \"epsilon_step\": %.17g, \"budget_split\": %d, "
           "\"rank\": %lld, \"beta\": %.17g, \"tau\": %.17g, \"exponent_factor\": %.17g, "
           "\"clip_upper\": %s, \"projection_rows\": %lld, \"threshold_w2\": %.17g, "
           "\"appended_w\": %.17g, \"test_epsilon\": %.17g, \"test_delta\": %.17g, "
           "\"test_scale\": %.17g, \"test_shift\": %.17g, \"glasso_rho\": %.17g, "
           "\"bits\": %d, \"noise_law\": %d, \"unit\": %.17g, \"norm2_bound\": %lld, "
           "\"noise_parameter\": %llu}\n",
           dpcov_mechanism_name(r.mechanism), (int)r.neighbour, (int)r.calibration,
           (int)r.not_dp, (int)r.seed_fixed, (int)r.sensitivity_norm, (int)r.lambda_min_scope,
           (long long)r.dim, (long long)r.n, r.bound, r.epsilon, r.delta, r.sensitivity, r.sigma,
           r.scale, r.dof, r.lambda_min_bound, r.theorem, r.epsilon_eigenvalues, r.epsilon_step,
           (int)r.budget_split, (long long)r.rank, r.beta, r.tau, r.exponent_factor,
           clip_upper, (long long)r.projection_rows, r.threshold_w2, r.appended_w,
           r.test_epsilon, r.test_delta, r.test_scale, r.test_shift, r.glasso_rho, (int)grid.bits,
           (int)grid.noise_law, grid.unit, (long long)grid.norm2_bound,
           (unsigned long long)grid.noise_parameter);
  }
  return 0;
}
