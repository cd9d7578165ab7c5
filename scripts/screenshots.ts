/**
 * `npm run screenshots -- /path [/path …]`: serves dist/ and saves a PNG of each
 * page at 360 px and 1280 px wide into .cache/screenshots/, for looking at
 * pages the way a phone and a desktop show them. Serves OUT_DIR when set.
 */
import { mkdir } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import { readMachineSettings } from '../src/config.ts';
import { serveDist } from './serving/static-server.ts';

const paths = process.argv.slice(2);
if (!paths.length) paths.push('/');
const { outDir, chromiumPath } = readMachineSettings();
const { url, server } = await serveDist({ root: outDir, port: 0 });
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
});
await mkdir('.cache/screenshots', { recursive: true });
for (const width of [360, 1280]) {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (r) => r.abort());
  for (const path of paths) {
    await page.goto(url + path);
    const file = `.cache/screenshots/${path.replace(/[^\w-]+/g, '_') || 'home'}-${width}.png`;
    await page.screenshot({ path: file, fullPage: true });
    console.log(file);
  }
  await page.close();
}
await browser.close();
server.close();
