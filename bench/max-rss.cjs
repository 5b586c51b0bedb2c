// Preloaded with `node -r` by bench/decoded-bodies.mjs: prints the process's peak resident memory
// (KiB) on exit, whatever ends it, so a command can be measured whole without changing it.
process.on('exit', () => process.stderr.write(`max-rss-kib ${process.resourceUsage().maxRSS}\n`));
for (const signal of ['SIGINT', 'SIGTERM'])
  process.prependListener(signal, () => process.stderr.write(`max-rss-kib ${process.resourceUsage().maxRSS}\n`));
