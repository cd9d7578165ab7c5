import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { DICTIONARIES } from '../../src/i18n/t.ts';
import { expect, hydrated, test } from './fixtures.ts';

const uz = DICTIONARIES['uz-latn'];
const ru = DICTIONARIES.ru;
const en = DICTIONARIES.en;
const HCAPTCHA_STUB = readFileSync(new URL('./hcaptcha-stub.js', import.meta.url), 'utf8');
const apiRoute = (path: string) => new RegExp(`^${process.env.E2E_API_URL}/${path}`);

/** The toast (sweetalert2) with `text`. */
const toastWith = (page: Page, text: string) => page.locator('.swal2-toast').filter({ hasText: text });

test.describe('survey voting', () => {
  test('a vote is counted once, survives a reload and cannot be repeated', async ({ page, api }) => {
    const before = (await api.surveys(3))[0]!;
    await page.goto('/ru/');
    const card = page.locator('.survey').filter({ hasText: before.title });
    // The island hydrates when it scrolls into view, as it does for a reader.
    await card.scrollIntoViewIfNeeded();
    const like = card.getByRole('button', { name: new RegExp(ru['survey.like']) });
    const dislike = card.getByRole('button', { name: new RegExp(ru['survey.dislike']) });
    await expect(like).toBeEnabled();
    await like.click();
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    await expect(like).toBeDisabled();
    await expect(dislike).toBeDisabled();
    // The list was reloaded from the server: the count includes this vote.
    await expect(like).toContainText(new Intl.NumberFormat('ru').format(before.likes + 1));
    await page.reload();
    await expect(like).toBeDisabled();
    await expect(like).toHaveAttribute('aria-pressed', 'true');
    expect((await api.surveys(3))[0]!.likes).toBe(before.likes + 1);
  });

  test('a vote that fails is rolled back with a toast', async ({ page, api }) => {
    const survey = (await api.surveys(4))[1]!;
    await page.route(apiRoute('api/survey/answer'), (route) => route.abort('connectionrefused'));
    await page.goto('/en/');
    const card = page.locator('.survey').filter({ hasText: survey.title });
    await card.scrollIntoViewIfNeeded();
    const dislike = card.getByRole('button', { name: new RegExp(en['survey.dislike']) });
    await dislike.click();
    await expect(toastWith(page, en['survey.failed'])).toBeVisible();
    await expect(dislike).toBeEnabled();
    await expect(dislike).toHaveAttribute('aria-pressed', 'false');
    expect(await page.evaluate(() => localStorage.getItem('qorakul-hokimligi:survey-votes'))).toBeNull();
  });
});

test.describe('search', () => {
  async function openSearch(page: Page, label: string) {
    await page.getByRole('button', { name: label }).click();
    return page.getByRole('dialog');
  }

  test('finds news in the page language and links to it', async ({ page, api }) => {
    const news = (await api.postList(1, 4, 1)).items[0]!;
    const word = news.title.split(/\s+/).find((w) => w.length > 5)!.replace(/\W+$/, '');
    await page.goto('/en/');
    const dialog = await openSearch(page, en['header.search']);
    await dialog.getByLabel(en['search.label']).fill(word);
    // Typing alone does not search (§4).
    await expect(dialog.getByRole('list')).toHaveCount(0);
    await dialog.getByLabel(en['search.label']).press('Enter');
    const hit = dialog.getByRole('link', { name: news.title });
    await expect(hit).toHaveAttribute('href', `/en/news/${news.id}`);
    await hit.click();
    await expect(page).toHaveURL(new RegExp(`/en/news/${news.id}$`));
  });

  test('says when nothing is found, and shows the API errorMsg as the heading', async ({ page }) => {
    await page.goto('/');
    const dialog = await openSearch(page, uz['header.search']);
    await dialog.getByLabel(uz['search.label']).fill('qwzxqwzx');
    await dialog.getByRole('button', { name: uz['search.button'] }).click();
    await expect(dialog.getByRole('heading', { name: uz['search.nothing'] })).toBeVisible();
    // An empty query: the sample API answers {errorMsg} in the requested language.
    await dialog.getByLabel(uz['search.label']).fill('');
    await dialog.getByRole('button', { name: uz['search.button'] }).click();
    await expect(dialog.getByRole('heading', { name: "Qidiruv so'zini kiriting" })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: uz['header.search'] })).toBeFocused();
  });

  test('a network failure shows the error toast', async ({ page }) => {
    await page.route(apiRoute('api/search'), (route) => route.abort('connectionrefused'));
    await page.goto('/ru/');
    const dialog = await openSearch(page, ru['header.search']);
    await dialog.getByLabel(ru['search.label']).fill('каракуль');
    await dialog.getByLabel(ru['search.label']).press('Enter');
    await expect(toastWith(page, ru['search.error'])).toBeVisible();
  });
});

test.describe('appeal form', () => {
  test.beforeEach(async ({ page }) => {
    await page.route('https://js.hcaptcha.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: HCAPTCHA_STUB }));
  });

  async function fill(page: Page, d: typeof uz, values: Partial<Record<'fullName' | 'phone' | 'email' | 'subject' | 'message', string>>) {
    await hydrated(page, 'AppealForm');
    const labels = { fullName: 'appeal.fullName', phone: 'appeal.phone', email: 'appeal.email', subject: 'appeal.subject', message: 'appeal.message' } as const;
    for (const [field, value] of Object.entries(values)) await page.getByLabel(d[labels[field as keyof typeof labels]], { exact: true }).fill(value);
  }
  const VALID = {
    fullName: 'Karimov Bahodir Aliyevich',
    phone: '+998901234567',
    email: 'bahodir.karimov@example.uz',
    subject: "Ko'cha chiroqlari haqida",
    message: "Mahallamizdagi ko'cha chiroqlari bir oydan beri yonmayapti.",
  };

  test('shows the length message under a short field once typing began, and needs the captcha', async ({ page }) => {
    await page.goto('/murojaat_yuborish');
    const name = page.getByLabel(uz['appeal.fullName'], { exact: true });
    await expect(page.getByText(uz['appeal.minLength'])).toHaveCount(0);
    await name.fill('Ali');
    await expect(name).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText(uz['appeal.minLength'])).toHaveCount(1);
    await fill(page, uz, VALID);
    await expect(name).not.toHaveAttribute('aria-invalid', 'true');
    const submit = page.getByRole('button', { name: uz['appeal.submit'] });
    await expect(submit).toBeDisabled();
    await page.getByRole('button', { name: /Stub captcha/ }).click();
    await expect(submit).toBeEnabled();
  });

  test('sends the appeal, says so and clears the draft', async ({ page }) => {
    await page.goto('/ru/murojaat_yuborish');
    await fill(page, ru, VALID);
    await page.getByRole('button', { name: /Stub captcha/ }).click();
    await page.getByRole('button', { name: ru['appeal.submit'] }).click();
    await expect(toastWith(page, 'Ваше обращение принято')).toBeVisible();
    await expect(page.getByLabel(ru['appeal.fullName'], { exact: true })).toHaveValue('');
    expect(await page.evaluate(() => localStorage.getItem('qorakul-hokimligi:appeal-draft'))).toBeNull();
  });

  test('keeps the draft across a reload and when the server cannot be reached', async ({ page }) => {
    await page.goto('/en/murojaat_yuborish');
    await fill(page, en, VALID);
    await page.reload();
    await expect(page.getByText(en['appeal.draftRestored'])).toBeVisible();
    await expect(page.getByLabel(en['appeal.message'], { exact: true })).toHaveValue(VALID.message);
    await page.route(apiRoute('api/apply'), (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: /Stub captcha/ }).click();
    await page.getByRole('button', { name: en['appeal.submit'] }).click();
    await expect(toastWith(page, en['appeal.notSent'])).toBeVisible();
    await expect(page.getByLabel(en['appeal.subject'], { exact: true })).toHaveValue(VALID.subject);
    await page.reload();
    await expect(page.getByLabel(en['appeal.fullName'], { exact: true })).toHaveValue(VALID.fullName);
  });

  test('a 400 from the server shows the length warning and keeps the text', async ({ page }) => {
    await page.route(apiRoute('api/apply'), (route) => route.fulfill({ status: 400, contentType: 'application/json', body: '{"errorMsg":"bad"}' }));
    await page.goto('/uz-cyrl/murojaat_yuborish');
    const d = DICTIONARIES['uz-cyrl'];
    await fill(page, d, VALID);
    await page.getByRole('button', { name: /Stub captcha/ }).click();
    await page.getByRole('button', { name: d['appeal.submit'] }).click();
    await expect(toastWith(page, d['appeal.tooShort'])).toBeVisible();
    await expect(page.getByLabel(d['appeal.email'], { exact: true })).toHaveValue(VALID.email);
  });
});

test.describe('special opportunities', () => {
  test('the chosen look applies at once and on every page, before it paints', async ({ page }) => {
    await page.goto('/en/news');
    const button = page.getByRole('button', { name: en['header.accessibility'] });
    await button.click();
    const panel = page.getByRole('dialog', { name: en['a11y.title'] });
    await expect(panel).toBeVisible();
    await panel.getByRole('button', { name: en['a11y.grayscale'] }).click();
    await panel.getByRole('button', { name: en['a11y.zoomIn'] }).click();
    await expect(page.locator('body')).toHaveClass(/mode-grayscale/);
    await expect(page.locator('body')).toHaveClass(/zoom-1/);
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(button).toBeFocused();
    // Another page: the class is on <body> when the document is parsed, before any module runs.
    const classes: string[] = [];
    await page.exposeFunction('reportClasses', (c: string) => classes.push(c));
    await page.addInitScript(() =>
      document.addEventListener('DOMContentLoaded', () => (window as unknown as { reportClasses(c: string): void }).reportClasses(document.body.className)),
    );
    await page.goto('/en/gallery/video');
    await expect.poll(() => classes[0]).toMatch(/mode-grayscale.*zoom-1|zoom-1.*mode-grayscale/);
    // Normal mode takes the classes off again.
    await page.getByRole('button', { name: en['header.accessibility'] }).click();
    await page.getByRole('button', { name: en['a11y.normal'] }).click();
    await expect(page.locator('body')).not.toHaveClass(/mode-/);
  });
});

test.describe('carousel', () => {
  test('wraps around and ignores clicks while a slide moves', async ({ page }) => {
    await page.goto('/ru/ekoturizm');
    const d = ru;
    const status = page.locator('.carousel__controls p');
    await expect(status).toContainText('1');
    const next = page.getByRole('button', { name: d['carousel.next'] });
    const previous = page.getByRole('button', { name: d['carousel.previous'] });
    await previous.click();
    await expect(status).toContainText(d['carousel.slide'].replace('{n}', '3').replace('{total}', '3'));
    await expect(page.locator('.carousel[data-animating]')).toHaveCount(0);
    // Two clicks in the same moment: the second lands while the slide moves and is ignored.
    await next.evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    await expect(status).toContainText(d['carousel.slide'].replace('{n}', '1').replace('{total}', '3'));
    await expect(page.locator('.carousel[data-animating]')).toHaveCount(0);
    await next.click();
    await expect(status).toContainText(d['carousel.slide'].replace('{n}', '2').replace('{total}', '3'));
  });
});

test.describe('layout at the largest text size', () => {
  for (const path of ['/ru/', '/uz-cyrl/news', '/en/murojaat_yuborish', '/ru/boshqaruv_apparati_tuzilmasi']) {
    test(`${path} does not scroll sideways at 320 px`, async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 700 });
      await page.addInitScript(() => localStorage.setItem('qorakul-hokimligi:a11y', JSON.stringify({ mode: 'normal', zoom: 3 })));
      await page.goto(path);
      await expect(page.locator('body')).toHaveClass(/zoom-3/);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
});
