import { chromium } from '@playwright/test';
import { serveDist } from '/work/main/scripts/lib/static-server.ts';
const { url, server } = await serveDist({ root: '.cache/e2e/dist', port: 0 });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const langs = [['', 'uz'], ['/uz-cyrl', 'cy'], ['/ru', 'ru'], ['/en', 'en']];
for (const width of [320, 360, 1280]) {
  for (const [prefix, code] of langs) {
    const page = await browser.newPage({ viewport: { width, height: width < 1000 ? 640 : 800 }, isMobile: width < 1000, hasTouch: width < 1000 });
    await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => r.abort());
    await page.route(/\/api\/apply/, (r) => r.fulfill({ contentType: 'application/json', body: JSON.stringify({ data: { msg: 'Ваше обращение принято. Номер: 1234' } }) }));
    await page.route(/\/api\/search/, (r) => r.abort('connectionrefused'));
    await page.goto(`${url}${prefix}/`);
    await page.waitForTimeout(1200);
    // search dialog with a failed search
    await page.locator('button.header-button[aria-haspopup=dialog]').click();
    await page.locator('#search-query').fill('karakul');
    await page.locator('.search-dialog__row .button').click();
    await page.waitForTimeout(400);
    await page.screenshot({ path: `.cache/shots/search-${code}-${width}.png` });
    await page.keyboard.press('Escape');
    // panel at the largest text
    await page.locator('.a11y .header-button').click();
    for (let i = 0; i < 3; i++) await page.locator('#a11y-panel .a11y-panel__options button').nth(1).click();
    await page.screenshot({ path: `.cache/shots/panel-${code}-${width}.png` });
    for (let i = 0; i < 3; i++) await page.locator('#a11y-panel .a11y-panel__options button').first().click();
    await page.keyboard.press('Escape');
    if (width < 1000) {
      await page.locator('[data-nav-toggle]').click();
      await page.screenshot({ path: `.cache/shots/menu-${code}-${width}.png` });
      await page.locator('[data-nav-toggle]').click();
    }
    await page.close();
  }
}
await browser.close(); server.close();
console.log('done');
