import { current } from '../fields.js';
import type { KindRule } from '../status-options.js';

/**
 * ConfigMap, Secret and batch/CronJob, cli-utils `alwaysReady`: nothing reconciles them into a state
 * worth waiting for, so they are Current as soon as they exist (the generic rules still apply first).
 */
export const alwaysReadyStatus: KindRule = () => current('Resource is always ready');
