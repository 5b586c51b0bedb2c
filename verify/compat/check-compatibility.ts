import { readApiDocument } from './api-document.js';
import { CompatError } from './compat-error.js';
import type { CompatFinding } from './compat-finding.js';
import type { CompatLevel } from './compat-rules.js';
import { compareDocuments } from './compare-documents.js';
import { readConsumerPact } from './consumer-pact-file.js';
import { checkPact } from './pact-changes.js';

/** What `checkCompatibility` compares: two documents, or a new document and consumers' pacts, or all three. */
export interface CompatibilityOptions {
  /** The document consumers were built against; without it only the pacts are checked against `newFile`. */
  oldFile?: string;
  newFile: string;
  /** Consumers' Pact files, each checked against `newFile`. */
  pactFiles?: readonly string[];
  /**
   * Documents the provider serves beside `newFile`, unchanged (another major): a pact's interactions
   * are paired with their operations too, so a v1 interaction is not called removed from a v2 document.
   */
  besideFiles?: readonly string[];
  /** The day a deprecated operation's sunset is compared with (default: now). */
  today?: Date;
}

/** A pact checked: its file, its consumer, how many interactions it has and how many of them break. */
export interface CheckedPact {
  file: string;
  consumer: string;
  interactions: number;
  broken: number;
}

/** The verdict of a compatibility check, as data: what a reporter prints and `--format json` writes. */
export interface CompatReport {
  old?: string;
  new: string;
  /** How many operations (one per base path) each document holds. */
  operations: { old?: number; new: number };
  pacts: CheckedPact[];
  findings: CompatFinding[];
  counts: Record<CompatLevel, number>;
  /** `failed` with any error: a change that breaks a consumer, or a pact the new document breaks. */
  verdict: 'passed' | 'failed';
  exitCode: 0 | 1;
}

/**
 * Compares the old document with the new one, and checks each consumer's pact against the new one:
 * every finding with its rule and level, the verdict failed (exit 1) on any error. Input it cannot judge
 * throws `CompatError` (exit 2): a file it cannot read, no OpenAPI 3.x, no pact, or nothing to compare
 * (an old document with no operation, a pact with no interaction).
 * @example
 * const report = await checkCompatibility({ oldFile: 'spec/openapi.yaml', newFile: 'changed.yaml' });
 * report.exitCode // 1 when a change breaks a consumer
 */
export async function checkCompatibility(options: CompatibilityOptions): Promise<CompatReport> {
  const { oldFile, newFile, pactFiles = [], besideFiles = [], today = new Date() } = options;
  if (oldFile === undefined && pactFiles.length === 0) {
    throw new CompatError('nothing_compared', `nothing to compare ${newFile} with: give the old document, or a pact`);
  }
  const old = oldFile === undefined ? undefined : await readApiDocument(oldFile);
  const next = await readApiDocument(newFile);
  const served = [next];
  for (const file of besideFiles) served.push(await readApiDocument(file));
  const pacts = [];
  for (const file of pactFiles) pacts.push(await readConsumerPact(file));
  if (old !== undefined && old.operations.length === 0) {
    const none =
      next.operations.length === 0
        ? `neither ${old.file} nor ${next.file} holds an operation`
        : `${old.file} holds no operation`;
    throw new CompatError('nothing_compared', `${none}: nothing was compared`);
  }
  const empty = pacts.find((pact) => pact.interactions.length === 0);
  if (empty !== undefined) {
    throw new CompatError(
      'nothing_compared',
      `${empty.file}: the pact of ${empty.consumer} holds no interaction: nothing was checked`,
    );
  }
  const findings = old === undefined ? [] : compareDocuments(old, next, { today });
  const checked: CheckedPact[] = [];
  for (const pact of pacts) {
    const found = checkPact(served, pact);
    findings.push(...found);
    const broken = new Set(
      found.filter((finding) => finding.severity === 'error').map((finding) => finding.interaction),
    );
    checked.push({
      file: pact.file,
      consumer: pact.consumer,
      interactions: pact.interactions.length,
      broken: broken.size,
    });
  }
  const counts = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity] += 1;
  const failed = counts.error > 0;
  return {
    ...(old === undefined ? {} : { old: old.file }),
    new: next.file,
    operations: { ...(old === undefined ? {} : { old: old.operations.length }), new: next.operations.length },
    pacts: checked,
    findings,
    counts,
    verdict: failed ? 'failed' : 'passed',
    exitCode: failed ? 1 : 0,
  };
}
