import { current } from '../fields.js';
import type { KindRule } from '../status-options.js';

/**
 * policy/PodDisruptionBudget, cli-utils `pdbConditions`: once the generic observedGeneration check has
 * passed, the disruption controller has computed the allowed disruptions; it sets no failure condition.
 */
export const pdbStatus: KindRule = () => current('AllowedDisruptions has been computed.');
