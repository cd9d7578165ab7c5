import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { LANGUAGES, localizePath } from '../../src/i18n/languages.ts';
import { DICTIONARIES, t, type Dictionary } from '../../src/i18n/t.ts';
import { expect, expectPageFocus, headerReady, appealFormReady, surveyVotesReady, test } from './fixtures.ts';
import { STORAGE_KEYS } from '../../src/lib/storage.ts';

const HCAPTCHA_STUB = readFileSync(new URL('./hcaptcha-stub.js', import.meta.url), 'utf8');
const apiRoute = (path: string) => new RegExp(`^${process.env.E2E_API_URL}/${path}`);

/** The toast (sweetalert2) with `text`. */
const toastWith = (page: Page, text: string) => page.locator('.swal2-toast').filter({ hasText: text });

/** Two languages for each state, so every string and every language's URL is exercised. */
const [UZ, UZ_CYRL, RU, EN] = LANGUAGES;

/** A valid appeal: every field at least 10 characters. */
const VALID = {
  fullName: 'Karimov Bahodir Aliyevich',
  phone: '+998901234567',
  email: 'bahodir.karimov@example.uz',
  subject: "Ko'cha chiroqlari haqida",
  message: "Mahallamizdagi ko'cha chiroqlari bir oydan beri yonmayapti.",
};

test.describe('survey voting', () => {
  for (const lang of [RU, UZ]) {
    test(`the vote buttons work before they are scrolled to: one Tab pass reaches them (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/'));
      const like = page
        .locator('.survey')
        .first()
        .getByRole('button', { name: new RegExp(d['survey.like']) });
      // Not scrolled into view: enabled all the same once the page has settled.
      await expect(like).toBeEnabled({ timeout: 10_000 });
      let reached = false;
      for (let i = 0; i < 120 && !reached; i++) {
        await page.keyboard.press('Tab');
        reached = await like.evaluate((el) => el === document.activeElement);
      }
      expect(reached).toBe(true);
    });
  }

  for (const [lang, surveyIndex] of [
    [RU, 0],
    [EN, 2],
  ] as const) {
    test(`a vote is counted once, survives a reload and cannot be repeated (${lang.label})`, async ({ page, api }) => {
      const d = DICTIONARIES[lang.code];
      const before = (await api.surveys(lang.number))[surveyIndex]!;
      await page.goto(localizePath(lang, '/'));
      const card = page.locator('.survey').filter({ hasText: before.title });
      // The island hydrates when it scrolls into view, as it does for a reader.
      await card.scrollIntoViewIfNeeded();
      const like = card.getByRole('button', { name: new RegExp(d['survey.like']) });
      const dislike = card.getByRole('button', { name: new RegExp(d['survey.dislike']) });
      await expect(like).toBeEnabled();
      await like.click();
      await expect(like).toHaveAttribute('aria-pressed', 'true');
      await expect(like).toBeDisabled();
      await expect(dislike).toBeDisabled();
      await expect(card.getByRole('status')).toHaveText(d['survey.voted']);
      // Focus goes to the note, not to the page, when the pressed button is disabled.
      await expectPageFocus(card.getByRole('status'));
      // The list was reloaded from the server: the count shown includes this vote (other tests may vote too).
      await expect.poll(async () => Number((await like.locator('.survey__count').innerText()).replace(/\D/g, ''))).toBeGreaterThanOrEqual(before.likes + 1);
      await page.reload();
      await card.scrollIntoViewIfNeeded();
      await expect(like).toHaveAttribute('aria-pressed', 'true');
      await expect(like).toBeDisabled();
    });
  }

  for (const lang of [EN, UZ_CYRL]) {
    test(`a vote that fails is rolled back with a toast (${lang.label})`, async ({ page, api }) => {
      const d = DICTIONARIES[lang.code];
      const survey = (await api.surveys(lang.number))[1]!;
      await page.route(apiRoute('api/survey/answer'), (route) => route.abort('connectionrefused'));
      await page.goto(localizePath(lang, '/'));
      const card = page.locator('.survey').filter({ hasText: survey.title });
      await card.scrollIntoViewIfNeeded();
      const dislike = card.getByRole('button', { name: new RegExp(d['survey.dislike']) });
      await dislike.click();
      await expect(toastWith(page, d['survey.failed'])).toBeVisible();
      await expect(dislike).toBeEnabled();
      await expect(dislike).toHaveAttribute('aria-pressed', 'false');
      expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.surveyVotes)).toBeNull();
    });
  }
});

test.describe('render crash', () => {
  for (const lang of [UZ, RU]) {
    test(`an island that crashes shows the error screen in its place; the rest of the page works (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      const errors: string[] = [];
      page.on('console', (m) => void (m.type() === 'error' && errors.push(m.text())));
      // Bad data reaching an island: the carousel's photographs arrive as a number and a null.
      await page.addInitScript(() => {
        new MutationObserver((_, observer) => {
          const island = document.querySelector('astro-island[component-url*="Carousel"]');
          if (!island) return;
          const props = JSON.parse(island.getAttribute('props')!) as Record<string, unknown>;
          props.slides = [
            1,
            [
              [0, 0],
              [0, null],
            ],
          ];
          island.setAttribute('props', JSON.stringify(props));
          observer.disconnect();
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(localizePath(lang, '/ekoturizm'));
      // The island hydrates (and crashes) when it scrolls into view.
      await page.locator('astro-island[component-url*="Carousel"]').scrollIntoViewIfNeeded();
      const crash = page.getByRole('alert').filter({ hasText: d['error.title'] });
      await expect(crash).toBeVisible();
      await expect(crash).toContainText(d['error.text']);
      expect(errors.join('\n')).toContain('island crashed');
      // The rest of the page still works.
      await page.getByRole('button', { name: d['header.search'] }).click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await page.keyboard.press('Escape');
      // The button reloads the page.
      const reloaded = page.waitForEvent('load');
      await crash.getByRole('button', { name: d['error.reload'] }).click();
      await reloaded;
      await expect(page.getByRole('alert').filter({ hasText: d['error.title'] })).toBeAttached();
    });
  }
});

test.describe('search', () => {
  /** Opens the header's search dialog, which puts focus in its field. */
  // In the banner: on the search page, Uzbek names its own form's button "Qidirish" too.
  const searchButton = (page: Page, d: Dictionary) => page.getByRole('banner').getByRole('button', { name: d['header.search'] });
  async function openSearch(page: Page, d: Dictionary) {
    await searchButton(page, d).click();
    const dialog = page.getByRole('dialog', { name: d['search.title'] });
    await expect(dialog.getByLabel(d['search.label'])).toBeFocused();
    return dialog;
  }
  const searchPage = (page: Page) => page.locator('[data-search-page]');

  for (const lang of [EN, RU]) {
    test(`finds news in the page language, on a page of its own that can be shared and reached with Back (${lang.label})`, async ({ page, api }) => {
      const d = DICTIONARIES[lang.code];
      const news = (await api.postList(1, lang.number, 1)).items[0]!;
      const word = news.title
        .split(/\s+/)
        .find((w) => w.length > 5)!
        .replace(/[^\p{L}\p{N}]+$/u, '');
      const home = localizePath(lang, '/');
      await page.goto(home);
      const dialog = await openSearch(page, d);
      await dialog.getByLabel(d['search.label']).fill(word);
      // Typing alone does not search: only Enter or the button does (docs/rules.md, Search).
      await expect(page).toHaveURL(new RegExp(`${RegExp.escape(home)}$`));
      await dialog.getByLabel(d['search.label']).press('Enter');
      await expect(page).toHaveURL(new RegExp(`${RegExp.escape(localizePath(lang, '/search'))}\\?q=`));
      const hit = searchPage(page).getByRole('link', { name: news.title });
      await expect(hit).toHaveAttribute('href', localizePath(lang, `/news/${news.id}`));
      // Each result says what it is.
      await expect(searchPage(page).getByRole('listitem').filter({ hasText: news.title })).toContainText(d['search.typeNews']);
      // Opened anew (shared, bookmarked), the address shows the same search.
      await page.reload();
      await expect(searchPage(page).getByLabel(d['search.label'])).toHaveValue(word);
      await hit.click();
      await expect(page).toHaveURL(new RegExp(`${localizePath(lang, `/news/${news.id}`)}$`));
      await page.goBack();
      await expect(searchPage(page).getByRole('link', { name: news.title })).toBeVisible();
    });
  }

  for (const lang of [UZ, RU]) {
    test(`says when nothing is found, and shows the API errorMsg as the heading (${lang.label})`, async ({ page, api }) => {
      const d = DICTIONARIES[lang.code];
      const emptyQuery = await api.search('', lang.number);
      expect(emptyQuery.kind).toBe('message');
      await page.goto(localizePath(lang, '/'));
      const dialog = await openSearch(page, d);
      await dialog.getByLabel(d['search.label']).fill('qwzxqwzx');
      await dialog.getByRole('button', { name: d['search.button'] }).click();
      await expect(searchPage(page).getByRole('heading', { name: t(lang, 'search.nothing', { query: 'qwzxqwzx' }) })).toBeVisible();
      // An empty query from the page's own form: the sample API answers {errorMsg} in the requested language.
      await searchPage(page).getByLabel(d['search.label']).fill('');
      await searchPage(page).getByRole('button', { name: d['search.button'] }).click();
      await expect(searchPage(page).getByRole('heading', { name: emptyQuery.kind === 'message' ? emptyQuery.message : '' })).toBeVisible();
      // The dialog closes on Escape, and focus goes back to its button.
      const again = await openSearch(page, d);
      await page.keyboard.press('Escape');
      await expect(again).toBeHidden();
      await expect(searchButton(page, d)).toBeFocused();
    });
  }

  for (const lang of [RU, EN]) {
    test(`a search nothing can answer is said where the results would be, where it can be read (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      // Neither the API nor the site's own index (tests/e2e/search-fallback.spec.ts).
      await page.route(apiRoute('api/search'), (route) => route.abort('connectionrefused'));
      await page.route(/\/search-index\//, (route) => route.abort('connectionrefused'));
      await page.goto(`${localizePath(lang, '/search')}?q=karakul`);
      const alert = searchPage(page).getByRole('alert');
      await expect(alert).toHaveText(d['search.error']);
      // Nothing stands over the message: the element at its centre is the message itself.
      const covered = await alert.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return !el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
      });
      expect(covered).toBe(false);
    });
  }

  for (const lang of [RU, UZ]) {
    for (const width of [320, 360, 412]) {
      test(`on a ${width} px phone the search button lies inside the dialog and the screen (${lang.label})`, async ({ page }) => {
        const d = DICTIONARIES[lang.code];
        await page.setViewportSize({ width, height: 640 });
        await page.goto(localizePath(lang, '/'));
        const dialog = await openSearch(page, d);
        const box = (await dialog.boundingBox())!;
        const button = (await dialog.getByRole('button', { name: d['search.button'], exact: true }).boundingBox())!;
        expect(button.x).toBeGreaterThanOrEqual(box.x);
        expect(button.x + button.width).toBeLessThanOrEqual(box.x + box.width + 0.5);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
        // The whole label shows: the button is at least as wide as its text.
        expect(await dialog.getByRole('button', { name: d['search.button'], exact: true }).evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true);
      });
    }
  }
});

test.describe('appeal form', () => {
  test.beforeEach(async ({ page }) => {
    await page.route('https://js.hcaptcha.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: HCAPTCHA_STUB }));
  });

  type Field = 'fullName' | 'phone' | 'email' | 'subject' | 'message';
  const LABELS = { fullName: 'appeal.fullName', phone: 'appeal.phone', email: 'appeal.email', subject: 'appeal.subject', message: 'appeal.message' } as const;
  const field = (page: Page, d: Dictionary, f: Field) => page.getByLabel(d[LABELS[f]], { exact: true });
  async function fill(page: Page, d: Dictionary, values: Partial<Record<Field, string>>) {
    await appealFormReady(page);
    for (const [f, value] of Object.entries(values)) await field(page, d, f as Field).fill(value);
  }

  for (const lang of [UZ, RU]) {
    test(`says each rule up front, checks a field when it is left, and needs the captcha (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/murojaat_yuborish'));
      await appealFormReady(page);
      const name = field(page, d, 'fullName');
      // The rule is in each field's description before anything is typed.
      await expect(name).toHaveAccessibleDescription(d['appeal.hintLength']);
      await expect(field(page, d, 'phone')).toHaveAccessibleDescription(d['appeal.hintPhone']);
      await name.fill('Ali');
      // Not at the first keystroke…
      await expect(name).not.toHaveAttribute('aria-invalid', 'true');
      // …but once the field is left, announced with the rule.
      await name.press('Tab');
      await expect(name).toHaveAttribute('aria-invalid', 'true');
      await expect(name).toHaveAccessibleDescription(`${d['appeal.minLength']} ${d['appeal.hintLength']}`);
      await expect(page.locator('[aria-live="polite"]').filter({ hasText: d['appeal.minLength'] })).toHaveCount(1);
      // A phone with letters and an e-mail that is no address are refused in words that say what to write.
      await field(page, d, 'phone').fill('+998 90 ABC-45-67');
      await field(page, d, 'phone').blur();
      await expect(field(page, d, 'phone')).toHaveAccessibleDescription(new RegExp(RegExp.escape(d['appeal.badPhone'])));
      await field(page, d, 'email').fill('not an email address');
      await field(page, d, 'email').blur();
      await expect(field(page, d, 'email')).toHaveAttribute('aria-invalid', 'true');
      await fill(page, d, VALID);
      await expect(name).not.toHaveAttribute('aria-invalid', 'true');
      // The send button never looks or says it is off: pressed before the check, it says what is missing.
      const submit = page.getByRole('button', { name: d['appeal.submit'] });
      await expect(submit).toBeEnabled();
      await submit.click();
      await expect(page.getByText(d['appeal.captchaMissing'])).toBeVisible();
      await page.getByRole('button', { name: /Stub captcha/ }).click();
      await expect(page.getByText(d['appeal.captchaMissing'])).toHaveCount(0);
    });
  }

  for (const lang of [RU, EN]) {
    test(`a refused send lists every problem at the top, each a link to its field, by pointer and by keyboard (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/murojaat_yuborish'));
      await fill(page, d, { phone: '+998 90 ABC-45-67' });
      const box = (await field(page, d, 'fullName').boundingBox())!;
      await page.getByRole('button', { name: d['appeal.submit'] }).click();
      const summary = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: d['appeal.problemTitle'] }) });
      await expect(summary).toBeFocused();
      const links = summary.getByRole('link');
      await expect(links).toHaveText([
        `${d['appeal.fullName']}: ${d['appeal.minLength']}`,
        `${d['appeal.phone']}: ${d['appeal.badPhone']}`,
        `${d['appeal.email']}: ${d['appeal.minLength']}`,
        `${d['appeal.subject']}: ${d['appeal.minLength']}`,
        `${d['appeal.message']}: ${d['appeal.minLength']}`,
        d['appeal.captchaHint'],
      ]);
      // The fields keep their width when they are marked wrong.
      expect((await field(page, d, 'fullName').boundingBox())!.width).toBe(box.width);
      await links.filter({ hasText: d['appeal.subject'] }).click();
      await expect(field(page, d, 'subject')).toBeFocused();
      // A mended field leaves the list at once.
      await field(page, d, 'subject').fill(VALID.subject);
      await field(page, d, 'subject').blur();
      await expect(links).toHaveCount(5);
      // By keyboard: back to the list, Tab to its first link, Enter.
      await summary.focus();
      await page.keyboard.press('Tab');
      await expect(links.first()).toBeFocused();
      await page.keyboard.press('Enter');
      await expect(field(page, d, 'fullName')).toBeFocused();
    });
  }

  for (const lang of [UZ_CYRL, EN]) {
    test(`names the captcha's company once, says what the personal data is for, and gives the other ways in (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/murojaat_yuborish'));
      await appealFormReady(page);
      const form = page.locator('form').filter({ has: page.getByRole('button', { name: d['appeal.submit'] }) });
      expect((await form.innerText()).match(/hCaptcha/g)).toHaveLength(1);
      await expect(page.getByText(d['appeal.personalData'])).toBeVisible();
      const other = page.getByRole('complementary', { name: d['appeal.otherTitle'] });
      await expect(other.getByRole('link', { name: /^\+998/ })).toHaveAttribute('href', /^tel:\+998\d{9}$/);
      await expect(other.getByRole('link', { name: d['link.presidentReception'] })).toHaveAttribute('href', 'https://pm.gov.uz');
      await expect(other.getByRole('link', { name: d['link.appeals'] })).toHaveAttribute('href', 'https://murojaat.gov.uz');
      await expect(other).toContainText(d['trust.hoursValue']);
    });
  }

  for (const [lang, received] of [
    [RU, 'Ваше обращение принято'],
    [EN, 'Your appeal has been received'],
  ] as const) {
    test(`sends the appeal, says so and clears the draft (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/murojaat_yuborish'));
      await fill(page, d, VALID);
      await page.getByRole('button', { name: /Stub captcha/ }).click();
      await page.getByRole('button', { name: d['appeal.submit'] }).click();
      // The confirmation stays in the page, with the appeal's number, and takes focus; the page's heading says
      // it was sent, and the confirmation says what happens next: whom to call with the number, and when.
      const sent = page.getByRole('status', { name: d['appeal.sentTitle'] });
      await expect(sent).toContainText(received);
      await expect(sent).toContainText(/\d+/);
      await expect(sent).toBeFocused();
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(d['appeal.sentTitle']);
      await expect(page.getByText(d['appeal.intro'])).toBeHidden();
      await expect(sent.getByRole('link', { name: /^\+998/ })).toHaveAttribute('href', /^tel:\+998\d{9}$/);
      await expect(sent).toContainText(d['appeal.sentTerms']);
      await page.waitForTimeout(2500);
      await expect(sent).toBeVisible();
      expect(await page.evaluate((key) => [localStorage.getItem(key), sessionStorage.getItem(key)], STORAGE_KEYS.appealDraft)).toEqual([null, null]);
      // Another appeal starts from an empty form.
      await sent.getByRole('button', { name: d['appeal.another'] }).click();
      await expect(field(page, d, 'fullName')).toHaveValue('');
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(d['appeal.title']);
    });
  }

  for (const lang of [EN, UZ_CYRL]) {
    test(`keeps the draft across a reload and when the server cannot be reached (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/murojaat_yuborish'));
      await fill(page, d, VALID);
      await page.reload();
      await expect(page.getByText(d['appeal.draftRestored'])).toBeVisible();
      await expect(field(page, d, 'message')).toHaveValue(VALID.message);
      await page.route(apiRoute('api/apply'), (route) => route.abort('connectionrefused'));
      // A restored draft does not load hCaptcha by itself: the citizen asks for the check.
      await page.getByRole('button', { name: d['appeal.captchaLoad'] }).click();
      await page.getByRole('button', { name: /Stub captcha/ }).click();
      await page.getByRole('button', { name: d['appeal.submit'] }).click();
      await expect(toastWith(page, d['appeal.notSent'])).toBeVisible();
      await expect(field(page, d, 'subject')).toHaveValue(VALID.subject);
      await page.reload();
      await expect(field(page, d, 'fullName')).toHaveValue(VALID.fullName);
    });
  }

  for (const lang of [UZ_CYRL, RU]) {
    test(`a 400 from the server shows the length warning and keeps the text (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.route(apiRoute('api/apply'), (route) => route.fulfill({ status: 400, contentType: 'application/json', body: '{"errorMsg":"bad"}' }));
      await page.goto(localizePath(lang, '/murojaat_yuborish'));
      await fill(page, d, VALID);
      await page.getByRole('button', { name: /Stub captcha/ }).click();
      await page.getByRole('button', { name: d['appeal.submit'] }).click();
      await expect(toastWith(page, d['appeal.tooShort'])).toBeVisible();
      await expect(field(page, d, 'email')).toHaveValue(VALID.email);
    });
  }
  for (const lang of [UZ, EN]) {
    test(`a restored draft says how long it is kept and can be cleared; after 24 hours it is gone (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/murojaat_yuborish'));
      await fill(page, d, VALID);
      await page.reload();
      const notice = page.getByRole('status').filter({ hasText: d['appeal.draftRestored'] });
      await expect(notice).toContainText(d['appeal.draftPrivacy']);
      await expect(field(page, d, 'phone')).toHaveValue(VALID.phone);
      await notice.getByRole('button', { name: d['appeal.draftClear'] }).click();
      await expect(page.getByText(d['appeal.draftCleared'])).toBeVisible();
      for (const f of ['fullName', 'phone', 'email', 'subject', 'message'] as const) await expect(field(page, d, f)).toHaveValue('');
      expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.appealDraft)).toBeNull();

      // A draft saved more than a day ago (a shared computer, the next citizen): not shown, and removed.
      await page.evaluate(([key, draft]) => localStorage.setItem(key, JSON.stringify({ ...draft, savedAt: Date.now() - 25 * 3600_000 })), [
        STORAGE_KEYS.appealDraft,
        VALID,
      ] as const);
      await page.reload();
      await appealFormReady(page);
      await expect(field(page, d, 'fullName')).toHaveValue('');
      await expect(page.getByText(d['appeal.draftRestored'])).toHaveCount(0);
      expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.appealDraft)).toBeNull();
    });
  }
  for (const lang of [RU, UZ]) {
    test(`on a shared computer the draft goes with the tab unless the citizen asks to keep it on the device (${lang.label})`, async ({ page, context }) => {
      const d = DICTIONARIES[lang.code];
      const stored = (p: typeof page) => p.evaluate((key) => ({ device: localStorage.getItem(key), tab: sessionStorage.getItem(key) }), STORAGE_KEYS.appealDraft);
      await page.goto(localizePath(lang, '/murojaat_yuborish'));
      await fill(page, d, VALID);
      const keep = page.getByRole('checkbox', { name: d['appeal.keepDraft'] });
      await expect(keep).not.toBeChecked();
      await expect(page.getByText(d['appeal.keepDraftHint'])).toBeVisible();
      // A reload in the same tab (a lost connection, a mistaken tap) keeps the text...
      await page.reload();
      await expect(field(page, d, 'message')).toHaveValue(VALID.message);
      expect((await stored(page)).device).toBeNull();
      // ...but the next person at the computer, in a new tab, finds an empty form.
      const next = await context.newPage();
      await next.goto(localizePath(lang, '/murojaat_yuborish'));
      await appealFormReady(next);
      await expect(field(next, d, 'fullName')).toHaveValue('');
      await expect(next.getByText(d['appeal.draftRestored'])).toHaveCount(0);
      await next.close();

      // Asked to keep it on the device: it is there, and in no other place.
      await keep.check();
      expect(await stored(page)).toEqual({ device: expect.stringContaining(VALID.message), tab: null });
      const later = await context.newPage();
      await later.goto(localizePath(lang, '/murojaat_yuborish'));
      await expect(later.getByText(d['appeal.draftRestored'])).toBeVisible();
      await expect(field(later, d, 'message')).toHaveValue(VALID.message);
      const keptThere = later.getByRole('checkbox', { name: d['appeal.keepDraft'] });
      await expect(keptThere).toBeChecked();
      // Changing one's mind takes it off the device at once (keyboard: Space on the box).
      await keptThere.focus();
      await later.keyboard.press('Space');
      await expect(keptThere).not.toBeChecked();
      expect((await stored(later)).device).toBeNull();
      await later.close();
    });
  }
});

test.describe('when the browser blocks site storage', () => {
  test.beforeEach(async ({ page }) => {
    await page.route('https://js.hcaptcha.com/**', (route) => route.fulfill({ contentType: 'text/javascript', body: HCAPTCHA_STUB }));
    // As Chromium does with "Block third-party cookies and site data": merely reading localStorage throws.
    await page.addInitScript(() =>
      Object.defineProperty(window, 'localStorage', {
        configurable: true,
        get() {
          throw new DOMException("Failed to read the 'localStorage' property from 'Window': Access is denied for this document.", 'SecurityError');
        },
      }),
    );
  });

  for (const [lang, received] of [
    [RU, 'Ваше обращение принято'],
    [EN, 'Your appeal has been received'],
  ] as const) {
    test(`the special-opportunities panel works and an appeal can be sent (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(localizePath(lang, '/murojaat_yuborish'));
      await page.getByRole('button', { name: d['header.accessibility'] }).click();
      const panel = page.getByRole('dialog', { name: d['a11y.title'] });
      await panel.getByRole('button', { name: d['a11y.contrast'] }).click();
      await expect(page.locator('body')).toHaveClass(/mode-contrast/);
      await page.keyboard.press('Escape');
      await expect(panel).toBeHidden();

      await appealFormReady(page);
      // In high contrast the disabled send button is readable: its text against its background at 4.5:1 or more.
      const ratio = await page.getByRole('button', { name: d['appeal.submit'] }).evaluate((b) => {
        const style = getComputedStyle(b);
        const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
        const lum = ([r, g, bl]: number[]) =>
          [r!, g!, bl!].map((v) => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)).reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i]!, 0);
        const [a, c] = [lum(rgb(style.color)), lum(rgb(style.backgroundColor))];
        return (Math.max(a, c) + 0.05) / (Math.min(a, c) + 0.05);
      });
      expect(ratio).toBeGreaterThanOrEqual(4.5);
      const label = (k: 'appeal.fullName' | 'appeal.phone' | 'appeal.email' | 'appeal.subject' | 'appeal.message') => page.getByLabel(d[k], { exact: true });
      await label('appeal.fullName').fill(VALID.fullName);
      await label('appeal.phone').fill(VALID.phone);
      await label('appeal.email').fill(VALID.email);
      await label('appeal.subject').fill(VALID.subject);
      await label('appeal.message').fill(VALID.message);
      await page.getByRole('button', { name: /Stub captcha/ }).click();
      await page.getByRole('button', { name: d['appeal.submit'] }).click();
      await expect(page.getByRole('status', { name: d['appeal.sentTitle'] })).toContainText(received);
      await expect(page.getByText(d['error.title'])).toHaveCount(0);
      expect(errors).toEqual([]);
    });
  }
});

test.describe('special opportunities', () => {
  for (const lang of [EN, UZ]) {
    test(`the chosen look applies at once and on every page, before it paints (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.goto(localizePath(lang, '/news'));
      const button = page.getByRole('button', { name: d['header.accessibility'] });
      await button.click();
      const panel = page.getByRole('dialog', { name: d['a11y.title'] });
      await expect(panel).toBeVisible();
      await panel.getByRole('button', { name: d['a11y.grayscale'] }).click();
      await panel.getByRole('button', { name: d['a11y.zoomIn'] }).click();
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
      await page.goto(localizePath(lang, '/gallery/video'));
      await expect.poll(() => classes[0]).toMatch(/mode-grayscale.*zoom-1|zoom-1.*mode-grayscale/);
      // Normal mode takes the classes off again; the close icon closes the panel.
      await page.getByRole('button', { name: d['header.accessibility'] }).click();
      await page.getByRole('button', { name: d['a11y.normal'] }).click();
      await expect(page.locator('body')).not.toHaveClass(/mode-/);
      await page.getByRole('button', { name: d['a11y.close'] }).click();
      await expect(page.getByRole('dialog', { name: d['a11y.title'] })).toBeHidden();
    });
  }
});

test.describe('special opportunities on a small phone', () => {
  for (const [lang, width, height] of [
    [RU, 360, 640],
    [UZ, 320, 568],
  ] as const) {
    test(`at the largest text the size buttons stay in sight, the size can be undone, and focus stays on the button pressed (${lang.label}, ${width}×${height})`, async ({
      page,
    }) => {
      const d = DICTIONARIES[lang.code];
      await page.setViewportSize({ width, height });
      await page.goto(localizePath(lang, '/'));
      await headerReady(page);
      await page.getByRole('button', { name: d['header.accessibility'] }).click();
      const panel = page.getByRole('dialog', { name: d['a11y.title'] });
      const bigger = panel.getByRole('button', { name: d['a11y.zoomIn'] });
      const smaller = panel.getByRole('button', { name: d['a11y.zoomOut'] });
      for (let i = 0; i < 3; i++) await bigger.click();
      await expect(page.locator('body')).toHaveClass(/zoom-3/);
      await expect(bigger).toBeFocused();
      await expect(bigger).toHaveAttribute('aria-disabled', 'true');
      // Pressed again at the limit, by keyboard: nothing changes and focus stays.
      await page.keyboard.press('Enter');
      await expect(page.locator('body')).toHaveClass(/zoom-3/);
      await expect(bigger).toBeFocused();
      // Both size buttons are on the screen, not covered, and the panel fits it.
      for (const button of [bigger, smaller]) {
        const box = (await button.boundingBox())!;
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(height);
        expect(box.x + box.width).toBeLessThanOrEqual(width);
      }
      expect((await panel.boundingBox())!.y + (await panel.boundingBox())!.height).toBeLessThanOrEqual(height);
      for (let i = 0; i < 3; i++) await smaller.click();
      await expect(page.locator('body')).not.toHaveClass(/zoom-/);
      await expect(smaller).toBeFocused();
    });
  }

  for (const lang of [RU, UZ]) {
    test(`in greyscale the sticky bar stays at the top of the screen (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.setViewportSize({ width: 360, height: 640 });
      await page.goto(localizePath(lang, '/news'));
      await headerReady(page);
      await page.getByRole('button', { name: d['header.accessibility'] }).click();
      await page.getByRole('button', { name: d['a11y.grayscale'] }).click();
      await page.keyboard.press('Escape');
      await page.mouse.wheel(0, 1500);
      await expect(page.locator('[data-nav-bar]')).toHaveClass(/is-stuck/);
      await expect.poll(async () => (await page.locator('[data-nav-bar]').boundingBox())!.y).toBe(0);
    });
  }
});

test.describe('the phone menu', () => {
  for (const lang of [RU, UZ]) {
    test(`opened at the top of the page, its toggle stays visible and closes it; Tab goes round the menu (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      await page.setViewportSize({ width: 360, height: 640 });
      await page.goto(localizePath(lang, '/'));
      const toggle = page.getByRole('button', { name: d['nav.menu'] });
      await toggle.click();
      const close = page.getByRole('button', { name: d['nav.menu'], expanded: true });
      await expect(close).toBeVisible();
      // Nothing of the overlay lies over the toggle: a tap there is a tap on it.
      const covered = await close.evaluate((el) => {
        const r = el.getBoundingClientRect();
        return !el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
      });
      expect(covered).toBe(false);
      // Tab from the last group comes back to the toggle, never into the page behind.
      const groups = page.locator('#site-menu summary');
      await groups.last().focus();
      await page.keyboard.press('Tab');
      await expect(close).toBeFocused();
      await page.keyboard.press('Shift+Tab');
      await expect(groups.last()).toBeFocused();
      await close.click();
      await expect(page.locator('#site-menu')).toBeHidden();
      await expect(toggle).toBeVisible();
    });
  }
});

test.describe('carousel', () => {
  for (const [lang, path] of [
    [RU, '/ekoturizm'],
    [UZ_CYRL, '/sayyorlik_sayohati'],
  ] as const) {
    test(`wraps around and ignores clicks while a slide moves (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      const slide = (n: number) => d['carousel.slide'].replace('{n}', String(n)).replace('{total}', '3');
      await page.goto(localizePath(lang, path));
      const status = page.locator('.carousel__controls p');
      await expect(status).toContainText(slide(1));
      const next = page.getByRole('button', { name: d['carousel.next'] });
      await page.getByRole('button', { name: d['carousel.previous'] }).click();
      await expect(status).toContainText(slide(3));
      await expect(page.locator('.carousel[data-animating]')).toHaveCount(0);
      // Two clicks in the same moment: the second lands while the slide moves and is ignored.
      await next.evaluate((button: HTMLButtonElement) => {
        button.click();
        button.click();
      });
      await expect(status).toContainText(slide(1));
      await expect(page.locator('.carousel[data-animating]')).toHaveCount(0);
      await next.click();
      await expect(status).toContainText(slide(2));
    });
  }

  test('changes slides at once with reduced motion, so no click is ignored', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/en/ekoturizm');
    const d = DICTIONARIES.en;
    const next = page.getByRole('button', { name: d['carousel.next'] });
    await expect(next).toBeEnabled();
    await next.evaluate((button: HTMLButtonElement) => {
      button.click();
      button.click();
    });
    await expect(page.locator('.carousel__controls p')).toContainText(d['carousel.slide'].replace('{n}', '3').replace('{total}', '3'));
    await expect(page.locator('.carousel[data-animating]')).toHaveCount(0);
  });
});

test.describe('layout at the largest text size', () => {
  for (const path of ['/ru/', '/uz-cyrl/news', '/en/murojaat_yuborish', '/ru/boshqaruv_apparati_tuzilmasi']) {
    test(`${path} does not scroll sideways at 320 px`, async ({ page }) => {
      await page.setViewportSize({ width: 320, height: 700 });
      await page.addInitScript((key) => localStorage.setItem(key, JSON.stringify({ mode: 'normal', zoom: 3 })), STORAGE_KEYS.a11y);
      await page.goto(path);
      await expect(page.locator('body')).toHaveClass(/zoom-3/);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).toBeLessThanOrEqual(0);
    });
  }
});

test.describe('surveys published or taken down after the build', () => {
  for (const lang of [RU, UZ_CYRL]) {
    test(`a new survey appears and votes, and one taken down goes, once the list is read from the API (${lang.label})`, async ({ page }) => {
      const d = DICTIONARIES[lang.code];
      const title = `${d['home.surveys']}: 2026`;
      let taken = '';
      // The API's list as it is after the build: the first survey gone, a new one on top.
      await page.route(apiRoute('api/survey/getAll'), async (route) => {
        const response = await route.fetch();
        const body = (await response.json()) as { data: Record<string, unknown>[] };
        const [first, ...rest] = body.data;
        taken = String(first!.title);
        await route.fulfill({ response, json: { ...body, data: [{ ...first, id: 9001, title, berifDescription: 'Brief', likeCount: 7, disLikeCount: 2 }, ...rest] } });
      });
      // The sample API has no survey 9001: its answer to the vote is the API's answer to a known one.
      await page.route(apiRoute('api/survey/answer'), async (route) => route.fulfill({ response: await route.fetch({ postData: JSON.stringify({ surveyId: 1, isLike: true }) }) }));
      await page.goto(localizePath(lang, '/'));
      const fresh = page.locator('.survey').filter({ hasText: title });
      await fresh.scrollIntoViewIfNeeded();
      await expect(fresh.getByRole('heading', { level: 3 })).toHaveText(title);
      await expect(page.locator('.survey').first()).toHaveText(new RegExp(RegExp.escape(title)));
      await expect(page.locator('.survey').filter({ hasText: taken })).toHaveCount(0);
      const like = fresh.getByRole('button', { name: new RegExp(d['survey.like']) });
      await expect(like).toContainText('7');
      await like.click();
      await expect(like).toHaveAttribute('aria-pressed', 'true');
      await expect(fresh.getByRole('status')).toHaveText(d['survey.voted']);
      // The votes' script may read the list again as the test ends; its handler must not then read a closed page's answer.
      await page.unrouteAll({ behavior: 'ignoreErrors' });
    });
  }
});

test.describe('survey counts', () => {
  for (const lang of [UZ, RU]) {
    test(`are refreshed from the API when the votes' script runs, and the built ones stay if that fails (${lang.label})`, async ({ page, api }) => {
      const d = DICTIONARIES[lang.code];
      const [before, after] = d['survey.dislikes'].split('{n}').map((t) => RegExp.escape(t));
      // The third survey's dislikes: no other test votes there. A vote cast after the build.
      const survey = (await api.surveys(lang.number))[2]!;
      await api.answerSurvey(survey.id, false, lang.number);
      const now = (await api.surveys(lang.number))[2]!.dislikes;
      // The API cannot be reached: the count built into the page stays, and it is older than the API's.
      let asked = 0;
      await page.route(apiRoute('api/survey/getAll'), (route) => {
        asked++;
        return route.abort('connectionrefused');
      });
      await page.goto(localizePath(lang, '/'));
      const card = page.locator('.survey').filter({ hasText: survey.title });
      await card.scrollIntoViewIfNeeded();
      await surveyVotesReady(page);
      await expect.poll(() => asked).toBe(1);
      const shown = card.locator('.survey__count').nth(1);
      await expect(shown).toHaveText(new RegExp(`^${before}\\d+${after}$`, 'u'));
      const built = Number((await shown.innerText()).replace(/\D/g, ''));
      expect(built).toBeLessThan(now);

      // It can: the count of today shows.
      await page.unroute(apiRoute('api/survey/getAll'));
      await page.reload();
      await card.scrollIntoViewIfNeeded();
      await expect.poll(async () => Number((await card.locator('.survey__count').nth(1).innerText()).replace(/\D/g, ''))).toBeGreaterThanOrEqual(now);
    });
  }
});
