#!/usr/bin/env python3
"""The spike train of examples/lif_network.delta, computed independently, event by event, in
50-digit arithmetic (mpmath). Writes tests/fixtures/lif_network_reference.json, which
tests/lif-network.test.ts compares with both of deltastep's paths; the tests never run this.

Run: python3 bench/lif/reference.py [--N 50] [--w 0.005] [--d 2] [--T 200] [--out FILE]

The model: N neurons, v_i' = (-v_i + I_i)/tau between events, I_i = 1.1 + 0.4 (i - 1)/(N - 1)
(the doubles deltastep computes, taken exactly), v_i(0) = 0. A spike of neuron j (v_j reaches
vth from below) resets v_j to vr and, d later, moves every neuron's v by w (its own too).

Between events each membrane has its closed form v(t) = I + (v0 - I) exp(-(t - t0)/tau), and
the threshold is reached at t0 + tau ln((v0 - I)/(vth - I)) when I > vth > v0. The next
event is the earliest of these crossings and of the pending arrivals (which come in the order
of the spikes that sent them: one delay for all). At an arrival instant every arrival there
is added at once (they read the values before the instant, as deltastep's events do), and a
neuron the arrivals lift over the threshold fires at that instant (deltastep's event
iteration). Nothing is rounded to doubles until the times are written.

The fixture also records how close the run came to a decision the arithmetic of a double
stepper could get wrong: the smallest distance of a membrane from the threshold at an arrival
(before and after the arrivals), relative to the threshold. A numeric run agrees spike for
spike only while its error in v stays below that.
"""
import argparse, json, os
from mpmath import mp, mpf, exp, log

mp.dps = 50
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def network(N, tau, vth, vr, w, d, T):
    # the parameters as deltastep's doubles: 1.1 + 0.4*(i - 1)/(N - 1), evaluated as written
    I_double = [1.1 + 0.4 * (i - 1) / (N - 1) for i in range(1, N + 1)]
    I = [mpf(x) for x in I_double]
    tau, vth, vr, w, d, T = (mpf(x) for x in (tau, vth, vr, w, d, T))
    t0 = [mpf(0)] * N  # each neuron's own clock: v[i] is its value at t0[i]
    v = [mpf(0)] * N
    pending = []  # arrivals (time, source), in time order
    head = 0
    spikes = []  # (time, neuron), neurons 1-based, in the order deltastep fires them
    margin = mpf("inf")

    def at(i, t):
        return I[i] + (v[i] - I[i]) * exp(-(t - t0[i]) / tau)

    def crossing(i):
        if not (I[i] > vth and v[i] < vth):
            return mpf("inf")
        return t0[i] + tau * log((v[i] - I[i]) / (vth - I[i]))

    def fire(i, t):
        v[i], t0[i] = vr, t
        spikes.append((t, i + 1))
        pending.append((t + d, i))

    cross = [crossing(i) for i in range(N)]
    while True:
        i_min = min(range(N), key=lambda i: cross[i])
        t_cross = cross[i_min]
        t_arrive = pending[head][0] if head < len(pending) else mpf("inf")
        t = min(t_cross, t_arrive)
        if t > T:
            break
        if t_cross < t_arrive:
            fire(i_min, t)
            cross[i_min] = crossing(i_min)
            continue
        # every arrival at this instant, added at once (left limits), then the neurons lifted over vth fire
        count = [0] * N
        while head < len(pending) and pending[head][0] == t:
            src = pending[head][1]
            head += 1
            for i in range(N):
                count[i] += 1
        lifted = []
        for i in range(N):
            if count[i] == 0:
                continue
            before = at(i, t)
            after = before + w * count[i]
            margin = min(margin, abs(before - vth) / vth, abs(after - vth) / vth)
            v[i], t0[i] = after, t
            if after > vth:
                lifted.append(i)
        # (in file order, as deltastep's event iteration fires them)
        for i in lifted:
            fire(i, t)
        for i in range(N):
            if count[i] > 0:
                cross[i] = crossing(i)
    final_v = [at(i, T) for i in range(N)]
    return I_double, spikes, margin, final_v


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--N", type=int, default=50)
    ap.add_argument("--w", type=float, default=0.005)
    ap.add_argument("--d", type=float, default=2.0)
    ap.add_argument("--T", type=float, default=200.0)
    ap.add_argument("--out", default=os.path.join(ROOT, "tests", "fixtures", "lif_network_reference.json"))
    a = ap.parse_args()
    tau, vth, vr = 10.0, 1.0, 0.0
    I, spikes, margin, final_v = network(a.N, tau, vth, vr, a.w, a.d, a.T)
    instants = len({t for t, _ in spikes})
    out = {
        "model": "examples/lif_network.delta",
        "script": "bench/lif/reference.py",
        "parameters": {"N": a.N, "tau": tau, "vth": vth, "vr": vr, "w": a.w, "d": a.d, "T": a.T},
        "I": I,
        "spike_times": [float(t) for t, _ in spikes],
        "spike_neurons": [i for _, i in spikes],
        "spike_instants": instants,
        "threshold_margin": float(margin),
        "final_v": [float(x) for x in final_v],
    }
    with open(a.out, "w") as f:
        json.dump(out, f, indent=None, separators=(",", ":"))
        f.write("\n")
    print(f"{len(spikes)} spikes at {instants} instants; threshold margin {float(margin):.3g}; wrote {a.out}")


if __name__ == "__main__":
    main()
