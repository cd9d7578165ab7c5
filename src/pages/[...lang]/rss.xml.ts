/** /rss.xml, /ru/rss.xml …: the latest news of each language as an RSS feed. */
import rss from '@astrojs/rss';
import type { APIContext } from 'astro';
import type { PostSummary } from '../../api/types.ts';
import { contentFor, postsOf } from '../../content/store.ts';
import { summaryOf } from '../../content/snapshot.ts';
import { LANGUAGES, localizePath, type Language } from '../../i18n/languages.ts';
import { t } from '../../i18n/t.ts';
import { langParam, postPath } from '../../lib/paths.ts';
import { SECTIONS } from '../../lib/sections.ts';

export const getStaticPaths = () =>
  LANGUAGES.map((lang) => {
    const content = contentFor(lang);
    const posts = postsOf(content, content.lists.news[0] ?? []).map(summaryOf);
    return { params: { lang: langParam(lang) }, props: { lang, posts } };
  });

export function GET({ props, site }: APIContext<{ lang: Language; posts: PostSummary[] }>) {
  const { lang, posts } = props;
  return rss({
    title: `${t(lang, 'site.name')} — ${t(lang, 'news.title')}`,
    description: t(lang, 'site.description'),
    site: new URL(localizePath(lang, '/'), site),
    customData: `<language>${lang.tag}</language>`,
    items: posts.map((p) => ({
      title: p.title,
      description: p.brief,
      link: localizePath(lang, postPath(SECTIONS.news, p.id)),
      ...(p.date ? { pubDate: new Date(p.date) } : {}),
    })),
  });
}
