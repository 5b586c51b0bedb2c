import type { Browser } from 'playwright-core';

/** Launches headless Chromium: CHROMIUM_PATH when it is set, else the browser inside @sparticuz/chromium. */
export function launchChromium(): Promise<Browser>;
