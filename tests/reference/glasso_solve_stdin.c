/* Reads graphical-lasso problems from standard input and prints dpcov_glasso_solve's solutions,
 * for the scikit-learn comparison in glasso_sklearn.py. Input, per problem: d rho
 * penalize_diagonal tol, then the d x d matrix S row by row. Output, per problem: the status, then
 * Theta row by row (17 significant digits), or the error message. */
#include <dpcov.h>

#include <stdio.h>
#include <stdlib.h>

int main(void) {
  long d;
  double rho, tol;
  int penalize;
  while (scanf("%ld %lf %d %lf", &d, &rho, &penalize, &tol) == 4) {
    double *s = malloc(sizeof(double) * (size_t)(d * d));
    double *theta = malloc(sizeof(double) * (size_t)(d * d));
    dpcov_glasso_params params;
    dpcov_status status;
    long i;
    if (s == NULL || theta == NULL) return 2;
    for (i = 0; i < d * d; ++i)
      if (scanf("%lf", &s[i]) != 1) return 2;
    dpcov_glasso_params_default(&params);
    params.penalize_diagonal = penalize;
    params.tol = tol;
    params.max_iter = 10000;
    status = dpcov_glasso_solve(DPCOV_ROW_MAJOR, d, s, d, rho, &params, NULL, 0, theta, d, NULL, 0,
                                NULL);
    printf("%d\n", (int)status);
    if (status == DPCOV_OK)
      for (i = 0; i < d * d; ++i) printf("%.17g%c", theta[i], (i + 1) % d == 0 ? '\n' : ' ');
    else
      printf("%s\n", dpcov_last_error_message());
    free(s);
    free(theta);
  }
  return 0;
}
