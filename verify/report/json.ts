// The run as JSON, ids exact.
import { printableJson } from '../../core/printable-json.js';
import { stringifyJson } from '../../core/stringify-json.js';
import type { RunReport } from '../run/run-report.js';
/** The report as JSON text (ids exact, every control character escaped), with the exit code it ends with. */
export function toJson(report: RunReport): string {
  return `${printableJson(stringifyJson(report))}\n`;
}
