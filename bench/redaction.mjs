// What redaction costs with the cut check (issue 58 item 6: a secret's beginning left by a cut is taken
// out too, one more pass over each text). In process, against two built dist/ folders: this one and
// another (the same code before the change), alternating. Texts: the lines `petstore-verify har` prints
// for N entries (each quoting a 60-character token, half of them cut as a preview cuts them), and a
// saved scenario's size of text with no secret. Secrets: N tokens (the HAR's), so the many-secrets
// index is used from 33 on. Medians of the rounds, ms per call of Redaction.text on the whole text.
// `npm run build` in both checkouts first. Usage: node bench/redaction.mjs OTHER_DIST [N, default 2000] [rounds, default 7]
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [otherDist, entriesArgument = '2000', roundsArgument = '7'] = process.argv.slice(2);
if (otherDist === undefined) throw new Error('usage: node bench/redaction.mjs OTHER_DIST [N] [rounds]');
const entries = Number(entriesArgument);
const rounds = Number(roundsArgument);
const load = async (dist) => (await import(pathToFileURL(resolve(dist, 'verify/base/redaction.js')).href)).Redaction;
const builds = { this: await load('dist'), other: await load(otherDist) };

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const token = () => Array.from({ length: 60 }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
const tokens = Array.from({ length: entries }, token);
const lines = tokens
  .map((secret, index) =>
    index % 2 === 0
      ? `✗ #${index + 1} DELETE https://staging.example.com/v1/store/orders/${index} → 401\n    expected a JSON body, got "token=${secret.slice(0, 34)}"`
      : `· #${index + 1} GET https://staging.example.com/v1/store/orders → 200 (sent ${secret})`,
  )
  .join('\n');
const plain = 'steps:\n  - title: list the orders\n    expect: { status: 200 }\n'.repeat(Math.ceil(lines.length / 60));
const texts = { 'har lines': lines, 'plain text': plain };

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const results = {};
for (const name of Object.keys(builds)) {
  const redaction = new builds[name]({ secrets: tokens });
  for (const [text, value] of Object.entries(texts)) results[`${name} ${text}`] = { redaction, value, times: [] };
}
for (let round = 0; round < rounds; round++)
  for (const entry of Object.values(results)) {
    const started = performance.now();
    const redacted = entry.redaction.text(entry.value);
    entry.times.push(performance.now() - started);
    if (round === 0)
      entry.leftover = tokens.filter(
        (secret, index) => index % 2 === 0 && redacted.includes(secret.slice(0, 8)),
      ).length;
  }
console.log(
  `${entries} secrets; har lines ${(lines.length / 1024).toFixed(0)} KiB, plain text ${(plain.length / 1024).toFixed(0)} KiB; ${rounds} rounds`,
);
for (const [key, entry] of Object.entries(results))
  console.log(
    `${key}: ${median(entry.times).toFixed(1)} ms${key.endsWith('har lines') ? `, cut tokens whose first 8 characters remain: ${entry.leftover}` : ''}`,
  );
