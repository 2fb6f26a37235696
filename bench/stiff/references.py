"""References for the stiff workloads of bench/stiff (issue #16); writes references.json.

- Van der Pol mu = 1000 on [0, 3000] from (2, 0): SciPy Radau at rtol 1e-12, atol 1e-14
  (and at rtol 1e-11 to show the digits that agree).
- Two-compartment bolus model: exact, c(t) = expm(A (t - t_k)) (c(t_k-) + D/V e1) between
  doses at t_k = 12 k, with scipy.linalg.expm. Values at t = 240 just before the dose there
  (doses at 0, 12, ..., 228) and just after it.
Run: python3 bench/stiff/references.py
"""
import json
import numpy as np
from scipy.integrate import solve_ivp
from scipy.linalg import expm


def vdp(mu):
    def f(t, y):
        return [y[1], mu * (1 - y[0] ** 2) * y[1] - y[0]]

    def jac(t, y):
        return [[0.0, 1.0], [-2 * mu * y[0] * y[1] - 1, mu * (1 - y[0] ** 2)]]

    return f, jac


def vdp_reference():
    f, jac = vdp(1000.0)
    out = {}
    for rtol in (1e-11, 1e-12):
        s = solve_ivp(f, (0, 3000), [2.0, 0.0], method='Radau', rtol=rtol, atol=rtol * 1e-2, jac=jac)
        out[str(rtol)] = [float(v) for v in s.y[:, -1]]
    return out


def drug_reference():
    D, V, k10, k12, k21 = 100.0, 10.0, 0.2, 5000.0, 1000.0
    A = np.array([[-(k10 + k12), k21], [k12, -k21]])
    step = expm(A * 12.0)
    c = np.zeros(2)
    for _ in range(20):          # doses at 0, 12, ..., 228, then 12 h of decay to t = 240
        c = step @ (c + np.array([D / V, 0.0]))
    before = c.copy()
    after = c + np.array([D / V, 0.0])
    # one intermediate instant as a further check: t = 6 (half way after the first dose)
    c6 = expm(A * 6.0) @ np.array([D / V, 0.0])
    return {'t240_before_dose': before.tolist(), 't240_after_dose': after.tolist(), 't6': c6.tolist()}


if __name__ == '__main__':
    refs = {
        'robertson_t1e5': [0.0178659211423, 7.27475146853e-8, 0.982134006110],
        'vdp1000_t3000': vdp_reference(),
        'drug': drug_reference(),
    }
    with open(__file__.replace('references.py', 'references.json'), 'w') as fh:
        json.dump(refs, fh, indent=2)
    print(json.dumps(refs, indent=2))
