/** The web server's rules follow the language table, with no other edit (scripts/serving/server-config.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { exampleNginxConfig, nginxConfig } from '../../scripts/serving/nginx-config.ts';
import { GENERATED_FILES, redirectsFile, SITE_TABLES, varnishBlocks, withBlocks } from '../../scripts/serving/server-config.ts';
import { cacheControl, STALE_WHILE_REVALIDATE_SECONDS } from '../../scripts/serving/cache-rules.ts';

describe('server rules made from the tables', () => {
  it('the committed public/_redirects, nginx.conf and the generated blocks of varnish.vcl and _headers are what the tables give (else: npm run server-config)', () => {
    expect(readFileSync('public/_redirects', 'utf8')).toBe(redirectsFile());
    expect(readFileSync('deploy/nginx.conf', 'utf8')).toBe(exampleNginxConfig());
    for (const { file, blocks } of GENERATED_FILES) {
      const text = readFileSync(file, 'utf8');
      expect(withBlocks(file, text, blocks()), file).toBe(text);
    }
  });

  it('a file that lost a generated block is named, not silently left as it was', () => {
    expect(() => withBlocks('deploy/varnish.vcl', 'sub vcl_deliver {}\n', varnishBlocks())).toThrow(/deploy\/varnish\.vcl has no "# BEGIN language error pages/);
  });

  it('a fifth language needs no other edit', () => {
    const tables = { ...SITE_TABLES, prefixes: [...SITE_TABLES.prefixes, 'kaa'] };
    expect(redirectsFile(tables)).toContain('/kaa/* /kaa/404/index.html 404');
    const blocks = nginxConfig([{ name: 'qorakul', host: 'qorakul.uz', names: ['qorakul.uz'], basePath: '', releasesDir: '/srv/r', webhookPort: '8790' }], tables);
    expect(blocks).toContain('location /kaa/ {');
    expect(varnishBlocks(tables)['language error pages']).toContain('"^/((uz-cyrl|ru|en|kaa)/)?500"');
    expect(blocks).toContain('error_page 404 /kaa/404/index.html;');
  });
});

describe('the edge follows the same cache rules', () => {
  it("deploy/varnish.vcl serves a page past its time exactly as long as the pages' stale-while-revalidate", () => {
    const vcl = readFileSync('deploy/varnish.vcl', 'utf8');
    expect(cacheControl('/ru/news', 'ru/news/index.html')).toContain(`stale-while-revalidate=${STALE_WHILE_REVALIDATE_SECONDS}`);
    expect(vcl).toContain(`set req.grace = ${STALE_WHILE_REVALIDATE_SECONDS}s;`);
  });
});
