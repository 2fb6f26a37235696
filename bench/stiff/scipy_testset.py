"""SciPy's stiff solvers on the Test Set problems of bench/stiff/testset.mjs.

  python3 bench/stiff/scipy_testset.py --problem hires --rtol 1e-10 --atol 1e-14 --repeats 3

solve_ivp with Radau, BDF and LSODA, the analytic Jacobian (a dense ndarray), first_step left
to SciPy, t_eval none: one JSON line per method with the wall and CPU times of the timed runs
(in ms, after one untimed run), SciPy's counters and the final state. The right-hand sides are
the Test Set's, written with plain floats (NumPy's per-call overhead on 2..20 components
would dominate otherwise); POLLU from the same reaction table as cvode_testset.c.
"""
import argparse
import json
import time

import numpy as np
from scipy.integrate import solve_ivp


def rober():
    def f(t, y):
        a = -0.04 * y[0] + 1e4 * y[1] * y[2]
        c = 3e7 * y[1] * y[1]
        return [a, -a - c, c]

    def jac(t, y):
        return np.array([[-0.04, 1e4 * y[2], 1e4 * y[1]],
                         [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
                         [0.0, 6e7 * y[1], 0.0]])

    return f, jac, [1.0, 0.0, 0.0], 1e11


def hires():
    def f(t, y):
        q = 280 * y[5] * y[7]
        return [-1.71 * y[0] + 0.43 * y[1] + 8.32 * y[2] + 0.0007,
                1.71 * y[0] - 8.75 * y[1],
                -10.03 * y[2] + 0.43 * y[3] + 0.035 * y[4],
                8.32 * y[1] + 1.71 * y[2] - 1.12 * y[3],
                -1.745 * y[4] + 0.43 * (y[5] + y[6]),
                -q + 0.69 * y[3] + 1.71 * y[4] - 0.43 * y[5] + 0.69 * y[6],
                q - 1.81 * y[6],
                -q + 1.81 * y[6]]

    def jac(t, y):
        J = np.zeros((8, 8))
        J[0, 0:3] = [-1.71, 0.43, 8.32]
        J[1, 0:2] = [1.71, -8.75]
        J[2, 2:5] = [-10.03, 0.43, 0.035]
        J[3, 1:4] = [8.32, 1.71, -1.12]
        J[4, 4:7] = [-1.745, 0.43, 0.43]
        J[5, 3:8] = [0.69, 1.71, -280 * y[7] - 0.43, 0.69, -280 * y[5]]
        J[6, 5:8] = [280 * y[7], -1.81, 280 * y[5]]
        J[7, 5:8] = [-280 * y[7], 1.81, -280 * y[5]]
        return J

    return f, jac, [1, 0, 0, 0, 0, 0, 0, 0.0057], 321.8122


def orego():
    def f(t, y):
        return [77.27 * (y[1] + y[0] * (1 - 8.375e-6 * y[0] - y[1])),
                (y[2] - (1 + y[0]) * y[1]) / 77.27,
                0.161 * (y[0] - y[2])]

    def jac(t, y):
        return np.array([[77.27 * (1 - 2 * 8.375e-6 * y[0] - y[1]), 77.27 * (1 - y[0]), 0.0],
                         [-y[1] / 77.27, -(1 + y[0]) / 77.27, 1 / 77.27],
                         [0.161, 0.0, -0.161]])

    return f, jac, [1.0, 2.0, 3.0], 360.0


def vdpol():
    eps = 1e-6

    def f(t, y):
        return [y[1], ((1 - y[0] * y[0]) * y[1] - y[0]) / eps]

    def jac(t, y):
        return np.array([[0.0, 1.0], [(-2 * y[0] * y[1] - 1) / eps, (1 - y[0] * y[0]) / eps]])

    return f, jac, [2.0, 0.0], 2.0


# POLLU: rate constants, reactants (b = -1: first order) and stoichiometry, species from 0
PK = [0.35, 26.6, 1.23e4, 8.6e-4, 8.2e-4, 1.5e4, 1.3e-4, 2.4e4, 1.65e4, 9e3, 0.022, 1.2e4, 1.88, 1.63e4,
      4.8e6, 3.5e-4, 0.0175, 1e8, 4.44e11, 1.24e3, 2.1, 5.78, 0.0474, 1.78e3, 3.12]
PA = [0, 1, 4, 6, 6, 6, 8, 8, 10, 10, 12, 9, 13, 0, 2, 3, 3, 15, 15, 16, 18, 18, 0, 18, 19]
PB = [-1, 3, 1, -1, -1, 5, -1, 5, 1, 0, -1, 1, -1, 5, -1, -1, -1, -1, -1, 5, -1, -1, 3, 0, -1]
PS = [{0: -1, 1: 1, 2: 1}, {0: 1, 1: -1, 3: -1}, {0: 1, 1: -1, 4: -1, 5: 1}, {4: 2, 6: -1, 7: 1},
      {6: -1, 7: 1}, {4: 1, 5: -1, 6: -1, 7: 1}, {4: 1, 7: 1, 8: -1, 9: 1}, {5: -1, 8: -1, 10: 1},
      {0: 1, 1: -1, 9: 1, 10: -1, 11: 1}, {0: -1, 10: -1, 12: 1}, {0: 1, 10: 1, 12: -1},
      {0: 1, 1: -1, 9: -1, 13: 1}, {4: 1, 6: 1, 13: -1}, {0: -1, 5: -1, 14: 1}, {2: -1, 3: 1},
      {3: -1, 15: 1}, {2: 1, 3: -1}, {5: 2, 15: -1}, {2: 1, 15: -1}, {4: 1, 5: -1, 16: -1, 17: 1},
      {1: 1, 18: -1}, {0: 1, 2: 1, 18: -1}, {0: -1, 3: -1, 18: 1}, {0: -1, 18: -1, 19: 1},
      {0: 1, 18: 1, 19: -1}]


def pollu():
    def f(t, y):
        d = [0.0] * 20
        for k in range(25):
            r = PK[k] * y[PA[k]] * (y[PB[k]] if PB[k] >= 0 else 1.0)
            for i, c in PS[k].items():
                d[i] += c * r
        return d

    def jac(t, y):
        J = np.zeros((20, 20))
        for k in range(25):
            a, b = PA[k], PB[k]
            da = PK[k] * (y[b] if b >= 0 else 1.0)
            for i, c in PS[k].items():
                J[i, a] += c * da
                if b >= 0:
                    J[i, b] += c * PK[k] * y[a]
        return J

    y0 = [0.0] * 20
    y0[1], y0[3], y0[6], y0[7], y0[8], y0[16] = 0.2, 0.04, 0.1, 0.3, 0.01, 0.007
    return f, jac, y0, 60.0


PROBLEMS = {'rober': rober, 'hires': hires, 'orego': orego, 'vdpol': vdpol, 'pollu': pollu}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--problem', required=True, choices=sorted(PROBLEMS))
    ap.add_argument('--rtol', type=float, required=True)
    ap.add_argument('--atol', type=float, required=True)
    ap.add_argument('--repeats', type=int, default=3)
    ap.add_argument('--methods', default='Radau,BDF,LSODA')
    a = ap.parse_args()
    f, jac, y0, t1 = PROBLEMS[a.problem]()
    for method in a.methods.split(','):
        times, cpu = [], []
        for k in range(a.repeats + 1):
            t0, c0 = time.perf_counter(), time.process_time()
            s = solve_ivp(f, (0.0, t1), y0, method=method, rtol=a.rtol, atol=a.atol, jac=jac)
            if k > 0:
                times.append((time.perf_counter() - t0) * 1e3)
                cpu.append((time.process_time() - c0) * 1e3)
        print(json.dumps({'tool': f'scipy.{method}', 'problem': a.problem, 'rtol': a.rtol, 'atol': a.atol,
                          'ms': times, 'cpu': cpu, 'ok': bool(s.success), 'steps': int(s.t.size - 1), 'rhs': int(s.nfev),
                          'jac': int(s.njev), 'lu': int(s.nlu), 'y': [float(v) for v in s.y[:, -1]],
                          'message': None if s.success else s.message}), flush=True)


if __name__ == '__main__':
    main()
