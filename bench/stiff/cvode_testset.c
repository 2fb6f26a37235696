/* CVODE BDF on the five stiff problems of the Test Set for IVP solvers (Mazzia and
 * Magherini, Bari): ROBER, HIRES, OREGO, VDPOL (mu = 1000, the Test Set's scaled form), POLLU,
 * over their Test Set ranges, for bench/stiff/testset.mjs.
 *
 * Build (testset.mjs does it):
 *   gcc -O2 -o bench/stiff/build/cvode_testset bench/stiff/cvode_testset.c \
 *     -lsundials_cvode -lsundials_nvecserial -lm
 * Usage:
 *   cvode_testset --rtol R --atol A --problem P --repeats N --warmup W
 * prints one JSON object: the wall and CPU times of the N timed runs in ms (after W untimed
 * ones; the CPU time of the process, CLOCK_PROCESS_CPUTIME_ID, as Node's process.cpuUsage
 * gives deltastep's), CVODE's counters of the last run (steps, f evaluations, Jacobians,
 * linear solver set-ups: each one an LU of I − γJ, error test failures, Newton iterations and
 * convergence failures) and its final state.
 *
 * Setting, as CVODE is meant to be used on stiff problems: CV_BDF (orders 1 to 5), Newton
 * iteration with the dense direct linear solver (SUNDIALS' LU) and the analytic Jacobian,
 * scalar tolerances, CVodeSetStopTime at the end of the range (so it lands there, as
 * deltastep does) and one CVode call to it. Each run creates and frees its solver, as each
 * deltastep run creates its Simulator; the problem's right-hand side is plain C.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_types.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#define IJ(J, i, j) SM_ELEMENT_D(J, i, j)

typedef struct {
  const char *name;
  int n;
  double t1;
  const double *y0;
  CVRhsFn f;
  CVLsJacFn jac;
} Problem;

/* ---------------------------------------------------------------- ROBER */
static int rober_f(realtype t, N_Vector yv, N_Vector dv, void *ud) {
  const double *y = N_VGetArrayPointer(yv);
  double *d = N_VGetArrayPointer(dv);
  d[0] = -0.04 * y[0] + 1e4 * y[1] * y[2];
  d[2] = 3e7 * y[1] * y[1];
  d[1] = -d[0] - d[2];
  return 0;
}
static int rober_jac(realtype t, N_Vector yv, N_Vector fy, SUNMatrix J, void *ud, N_Vector a, N_Vector b,
                     N_Vector c) {
  const double *y = N_VGetArrayPointer(yv);
  IJ(J, 0, 0) = -0.04;
  IJ(J, 0, 1) = 1e4 * y[2];
  IJ(J, 0, 2) = 1e4 * y[1];
  IJ(J, 1, 0) = 0.04;
  IJ(J, 1, 1) = -1e4 * y[2] - 6e7 * y[1];
  IJ(J, 1, 2) = -1e4 * y[1];
  IJ(J, 2, 0) = 0;
  IJ(J, 2, 1) = 6e7 * y[1];
  IJ(J, 2, 2) = 0;
  return 0;
}
static const double rober_y0[] = {1, 0, 0};

/* ---------------------------------------------------------------- HIRES */
static int hires_f(realtype t, N_Vector yv, N_Vector dv, void *ud) {
  const double *y = N_VGetArrayPointer(yv);
  double *d = N_VGetArrayPointer(dv);
  d[0] = -1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007;
  d[1] = 1.71 * y[0] - 8.75 * y[1];
  d[2] = -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4];
  d[3] = 8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3];
  d[4] = -1.745 * y[4] + 0.43 * (y[5] + y[6]);
  d[5] = -280 * y[5] * y[7] + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6];
  d[6] = 280 * y[5] * y[7] - 1.81 * y[6];
  d[7] = -280 * y[5] * y[7] + 1.81 * y[6];
  return 0;
}
static int hires_jac(realtype t, N_Vector yv, N_Vector fy, SUNMatrix J, void *ud, N_Vector a, N_Vector b,
                     N_Vector c) {
  const double *y = N_VGetArrayPointer(yv);
  SUNMatZero(J);
  IJ(J, 0, 0) = -1.71;
  IJ(J, 0, 1) = 0.43;
  IJ(J, 0, 2) = 8.32;
  IJ(J, 1, 0) = 1.71;
  IJ(J, 1, 1) = -8.75;
  IJ(J, 2, 2) = -10.03;
  IJ(J, 2, 3) = 0.43;
  IJ(J, 2, 4) = 0.035;
  IJ(J, 3, 1) = 8.32;
  IJ(J, 3, 2) = 1.71;
  IJ(J, 3, 3) = -1.12;
  IJ(J, 4, 4) = -1.745;
  IJ(J, 4, 5) = 0.43;
  IJ(J, 4, 6) = 0.43;
  IJ(J, 5, 3) = 0.69;
  IJ(J, 5, 4) = 1.71;
  IJ(J, 5, 5) = -280 * y[7] - 0.43;
  IJ(J, 5, 6) = 0.69;
  IJ(J, 5, 7) = -280 * y[5];
  IJ(J, 6, 5) = 280 * y[7];
  IJ(J, 6, 6) = -1.81;
  IJ(J, 6, 7) = 280 * y[5];
  IJ(J, 7, 5) = -280 * y[7];
  IJ(J, 7, 6) = 1.81;
  IJ(J, 7, 7) = -280 * y[5];
  return 0;
}
static const double hires_y0[] = {1, 0, 0, 0, 0, 0, 0, 0.0057};

/* ---------------------------------------------------------------- OREGO */
static int orego_f(realtype t, N_Vector yv, N_Vector dv, void *ud) {
  const double *y = N_VGetArrayPointer(yv);
  double *d = N_VGetArrayPointer(dv);
  d[0] = 77.27 * (y[1] + y[0] * (1 - 8.375e-6 * y[0] - y[1]));
  d[1] = (y[2] - (1 + y[0]) * y[1]) / 77.27;
  d[2] = 0.161 * (y[0] - y[2]);
  return 0;
}
static int orego_jac(realtype t, N_Vector yv, N_Vector fy, SUNMatrix J, void *ud, N_Vector a, N_Vector b,
                     N_Vector c) {
  const double *y = N_VGetArrayPointer(yv);
  IJ(J, 0, 0) = 77.27 * (1 - 2 * 8.375e-6 * y[0] - y[1]);
  IJ(J, 0, 1) = 77.27 * (1 - y[0]);
  IJ(J, 0, 2) = 0;
  IJ(J, 1, 0) = -y[1] / 77.27;
  IJ(J, 1, 1) = -(1 + y[0]) / 77.27;
  IJ(J, 1, 2) = 1 / 77.27;
  IJ(J, 2, 0) = 0.161;
  IJ(J, 2, 1) = 0;
  IJ(J, 2, 2) = -0.161;
  return 0;
}
static const double orego_y0[] = {1, 2, 3};

/* ---------------------------------------------------------------- VDPOL (eps = 1e-6) */
static const double EPS = 1e-6;
static int vdpol_f(realtype t, N_Vector yv, N_Vector dv, void *ud) {
  const double *y = N_VGetArrayPointer(yv);
  double *d = N_VGetArrayPointer(dv);
  d[0] = y[1];
  d[1] = ((1 - y[0] * y[0]) * y[1] - y[0]) / EPS;
  return 0;
}
static int vdpol_jac(realtype t, N_Vector yv, N_Vector fy, SUNMatrix J, void *ud, N_Vector a, N_Vector b,
                     N_Vector c) {
  const double *y = N_VGetArrayPointer(yv);
  IJ(J, 0, 0) = 0;
  IJ(J, 0, 1) = 1;
  IJ(J, 1, 0) = (-2 * y[0] * y[1] - 1) / EPS;
  IJ(J, 1, 1) = (1 - y[0] * y[0]) / EPS;
  return 0;
}
static const double vdpol_y0[] = {2, 0};

/* ---------------------------------------------------------------- POLLU
 * 25 reactions r_k = k_k·y_a (·y_b); the right-hand side is Σ_k S_ik r_k with the
 * stoichiometry below (species numbered from 0), written out from the Test Set's pollu.f. */
static const double pk[25] = {0.35,   26.6,   1.23e4, 8.6e-4, 8.2e-4, 1.5e4,   1.3e-4, 2.4e4, 1.65e4,
                              9e3,    0.022,  1.2e4,  1.88,   1.63e4, 4.8e6,   3.5e-4, 0.0175, 1e8,
                              4.44e11, 1.24e3, 2.1,   5.78,   0.0474, 1.78e3,  3.12};
/* reactants (a, b), b = -1 for a first-order reaction */
static const int pa[25] = {0, 1, 4, 6, 6, 6, 8, 8, 10, 10, 12, 9, 13, 0, 2, 3, 3, 15, 15, 16, 18, 18, 0, 18, 19};
static const int pb[25] = {-1, 3, 1, -1, -1, 5, -1, 5, 1, 0, -1, 1, -1, 5, -1, -1, -1, -1, -1, 5, -1, -1, 3, 0, -1};
/* stoichiometry: per reaction, up to 5 (species, coefficient) pairs, species -1 ends */
static const int ps[25][5] = {
    {0, 1, 2, -1}, {0, 1, 3, -1},   {0, 1, 4, 5, -1}, {4, 6, 7, -1},      {6, 7, -1},
    {4, 5, 6, 7, -1}, {4, 7, 8, 9, -1}, {5, 8, 10, -1}, {0, 1, 9, 10, 11}, {0, 10, 12, -1},
    {0, 10, 12, -1}, {0, 1, 9, 13, -1}, {4, 6, 13, -1}, {0, 5, 14, -1},    {2, 3, -1},
    {3, 15, -1},     {2, 3, -1},       {5, 15, -1},     {2, 15, -1},       {4, 5, 16, 17, -1},
    {1, 18, -1},     {0, 2, 18, -1},   {0, 3, 18, -1},  {0, 18, 19, -1},   {0, 18, 19, -1}};
static const double pc[25][5] = {
    {-1, 1, 1},      {1, -1, -1},     {1, -1, -1, 1},  {2, -1, 1},      {-1, 1},
    {1, -1, -1, 1},  {1, 1, -1, 1},   {-1, -1, 1},     {1, -1, 1, -1, 1}, {-1, -1, 1},
    {1, 1, -1},      {1, -1, -1, 1},  {1, 1, -1},      {-1, -1, 1},     {-1, 1},
    {-1, 1},         {1, -1},         {2, -1},         {1, -1},         {1, -1, -1, 1},
    {1, -1},         {1, 1, -1},      {-1, -1, 1},     {-1, -1, 1},     {1, 1, -1}};

static int pollu_f(realtype t, N_Vector yv, N_Vector dv, void *ud) {
  const double *y = N_VGetArrayPointer(yv);
  double *d = N_VGetArrayPointer(dv);
  for (int i = 0; i < 20; i++) d[i] = 0;
  for (int k = 0; k < 25; k++) {
    const double r = pk[k] * y[pa[k]] * (pb[k] >= 0 ? y[pb[k]] : 1.0);
    for (int m = 0; m < 5 && ps[k][m] >= 0; m++) d[ps[k][m]] += pc[k][m] * r;
  }
  return 0;
}
static int pollu_jac(realtype t, N_Vector yv, N_Vector fy, SUNMatrix J, void *ud, N_Vector a, N_Vector b,
                     N_Vector c) {
  const double *y = N_VGetArrayPointer(yv);
  SUNMatZero(J);
  for (int k = 0; k < 25; k++) {
    const int ia = pa[k], ib = pb[k];
    const double da = pk[k] * (ib >= 0 ? y[ib] : 1.0); /* dr/dy_a */
    const double db = ib >= 0 ? pk[k] * y[ia] : 0.0;   /* dr/dy_b */
    for (int m = 0; m < 5 && ps[k][m] >= 0; m++) {
      const int i = ps[k][m];
      IJ(J, i, ia) += pc[k][m] * da;
      if (ib >= 0) IJ(J, i, ib) += pc[k][m] * db;
    }
  }
  return 0;
}
static const double pollu_y0[20] = {0, 0.2, 0, 0.04, 0, 0, 0.1, 0.3, 0.01, 0, 0, 0, 0, 0, 0, 0, 0.007, 0, 0, 0};

static const Problem PROBLEMS[] = {
    {"rober", 3, 1e11, rober_y0, rober_f, rober_jac},
    {"hires", 8, 321.8122, hires_y0, hires_f, hires_jac},
    {"orego", 3, 360, orego_y0, orego_f, orego_jac},
    {"vdpol", 2, 2, vdpol_y0, vdpol_f, vdpol_jac},
    {"pollu", 20, 60, pollu_y0, pollu_f, pollu_jac},
};

static double clock_ms(clockid_t clock) {
  struct timespec ts;
  clock_gettime(clock, &ts);
  return 1e3 * ts.tv_sec + 1e-6 * ts.tv_nsec;
}

typedef struct {
  int ok;
  long nst, nfe, nje, nsetups, netf, nni, ncfn;
  double y[20];
} Outcome;

static void run(const Problem *p, double rtol, double atol, SUNContext ctx, Outcome *out) {
  const int n = p->n;
  N_Vector y = N_VNew_Serial(n, ctx);
  double *yd = N_VGetArrayPointer(y);
  for (int i = 0; i < n; i++) yd[i] = p->y0[i];
  void *mem = CVodeCreate(CV_BDF, ctx);
  CVodeInit(mem, p->f, 0.0, y);
  CVodeSStolerances(mem, rtol, atol);
  CVodeSetMaxNumSteps(mem, 10000000);
  CVodeSetStopTime(mem, p->t1);
  SUNMatrix A = SUNDenseMatrix(n, n, ctx);
  SUNLinearSolver LS = SUNLinSol_Dense(y, A, ctx);
  CVodeSetLinearSolver(mem, LS, A);
  CVodeSetJacFn(mem, p->jac);
  double t = 0;
  int flag = CVode(mem, p->t1, y, &t, CV_NORMAL);
  out->ok = flag >= 0 && t == p->t1;
  CVodeGetNumSteps(mem, &out->nst);
  CVodeGetNumRhsEvals(mem, &out->nfe);
  CVodeGetNumJacEvals(mem, &out->nje);
  CVodeGetNumLinSolvSetups(mem, &out->nsetups);
  CVodeGetNumErrTestFails(mem, &out->netf);
  CVodeGetNumNonlinSolvIters(mem, &out->nni);
  CVodeGetNumNonlinSolvConvFails(mem, &out->ncfn);
  for (int i = 0; i < n; i++) out->y[i] = yd[i];
  CVodeFree(&mem);
  SUNLinSolFree(LS);
  SUNMatDestroy(A);
  N_VDestroy(y);
}

int main(int argc, char **argv) {
  double rtol = 1e-6, atol = 1e-10;
  int repeats = 20, warmup = 3;
  const char *name = "rober";
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!strcmp(argv[i], "--rtol")) rtol = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--atol")) atol = atof(argv[i + 1]);
    else if (!strcmp(argv[i], "--problem")) name = argv[i + 1];
    else if (!strcmp(argv[i], "--repeats")) repeats = atoi(argv[i + 1]);
    else if (!strcmp(argv[i], "--warmup")) warmup = atoi(argv[i + 1]);
    else {
      fprintf(stderr, "cvode_testset: unknown argument %s\n", argv[i]);
      return 2;
    }
  }
  const Problem *p = NULL;
  for (size_t k = 0; k < sizeof PROBLEMS / sizeof PROBLEMS[0]; k++)
    if (!strcmp(PROBLEMS[k].name, name)) p = &PROBLEMS[k];
  if (!p) {
    fprintf(stderr, "cvode_testset: unknown problem %s (rober, hires, orego, vdpol, pollu)\n", name);
    return 2;
  }
  SUNContext ctx;
  SUNContext_Create(NULL, &ctx);
  Outcome o;
  for (int k = 0; k < warmup; k++) run(p, rtol, atol, ctx, &o);
  /* (printed after the runs, so that printing is not timed) */
  const int slots = repeats > 0 ? repeats : 1;
  double *wall = malloc(sizeof(double) * slots), *cpu = malloc(sizeof(double) * slots);
  for (int k = 0; k < repeats; k++) {
    const double t0 = clock_ms(CLOCK_MONOTONIC), c0 = clock_ms(CLOCK_PROCESS_CPUTIME_ID);
    run(p, rtol, atol, ctx, &o);
    wall[k] = clock_ms(CLOCK_MONOTONIC) - t0;
    cpu[k] = clock_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
  }
  printf("{\"tool\":\"cvode.bdf\",\"problem\":\"%s\",\"rtol\":%g,\"atol\":%g,\"ms\":[", p->name, rtol, atol);
  for (int k = 0; k < repeats; k++) printf("%s%.6f", k ? "," : "", wall[k]);
  printf("],\"cpu\":[");
  for (int k = 0; k < repeats; k++) printf("%s%.6f", k ? "," : "", cpu[k]);
  free(wall);
  free(cpu);
  printf("],\"ok\":%s,\"steps\":%ld,\"rhs\":%ld,\"jac\":%ld,\"lsetups\":%ld,\"errfails\":%ld,\"newton\":%ld,"
         "\"convfails\":%ld,\"y\":[",
         o.ok ? "true" : "false", o.nst, o.nfe, o.nje, o.nsetups, o.netf, o.nni, o.ncfn);
  for (int i = 0; i < p->n; i++) printf("%s%.17g", i ? "," : "", o.y[i]);
  printf("]}\n");
  SUNContext_Free(&ctx);
  return 0;
}
