/**
 * One product for every district: a district is a folder (districts/<name>/), checked when the build
 * reads it, and a second district built from a folder of the tests' own, under a path of a shared domain
 * (BASE_PATH), shows its own names in every language, nothing of Qorakul's in any file it writes, and
 * refers to nothing outside its path.
 */
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import type { DatabaseSync } from 'node:sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listFiles } from '../../scripts/lib/files.ts';
import type { SampleApi } from '../../scripts/sample-api/server.ts';
import { DistrictError, loadDistrict } from '../../src/district/district.ts';
import { drawingOf } from '../../src/district/emblem.ts';
import { startTestApi } from '../helpers/sample-api.ts';

const run = promisify(execFile);
const FIXTURES = 'tests/fixtures/districts';
const WORK = '.cache/test-districts';

/** A copy of the test district in a folder of its own, with `change` made to its identity. */
/** The parts of a district.json these cases break. */
interface Identity {
  texts: Record<string, Record<string, string>>;
  contact: Record<string, string>;
  region: { site: string };
  pictures: Record<string, string>;
  tourism: { slides: unknown[] };
  ecology: { figures: { file: string }[] };
  map: { lat: unknown };
}

function brokenDistrict(change: (identity: Identity) => void): string {
  const root = mkdtempSync(join(tmpdir(), 'district-'));
  cpSync(join(FIXTURES, 'chust'), join(root, 'districts', 'chust'), { recursive: true });
  const file = join(root, 'districts', 'chust', 'district.json');
  const identity = JSON.parse(readFileSync(file, 'utf8')) as Identity;
  change(identity);
  writeFileSync(file, JSON.stringify(identity));
  return root;
}

describe('a district folder is checked when the build reads it', () => {
  it('reads the test district', () => {
    const chust = loadDistrict('chust', FIXTURES.replace(/\/districts$/, ''));
    expect(chust.texts.ru['site.name']).toBe('Хокимият Чустского района');
  });

  it.each([
    ['a text missing in one language', (d: Identity) => delete d.texts.ru!['site.name'], /texts\.ru\.site\.name: /],
    ['a language missing', (d: Identity) => delete d.texts.en, /texts\.en: /],
    ['a helpline that is no phone number', (d: Identity) => (d.contact.helpline = 'call us'), /contact\.helpline: must be a phone number beginning with \+998/],
    ['a site that is not https', (d: Identity) => (d.region.site = 'http://namangan.example'), /region\.site: must begin with https:\/\//],
    ['a picture outside the folder', (d: Identity) => (d.pictures.emblem = '../../etc/passwd.svg'), /pictures\.emblem: must be the name of an SVG file beside district\.json/],
    ['a field it does not know', (d: Identity) => (d.contact.fax = '+998 69 000-00-00'), /contact\.fax: /],
    ['two carousel pictures', (d: Identity) => d.tourism.slides.pop(), /tourism\.slides: must hold the carousel's three pictures/],
  ])('stops at %s, naming the file and the field', (_what, change, message) => {
    const root = brokenDistrict(change);
    expect(() => loadDistrict('chust', root)).toThrow(DistrictError);
    expect(() => loadDistrict('chust', root)).toThrow(new RegExp(`districts/chust/district\\.json is not a complete district identity:[\\s\\S]*${message.source}`));
  });

  it('stops at a picture the identity names that is not in the folder, and at a folder that is not there', () => {
    const root = brokenDistrict((d) => (d.ecology.figures[0]!.file = 'yoq.svg'));
    expect(() => loadDistrict('chust', root)).toThrow(/names the picture yoq\.svg, which is not in/);
    expect(() => loadDistrict('nowhere', root)).toThrow(/districts\/nowhere\/district\.json does not exist: make the district's folder with `npm run new-district -- nowhere`/);
    expect(() => loadDistrict('../etc', root)).toThrow(/is no district folder name/);
  });

  it('npm run build stops before it pulls anything, saying which file and field', async () => {
    const root = brokenDistrict((d) => (d.map.lat = 'north'));
    const failed = await run(process.execPath, ['scripts/build.ts'], {
      env: { ...process.env, SITE_DISTRICT: 'chust', DISTRICTS_DIR: join(root, 'districts'), API_BASE: 'http://127.0.0.1:9' },
    }).catch((e: { code: number; stderr: string }) => e);
    expect('code' in failed && failed.code).toBe(1);
    expect((failed as { stderr: string }).stderr).toMatch(
      /Build failed: .*districts\/chust\/district\.json is not a complete district identity:\n {2}map\.lat: must be a latitude/,
    );
  });
});

describe("the district's emblem, drawn inline in every header", () => {
  it('keeps the shapes and paint of a drawing and nothing else', () => {
    expect(
      drawingOf(
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48" onload="x()"><title>Gerb</title><g fill="rgb(10,79,143)"><circle cx="24" cy="24" r="23"/></g></svg>',
      ),
    ).toBe('<svg viewBox="0 0 48 48"><g fill="rgb(10,79,143)"><circle cx="24" cy="24" r="23"></circle></g></svg>');
  });

  it.each([
    [
      'a handler glued to the tag name',
      '<svg viewBox="0 0 1 1"><rect/onclick="alert(1)"/><rect x="1"onclick="alert(1)"/></svg>',
      '<svg viewBox="0 0 1 1"><rect></rect><rect x="1"></rect></svg>',
    ],
    [
      'HTML inside a description',
      '<svg viewBox="0 0 1 1"><desc><img src="x" onerror="alert(1)"/></desc><circle r="1"/></svg>',
      '<svg viewBox="0 0 1 1"><circle r="1"></circle></svg>',
    ],
    ['a redirect', '<svg viewBox="0 0 1 1"><meta http-equiv="refresh" content="0;url=https://evil.example"/></svg>', '<svg viewBox="0 0 1 1"></svg>'],
    [
      'a link, a reference out and a script',
      '<svg viewBox="0 0 1 1"><a href="https://evil.example"><use href="#x"/></a><rect fill="url(https://evil.example/x)"/><script>alert(1)</script></svg>',
      '<svg viewBox="0 0 1 1"><rect></rect></svg>',
    ],
  ])('drops %s', (_what, svg, drawn) => {
    expect(drawingOf(svg)).toBe(drawn);
  });

  it('refuses a file that is not one <svg> with a viewBox', () => {
    for (const svg of [
      '</svg><img src=x><svg viewBox="0 0 1 1">',
      '<svg viewBox="0 0 1 1"></svg><svg viewBox="0 0 1 1"></svg>',
      '<svg><circle r="1"/></svg>',
      '<html><body>x</body></html>',
    ]) {
      expect(drawingOf(svg), svg).toBeNull();
    }
  });
});

describe('a new district in minutes', () => {
  it('npm run new-district makes a folder with every field to fill and says what is missing; rebuild refuses it until none is', async () => {
    const root = mkdtempSync(join(tmpdir(), 'new-district-'));
    const env = { ...process.env, DISTRICTS_DIR: join(root, 'districts') };
    const made = await run(process.execPath, ['scripts/new-district.ts', 'yangi-tuman'], { env });
    expect(made.stdout).toContain(`Made ${root}/districts/yangi-tuman/ with every field to fill in`);
    expect(made.stdout).toMatch(/Still to fill in \(\d+\)/);
    for (const field of ['texts.uz-latn.site.name', 'texts.ru.footer.addressText', 'contact.helpline', 'region.population', 'map.lat', 'pictures.emblem', 'server.names.0']) {
      expect(made.stdout).toContain(`  ${field}\n`);
    }
    // Every field is there and valid, so the site can be looked at while it is filled in.
    const identity = loadDistrict('yangi-tuman', root);
    expect(identity.texts.en['site.name']).toMatch(/^FILL IN: /);
    const refused = await run(process.execPath, ['scripts/rebuild.ts'], {
      env: {
        ...env,
        SITE_DISTRICT: 'yangi-tuman',
        API_BASE: 'http://127.0.0.1:9',
        SITE_URL: 'https://yangi.example',
        HCAPTCHA_SITEKEY: 'key',
        RELEASES_DIR: join(root, 'releases'),
      },
    }).catch((e: { code: number; stderr: string; stdout: string }) => e);
    expect('code' in refused && refused.code).toBe(2);
    expect(`${(refused as { stderr: string }).stderr}`).toMatch(
      /yangi-tuman\/ still holds \d+ placeholder\(s\) \(texts\.uz-latn\.site\.name, .*\); refusing to publish\. `npm run new-district -- yangi-tuman` lists them/,
    );
  });
});

/** Qorakul in every spelling the sample's texts and the site's code have used, its region, its contacts, its map point. */
const QORAKUL = /qorakul|qorakol|qorako[ʻ'‘`]l|қоракўл|каракул|karakul|buxoro|bukhara|бухоро|бухар|592-10-01|39\.4990|63\.8530/i;

/** The sample API's content told of Chust instead: the test is of what the site writes, not of the sample's news. */
function renameSampleDistrict(db: DatabaseSync): void {
  const words: [RegExp, string][] = [
    [/Qorako[ʻ'‘`]?l|Qorakul|Qorakol|Karakul/gi, 'Chust'],
    [/Қоракўл/gi, 'Чуст'],
    [/Каракул\p{L}*/giu, 'Чуст'],
    [/Buxoro|Bukhara/gi, 'Namangan'],
    [/Бухоро|Бухар\p{L}*/giu, 'Наманган'],
  ];
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'search_index%' AND name NOT LIKE 'sqlite%'").all() as { name: string }[];
  for (const { name } of tables) {
    const columns = (db.prepare(`PRAGMA table_info(${name})`).all() as { name: string; type: string }[]).filter((c) => c.type === 'TEXT').map((c) => c.name);
    if (!columns.length) continue;
    const rows = db.prepare(`SELECT rowid AS r, ${columns.join(', ')} FROM ${name}`).all() as Record<string, unknown>[];
    for (const row of rows) {
      const values = columns.map((c) => (typeof row[c] === 'string' ? words.reduce((text, [from, to]) => text.replace(from, to), row[c] as string) : row[c]));
      db.prepare(`UPDATE ${name} SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE rowid = ?`).run(...(values as string[]), row.r as number);
    }
  }
}

describe('a second district, under a path of a shared domain', () => {
  let api: SampleApi;
  const out = `${WORK}/site`;
  beforeAll(async () => {
    await rm(WORK, { recursive: true, force: true });
    api = await startTestApi('districts');
    renameSampleDistrict(api.db);
    await run(process.execPath, ['scripts/build.ts'], {
      env: {
        ...process.env,
        SITE_DISTRICT: 'chust',
        DISTRICTS_DIR: FIXTURES,
        API_BASE: api.url,
        SITE_URL: 'https://gov.example',
        BASE_PATH: '/chust',
        OUT_DIR: out,
        CONTENT_DIR: `${WORK}/content`,
        PICTURE_DIR: `${WORK}/pictures`,
        DOCUMENT_DIR: `${WORK}/documents`,
        ASTRO_CACHE_DIR: `${WORK}/astro`,
        COMPRESS_CACHE_DIR: `${WORK}/compressed`,
      },
      maxBuffer: 64 * 1024 * 1024,
    });
  }, 600_000);
  afterAll(async () => {
    await api.close();
    await rm(WORK, { recursive: true, force: true });
  });

  it('has no trace of Qorakul in any file it wrote: pages, scripts, styles, feeds, sitemap, service worker, headers', async () => {
    const files = listFiles(out).filter((f) => !/\.(br|gz|webp|png|jpg|pdf|xlsx)$/.test(f));
    expect(files.length).toBeGreaterThan(500);
    const traces = files.flatMap((f) => {
      // The search call's language header is named so by the API's contract (src/api/client.ts), whichever district calls it.
      const m = QORAKUL.exec(readFileSync(f, 'utf8').replaceAll('langTypeQorakul', ''));
      return m ? [`${relative(out, f)}: ${m[0]}`] : [];
    });
    expect(traces).toEqual([]);
    // What a device keeps is the district's own: its storage keys and cache names are made from its short name.
    const scripts = files.filter((f) => f.includes('/_astro/') && f.endsWith('.js')).map((f) => readFileSync(f, 'utf8'));
    expect(scripts.filter((js) => /[`"']chust[`"']/.test(js)).length, "the short name in the pages' scripts").toBeGreaterThan(0);
    expect(scripts.some((js) => js.includes('-hokimligi:'))).toBe(true);
    expect(readFileSync(join(out, 'sw.js'), 'utf8')).toMatch(/chust-pages|[`"']chust[`"']/);
  });

  it("refers to nothing outside its path: links, assets, pictures, feeds, sitemap, service worker, static hosts' files", async () => {
    const files = listFiles(out);
    const outside: string[] = [];
    const note = (file: string, ref: string) => outside.push(`${relative(out, file)}: ${ref}`);
    for (const file of files.filter((f) => f.endsWith('.html'))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/\s(?:href|src|action|srcset|poster|component-url|renderer-url|data-[\w-]+)="(\/[^"]*)"/g)) {
        if (!/^\/chust(?:\/|$)/.test(m[1]!)) note(file, m[1]!);
      }
      for (const m of readFileSync(file, 'utf8').matchAll(/content="0; url=([^"]*)"/g)) if (!m[1]!.startsWith('/chust/')) note(file, m[1]!);
    }
    for (const file of files.filter((f) => /\.xml$/.test(f))) {
      for (const m of readFileSync(file, 'utf8').matchAll(/<(?:loc|link)>([^<]*)</g)) if (!m[1]!.startsWith('https://gov.example/chust/')) note(file, m[1]!);
    }
    for (const m of readFileSync(join(out, 'sw.js'), 'utf8').matchAll(/url:"([^"]*)"/g)) if (!m[1]!.startsWith('/chust/')) note(join(out, 'sw.js'), m[1]!);
    for (const name of ['_redirects', '_headers']) {
      for (const line of readFileSync(join(out, name), 'utf8')
        .split('\n')
        .filter((l) => l.startsWith('/')))
        if (!line.startsWith('/chust/')) note(join(out, name), line);
    }
    expect(outside).toEqual([]);
    const home = readFileSync(join(out, 'ru', 'index.html'), 'utf8');
    expect(home).toContain('<link rel="canonical" href="https://gov.example/chust/ru/">');
    expect(home).toContain('hreflang="uz-Latn" href="https://gov.example/chust/"');
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toContain('Sitemap: https://gov.example/chust/sitemap-index.xml');
    expect(readFileSync(join(out, '_redirects'), 'utf8')).toContain('/chust/ru/* /chust/ru/404/index.html 404');
  });

  it("publishes an editor's link from the site's root under its path", () => {
    const post = readFileSync(join(out, 'ru', 'news', '118', 'index.html'), 'utf8');
    expect(post).toMatch(/<a href="\/chust\/news\/99999" data-editor-link/);
  });

  it('shows its own names, contacts, map and pictures in every language', () => {
    const chust = JSON.parse(readFileSync(join(FIXTURES, 'chust', 'district.json'), 'utf8'));
    for (const [prefix, code] of [
      ['', 'uz-latn'],
      ['uz-cyrl/', 'uz-cyrl'],
      ['ru/', 'ru'],
      ['en/', 'en'],
    ] as const) {
      const home = readFileSync(join(out, prefix, 'index.html'), 'utf8');
      expect(home).toContain(`<title>${chust.texts[code]['site.name']}`);
      expect(home).toContain(chust.texts[code]['footer.addressText']);
      expect(home).toContain('href="tel:+998694120000"');
      expect(home).toContain('https://www.instagram.com/chust_example');
      expect(home).toContain('marker=41.0030%2C71.2370');
      // The emblem, drawn inline from the folder's own file.
      expect(home).toContain('<path d="M12 34l12-20 12 20z" fill="#fff"></path>');
      const departments = readFileSync(join(out, prefix, 'regionaldepartments', 'index.html'), 'utf8');
      for (const unit of chust.region.units) expect(departments).toContain(unit.name[code]);
    }
    expect(readFileSync(join(out, 'favicon.svg'), 'utf8')).toBe(readFileSync(join(FIXTURES, 'chust', 'icon.svg'), 'utf8'));
    expect(readFileSync(join(out, 'illustrations', 'tog.svg'), 'utf8')).toContain('#5b7f4f');
  });
});
