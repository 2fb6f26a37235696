#!/bin/sh
# Regenerates the plots of examples/README.md with the command line's --plot.
# Run from the project root after `npm run build`:  sh examples/plots/regenerate.sh
set -u
d="node dist/cli.js"
P=examples/plots
run() { echo "$*"; "$@" >/dev/null; }
run $d simulate examples/rope.delta --set p1=-1.1106615486105161 --set H=8.186919493913407 --variables y --step 0.1 --plot $P/rope.svg
run $d shoot examples/rope_no_load.delta --step 0.25 --plot $P/rope_no_load.svg
run $d simulate examples/two_masses.delta --variables x1,x2 --plot $P/two_masses.svg
run $d simulate examples/two_masses_plastic.delta --variables x1,x2 --plot $P/two_masses_plastic.svg
run $d simulate examples/two_masses_wall.delta --variables x1,x2 --to 45 --plot $P/two_masses_wall.svg
run $d simulate examples/bouncing_ball.delta --variables h --plot $P/bouncing_ball.svg        # exit code 4: zeno
run $d simulate examples/iderk_551.delta --step 0.05 --plot $P/iderk_551.svg
run $d simulate examples/iderk_552.delta --plot $P/iderk_552.svg
run $d simulate examples/iderk_552.delta --locate after --plot $P/iderk_552_after.svg
run $d simulate examples/iderk_kicks.delta --step 0.1 --plot $P/iderk_kicks.svg
run $d simulate examples/iderk_554.delta --step 0.05 --plot $P/iderk_554.svg
run $d simulate examples/c12_task_a.delta --to 30 --variables "x1',x2',x3',x4'" --plot $P/c12_task_a.svg
run $d sweep examples/c12_task_a.delta --vary e=1:0.18:200 --report n --quiet --plot $P/c12_task_b.svg
run $d montecarlo examples/c12_task_c.delta --sample "e~normal(0.5,0.05)" --samples 10000 --seed 1 --report "x4'" --quiet --plot $P/c12_task_c.svg
run $d simulate examples/hoop_drop.delta --variables h,Vy --step 0.01 --plot $P/hoop_drop.svg
run $d simulate examples/hoop_drop.delta --variables Fs --step 0.01 --plot $P/hoop_drop_force.svg
run $d simulate examples/hoop_roll.delta --variables h,Vx,Vy,omega --step 0.01 --plot $P/hoop_roll.svg
run $d simulate examples/hoop_roll.delta --variables Fs,Ff --to 0.6 --step 0.002 --plot $P/hoop_roll_forces.svg
run $d simulate bench/w5/row.delta --set N=1024 --variables "x[1],x[1024],hits" --events-only --plot $P/row1024.png   # W5: 6582 impacts, marked as a rug (PNG: the SVG of 13000 rows is 4 MB)
node examples/iderk_553_figure.mjs  # IDERKSolve 5.5.3: located beside the source's jumpsteps (iderk_553.svg)
node examples/c12_figures.mjs        # C12 task b: Figures 1-3 of the source (c12_fig*.svg)
node examples/hohmann_limits.mjs     # Hohmann 4.1/4.2: band -> point load, finite contact -> impulse (hohmann_*.svg)
