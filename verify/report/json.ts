// The run as JSON, ids exact.
import { stringifyJson } from '../../core/stringify-json.js';
import type { RunReport } from './run-report.js';
/** The report as JSON text (ids exact), with the exit code it ends with. */
export function toJson(report: RunReport): string {
  return `${stringifyJson(report)}\n`;
}
