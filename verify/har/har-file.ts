import { open } from 'node:fs/promises';
import { JsonBoundsScanner } from '../../core/json-bounds-scanner.js';
import { VerifyError } from '../base/errors.js';

/** A header field or query parameter of a HAR entry. */
export interface HarField {
  name: string;
  value: string;
}

/** A cookie of a HAR entry (only its value is read: to keep it out of every output). */
export interface HarCookie {
  name?: string;
  value?: string;
}

/** What the kit reads of a HAR 1.2 entry (`log.entries[]`); the other fields, private `_` ones included, are left. */
export interface HarEntry {
  startedDateTime: string;
  /** The whole exchange in milliseconds. */
  time: number;
  request: { method: string; url: string; headers: HarField[]; cookies?: HarCookie[] };
  response: {
    status: number;
    headers: HarField[];
    cookies?: HarCookie[];
    content: { size?: number; text?: string; encoding?: string; mimeType?: string };
    /** Chrome: `Internal Redirect` for a redirect the browser made itself (HSTS). */
    statusText?: string;
    redirectURL?: string;
    /** Chrome: why no answer came (`net::ERR_ABORTED`). */
    _error?: string | null;
    /** Playwright: why no answer came (its status is then -1). */
    _failureText?: string;
  };
  /** Chrome: `memory` or `disk` when the browser answered from its cache. */
  _fromCache?: string;
  /** Chrome: true when a service worker of the page gave the answer (it may never have asked the deployment). */
  _fetchedViaServiceWorker?: boolean;
}

/** The bounds of a HAR file the command reads: beyond them it refuses the file in one line. */
export interface HarLimits {
  /** Bytes, checked on the file before it is read. Default: 32 MiB (a 50 MB file is refused). */
  maxBytes: number;
  /** Entries in `log.entries`. Default: 20,000. */
  maxEntries: number;
  /** Nesting of arrays and objects, checked before the parse. Default: 64. */
  maxDepth: number;
}

/** The default bounds (docs/testers.md): a browser session's export is far below each. */
export const harLimits: HarLimits = { maxBytes: 32 * 1024 * 1024, maxEntries: 20_000, maxDepth: 64 };

const refuse = (file: string, why: string) => new VerifyError('invalid_har', `${file} ${why}`);

/**
 * Reads a HAR file (1.1 or 1.2, as browsers, Playwright and proxies write it) within bounds: its size
 * before reading, its nesting before parsing, its entries and their shape after.
 * @throws VerifyError `invalid_har`, one line saying why, for a file that is missing, too big, not JSON,
 * nested too deep, not a HAR, or with too many entries or an entry without a request or response.
 * @example
 * const { entries } = await readHarFile('staging.har');
 */
export async function readHarFile(
  file: string,
  limits: HarLimits = harLimits,
): Promise<{ entries: HarEntry[]; creator: string }> {
  const text = await boundedText(file, limits.maxBytes);
  const breach = new JsonBoundsScanner({ maxDepth: limits.maxDepth, maxDigits: 400 }).feed(text);
  if (breach !== undefined)
    throw refuse(
      file,
      breach.bound === 'depth'
        ? `nests arrays and objects more than ${breach.limit} levels deep: no HAR does`
        : `holds a number of more than ${breach.limit} digits: no HAR does`,
    );
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Not the parser's own words: they quote the text around the error, which may hold a key.
    const at = /position (\d+)/.exec((error as Error).message)?.[1];
    throw refuse(
      file,
      `is not JSON${at === undefined ? '' : ` (a syntax error at character ${at})`}: a HAR file is JSON`,
    );
  }
  const log = (value as { log?: unknown } | null)?.log as { entries?: unknown; version?: unknown; creator?: unknown };
  if (typeof log !== 'object' || log === null || !Array.isArray(log.entries))
    throw refuse(file, 'is JSON but not a HAR: it has no log.entries list');
  if (log.entries.length > limits.maxEntries)
    throw refuse(
      file,
      `holds ${log.entries.length} entries, more than the ${limits.maxEntries} a HAR may hold here: save a shorter session`,
    );
  for (const [index, entry] of log.entries.entries()) checkEntry(entry, index, file);
  const creator = (log.creator as { name?: unknown } | undefined)?.name;
  return { entries: log.entries as HarEntry[], creator: typeof creator === 'string' ? creator : 'unknown' };
}

async function boundedText(file: string, maxBytes: number): Promise<string> {
  let handle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw refuse(file, `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  try {
    const { size, isFile } = await handle.stat().then((stats) => ({ size: stats.size, isFile: stats.isFile() }));
    if (!isFile) throw refuse(file, 'is not a file');
    if (size > maxBytes)
      throw refuse(file, `is ${size} bytes, more than the ${maxBytes} a HAR may be here: save a shorter session`);
    // Read at most one byte past the bound: a file that grew since is refused too.
    const buffer = Buffer.alloc(Math.min(size, maxBytes) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > maxBytes) throw refuse(file, `is more than the ${maxBytes} bytes a HAR may be here`);
    return utf8Text(buffer.subarray(0, bytesRead), file);
  } finally {
    await handle.close();
  }
}

/**
 * A file's bytes as UTF-8 text, as HAR files are written; its byte order mark (Windows tools write one) is
 * no part of the JSON (RFC 8259, 8.1). Bytes that are not UTF-8 are refused, not read as U+FFFD: no
 * browser writes them, and the bodies judged would not be what the deployment sent.
 */
function utf8Text(bytes: Buffer, file: string): string {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    throw refuse(file, 'is UTF-16 text: a HAR file is UTF-8 (save it again as UTF-8)');
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    // Where: the first byte the lenient decoding changed.
    const lenient = Buffer.from(bytes.toString('utf8'));
    let at = 0;
    while (at < bytes.length && bytes[at] === lenient[at]) at++;
    throw refuse(file, `is not UTF-8 text (a byte that is not UTF-8 at byte ${at}): a HAR file is UTF-8`);
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isFields = (value: unknown) =>
  Array.isArray(value) &&
  value.every((field) => isObject(field) && typeof field.name === 'string' && typeof field.value === 'string');
// An HTTP status (RFC 9110: three digits), or what a browser writes for no answer (0, Playwright's -1).
const isStatus = (value: unknown) => Number.isInteger(value) && (value as number) >= -1 && (value as number) <= 999;

function checkEntry(entry: unknown, index: number, file: string): void {
  const at = `log.entries[${index}]`;
  const wrong = (what: string) => refuse(file, `is not a HAR: ${at} ${what}`);
  if (!isObject(entry)) throw wrong('is not an object');
  const { request, response } = entry;
  if (!isObject(request) || typeof request.method !== 'string' || typeof request.url !== 'string')
    throw wrong('has no request with a method and a url');
  if (!isObject(response) || typeof response.status !== 'number') throw wrong('has no response with a status');
  // Judged, a status no answer can have would be blamed on the deployment.
  if (!isStatus(response.status)) throw wrong(`has a response status (${response.status}) that is no HTTP status`);
  if (!isFields(request.headers ?? []) || !isFields(response.headers ?? []))
    throw wrong('has headers that are not { name, value } pairs');
  if (!Array.isArray(request.cookies ?? []) || !Array.isArray(response.cookies ?? []))
    throw wrong('has cookies that are not a list');
  if (!isObject(response.content ?? {})) throw wrong('has a response.content that is not an object');
  const text = (response.content as { text?: unknown } | undefined)?.text;
  if (text !== undefined && typeof text !== 'string') throw wrong('has a response.content.text that is not text');
  // Tools differ in what they leave out: an absent list is an empty one, and absent content a body
  // the HAR does not hold (judged only where no body can be: har-exchanges.ts).
  request.headers ??= [];
  response.headers ??= [];
  response.content ??= {};
  if (typeof entry.startedDateTime !== 'string' || Number.isNaN(Date.parse(entry.startedDateTime)))
    throw wrong('has no startedDateTime');
  if (typeof entry.time !== 'number' || !Number.isFinite(entry.time)) entry.time = 0;
}
