export { buildDependencyGraph, type DependencyGraph, type PlanEdge } from './dependency-graph.js';
export {
  cyclicDependencyMessage,
  duplicateDependencyMessage,
  externalDependencyMessage,
  formatPlanErrors,
  invalidAnnotationMessage,
  type PlanError,
} from './errors.js';
export { formatPlan } from './format-plan.js';
export { compareForApply, kindOrderIndex } from './kind-order.js';
export { buildPlan, dependenciesOf, dependentsOf, type Plan, type PlanInput, waveIndexOf } from './plan.js';
export {
  type Task,
  type TaskAction,
  type TaskList,
  taskList,
  taskName,
  type WaveTasks,
} from './task-list.js';
export { type Layering, layerGraph, reverseWaves, selectWaves } from './waves.js';
