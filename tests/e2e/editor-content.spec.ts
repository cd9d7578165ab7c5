/**
 * What editors paste into a text, as a citizen meets it on the sample's post with a decision: the
 * decision is the site's own file with its type and size, the embedded YouTube video is the site's card
 * that asks nothing of YouTube until Play is pressed and then plays in a frame the site's policy allows,
 * the video file plays with controls and loads nothing first, and the Telegram post is a link to it.
 */
import type { Page } from '@playwright/test';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { postWith } from '../helpers/sample-db.ts';
import { axeViolations, expect, expectPageFocus, test } from './fixtures.ts';

const [UZ, , RU, EN] = LANGUAGES;
const VIDEO_HOSTS = /^https?:\/\/(?:[^/]*\.)?(?:youtube\.com|youtube-nocookie\.com|ytimg\.com|googlevideo\.com|telegram\.org|t\.me)(?:[:/]|$)/i;
const PLAYER = 'https://www.youtube-nocookie.com/embed/M7lc1UVf-VE?autoplay=1';

async function watchPolicy(page: Page) {
  await page.addInitScript(() => {
    (window as unknown as { cspViolations: string[] }).cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { cspViolations: string[] }).cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
}

for (const [lang, size] of [
  [RU, 'PDF, 40 КБ'],
  [EN, 'PDF, 40 KB'],
  [UZ, 'PDF, 40 KB'],
] as const) {
  test(`a post with a decision, a video and a Telegram post (${lang.label})`, async ({ page, context, consoleErrors }) => {
    const d = DICTIONARIES[lang.code];
    const requests: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    await page.route(/^https:\/\/www\.youtube-nocookie\.com\//, (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Player stub</title><p>YouTube player stub</p>' }),
    );
    await watchPolicy(page);
    await page.goto(localizePath(lang, `/news/${postWith('qaror-12.pdf')}`));

    // The decision: a link to the site's own copy, saying what a tap costs; it downloads from the site.
    const decision = page.locator('.prose a', { hasText: size });
    await expect(decision).toHaveCount(1);
    const href = await decision.getAttribute('href');
    expect(href).toMatch(/^\/documents\/[0-9a-f]{12}\/qaror-12\.pdf$/);
    const file = await page.request.get(href!);
    expect(file.status()).toBe(200);
    expect(file.headers()['content-type']).toBe('application/pdf');
    expect((await file.body()).subarray(0, 5).toString()).toBe('%PDF-');
    // The deleted post's link stays as written; the page is published.
    await expect(page.locator('.prose a[href="/news/99999"]')).toHaveCount(1);

    // The video: the site's card, and nothing of YouTube's until the citizen asks.
    const card = page.locator('video-embed');
    await card.scrollIntoViewIfNeeded();
    await page.evaluate(() => scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForLoadState('networkidle');
    expect(requests.filter((u) => VIDEO_HOSTS.test(u))).toEqual([]);
    await expect(card.locator('iframe')).toHaveCount(0);
    await expect(card).toContainText(d['video.note'].replaceAll('{host}', 'YouTube'));
    const watch = card.getByRole('link', { name: `${d['video.open'].replace('{host}', 'YouTube')} ${d['nav.external']}` });
    await expect(watch).toHaveAttribute('href', 'https://www.youtube.com/watch?v=M7lc1UVf-VE');
    const play = card.getByRole('button', { name: d['video.play'].replace('{host}', 'YouTube') });
    await expect(play).toBeVisible();
    if (lang === EN) {
      await play.focus();
      await page.keyboard.press('Enter');
    } else if (test.info().project.use.hasTouch) await play.tap();
    else await play.click();
    const frame = card.locator('iframe');
    await expect(frame).toHaveAttribute('src', PLAYER);
    await expectPageFocus(frame);
    await expect(page.frameLocator('video-embed iframe').getByText('YouTube player stub')).toBeVisible();
    expect(requests.filter((u) => VIDEO_HOSTS.test(u)).every((u) => u.startsWith('https://www.youtube-nocookie.com/embed/'))).toBe(true);

    // The video file plays with the browser's controls, and nothing of it loads before Play.
    const video = page.locator('.prose video');
    await expect(video).toHaveAttribute('controls', '');
    await expect(video).toHaveAttribute('preload', 'none');
    // The Telegram post is a link to it.
    await expect(page.locator('.prose a[href="https://t.me/qorakul_hokimligi/1204"]')).toHaveCount(1);
    expect(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)).toEqual([]);
    if (lang === RU) expect(await axeViolations(page)).toEqual([]);
    expect(consoleErrors).toEqual([]);
  });
}
