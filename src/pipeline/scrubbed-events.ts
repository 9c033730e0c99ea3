import type { RunEvent, RunEventSink } from '../apply/events.js';
import { scrub } from '../preview/redact.js';

/**
 * The run's events with the package's Secret values taken out of every message (a server's refusal can
 * quote a value it was sent), before any front end prints or stores them.
 */
export function scrubbedEvents(emit: RunEventSink, secretValues: () => readonly string[]): RunEventSink {
  return (event: RunEvent) => {
    const values = secretValues();
    if (values.length === 0) return emit(event);
    if ('error' in event && event.error) return emit({ ...event, error: scrub(event.error, values) });
    if ('message' in event && event.message) return emit({ ...event, message: scrub(event.message, values) });
    emit(event);
  };
}
