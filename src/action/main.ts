import * as core from '@actions/core';

/** The action's entry: parse inputs → run the engine per package → report → outputs. */
export async function run(): Promise<void> {
  try {
    const mode = core.getInput('mode') || 'auto';
    core.info(`kpt-live-action: mode ${mode}`);
  } catch (err) {
    core.setFailed(err instanceof Error ? err.message : String(err));
  }
}
