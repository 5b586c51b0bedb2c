// The headless Chromium the tests drive with playwright-core: the one @sparticuz/chromium ships inside
// its npm package (unpacked to /tmp on first use; nothing is downloaded), or, with CHROMIUM_PATH, a
// browser of the system's own such as Debian's /usr/bin/chromium. Plain JavaScript (its types in
// headless-browser.d.mts), so that the benchmarks launch the same browser the same way.
import { existsSync } from 'node:fs';
import packagedChromium from '@sparticuz/chromium';
import { chromium } from 'playwright-core';

// The flags Chromium needs on these machines: run as root without a sandbox, no GPU, and none of
// the background connections a closed network refuses.
const systemFlags = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Launches headless Chromium: CHROMIUM_PATH when it is set, else the browser inside @sparticuz/chromium.
 * @returns {Promise<import('playwright-core').Browser>}
 */
export async function launchChromium() {
  const systemPath = process.env.CHROMIUM_PATH;
  if (systemPath !== undefined && systemPath !== '') {
    if (!existsSync(systemPath)) throw new Error(`CHROMIUM_PATH names no file: ${systemPath}`);
    return chromium.launch({ executablePath: systemPath, headless: true, args: systemFlags });
  }
  // Not the package's own flags: they suit AWS Lambda (--single-process, --disable-web-security), not a test
  // that opens several pages with service workers. The binary runs with the same flags as a system Chromium.
  const executablePath = await packagedChromium.executablePath();
  return chromium.launch({
    executablePath,
    headless: true,
    args: [...systemFlags, '--no-zygote', '--use-gl=angle', '--use-angle=swiftshader'],
  });
}
