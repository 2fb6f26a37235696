"""SciPy on Robertson [0, 1e5], rtol 1e-6 (atol 1e-10), analytic Jacobian: median wall time of 20 runs."""
import time
from statistics import median
from scipy.integrate import solve_ivp


def f(t, y):
    return [-0.04 * y[0] + 1e4 * y[1] * y[2], 0.04 * y[0] - 1e4 * y[1] * y[2] - 3e7 * y[1] ** 2, 3e7 * y[1] ** 2]


def jac(t, y):
    return [[-0.04, 1e4 * y[2], 1e4 * y[1]],
            [0.04, -1e4 * y[2] - 6e7 * y[1], -1e4 * y[1]],
            [0.0, 6e7 * y[1], 0.0]]


for method in ('LSODA', 'Radau', 'BDF'):
    times = []
    for _ in range(20):
        t0 = time.perf_counter()
        s = solve_ivp(f, (0, 1e5), [1.0, 0.0, 0.0], method=method, rtol=1e-6, atol=1e-10, jac=jac)
        times.append(time.perf_counter() - t0)
    print(f'{method:6s} {median(times) * 1e3:7.2f} ms  nfev {s.nfev:5d}  y1 {s.y[0, -1]:.10g}  y3 {s.y[2, -1]:.10g}')
