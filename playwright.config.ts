import { availableParallelism } from 'node:os';
import { defineConfig } from '@playwright/test';
import { readMachineSettings } from './src/config.ts';
import type { ProjectOptions } from './tests/e2e/fixtures.ts';

/**
 * End-to-end tests in Debian's Chromium (no browser download) against the
 * site built from the real sample API; tests/e2e/global-setup.ts starts both
 * on free loopback ports and stops them afterwards.
 */
export default defineConfig<ProjectOptions>({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  // Beside the build of this run (see E2E_DIR in global-setup.ts), so two runs never share it.
  outputDir: `${process.env.E2E_DIR ?? '.cache/e2e'}/test-results`,
  timeout: 30_000,
  expect: { timeout: 5_000 },
  fullyParallel: true,
  // Two at least: Playwright's default, half the cores, is one on a 2-core machine, where most of a test is spent
  // waiting on the browser and the servers, and two take the suite from some 34 to 24 minutes.
  workers: Math.max(2, Math.floor(availableParallelism() / 2)),
  retries: 0,
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: readMachineSettings().chromiumPath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    // No trace: recording one costs every test its DOM snapshots and screenshots, 40% of the layout matrix's time
    // on this 2-core machine, and a failure's error-context.md already holds the page's state. To look into a
    // failure, run it again with `--trace retain-on-failure`.
    trace: 'off',
    // The service worker would answer requests before `page.route` sees them; only offline.spec.ts lets it run.
    serviceWorkers: 'block',
  },
  projects: [
    // Two districts built under two paths of one origin: two builds of their own, so once, on a phone; first, so that
    // its builds run while the other worker tests.
    { name: 'districts', testMatch: /districts\.spec\.ts/, use: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true } },
    // Axe reads every route template in two languages per screen size, all four between them: what axe finds depends
    // on the language (names, lang attributes) or on the layout (what is shown), seldom on both, and reading every
    // template in all four languages on both sizes took a fifth of the suite. Russian, whose labels run longest, and
    // the default language on the phone.
    {
      name: 'phone',
      testIgnore: /(nginx|valid-html|districts|menu-dropdowns)\.spec\.ts/,
      use: { viewport: { width: 360, height: 740 }, isMobile: true, hasTouch: true, axeLanguages: ['uz-latn', 'ru'] },
    },
    // before-scripts.spec.ts is about a phone on a slow line: the phone project runs it.
    // first-screen.spec.ts sets a phone's and a wide screen's sizes itself: the phone project runs it.
    // islands.spec.ts tests what the forms, the search, the votes and the panel do, by touch, pointer and keyboard;
    // the phone project runs it, and sets a phone's sizes where it needs them. What differs on a wide screen, where
    // the layers open and whether the controls are in view, the layout matrix and keyboard.spec.ts test there.
    {
      name: 'desktop',
      testIgnore: /(nginx|valid-html|before-scripts|districts|first-screen|islands)\.spec\.ts/,
      use: { viewport: { width: 1280, height: 800 }, axeLanguages: ['uz-cyrl', 'en'] },
    },
    // No browser, so once, not per screen size: the production web server's configuration, run in nginx, and the HTML checker.
    { name: 'server', testMatch: /(nginx|valid-html)\.spec\.ts/ },
  ],
});
