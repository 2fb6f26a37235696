/**
 * Plots for the command line, one module per kind: trajectories (plot-trajectory.ts), sweeps
 * and histograms (plot-xy.ts), on what they share (plot-render.ts: vega, style, files); the
 * bounded reductions that feed them are plot-reduce.ts.
 */
export { PLOT_EXTENSIONS } from './out-file.js';
export { writePlot, type PlotLook } from './plot-render.js';
export {
  renderTrajectoryHtml,
  renderTrajectoryPlot,
  scaleGroups,
  timeWindow,
  windowOf,
  type TrajectoryPlotInput,
} from './plot-trajectory.js';
export { niceBins, renderHistogram, renderXYPlot, type HistogramInput, type XYPlotInput } from './plot-xy.js';
