/**
 * A new district's folder before its operator fills it in (`npm run new-district`): every field of the
 * identity present and valid, holding a placeholder that says what belongs there, and the pictures it
 * names as plain stand-ins. `npm run build` builds it, so the operator can look at the site as they fill
 * it in; `npm run rebuild` refuses to publish while any placeholder is left (placeholdersIn).
 */
import { LANGUAGES } from '../i18n/languages.ts';
import { DISTRICT_TEXT_KEYS, type District } from './schema.ts';

/** Begins every text still to be written. */
export const PLACEHOLDER = 'FILL IN';
const PLACEHOLDER_HOST = 'fill-in.example.invalid';
const PLACEHOLDER_PHONE = '+998 00 000-00-00';
/** The stand-in pictures' names begin so; the operator replaces them with the district's own. */
const PLACEHOLDER_PICTURE = 'fill-in';

/** What each district text is, for the placeholder that asks for it. */
const ASKS: Record<(typeof DISTRICT_TEXT_KEYS)[number], string> = {
  'site.name': "the administration's name, as the header and the title write it",
  'site.region': "the region's name",
  'site.description': 'one sentence for search engines and shared links',
  'footer.addressText': "the administration's street address",
  'footer.rights': 'the copyright line, with {year}',
  'home.heroTitle': "the home page's welcome",
  'map.title': "the map's title",
  'info.province': "the region page's title",
  'province.intro': 'one sentence: the district is part of the region, and the figures are the region’s',
  'province.religionsValue': "the region's religions",
  'province.description': 'a short description of the region',
  'departments.intro': "one sentence on the region's cities and districts",
  'dept.regionSite': "the region administration's name, linked to its site",
  'trust.hoursValue': "the administration's working hours",
};

const asking = (what: string) => Object.fromEntries(LANGUAGES.map((l) => [l.code, `${PLACEHOLDER}: ${what} (${l.label})`])) as Record<(typeof LANGUAGES)[number]['code'], string>;
const picture = (what: string) => ({ file: `${PLACEHOLDER_PICTURE}.svg`, caption: asking(`the caption of ${what}`) });

export function districtTemplate(): District {
  return {
    texts: Object.fromEntries(LANGUAGES.map((l) => [l.code, Object.fromEntries(DISTRICT_TEXT_KEYS.map((k) => [k, asking(ASKS[k])[l.code]]))])) as District['texts'],
    contact: { helpline: PLACEHOLDER_PHONE, email: `info@${PLACEHOLDER_HOST}`, social: {} },
    region: {
      population: 0,
      populationRank: 0,
      areaKm2: 0,
      site: `https://${PLACEHOLDER_HOST}/`,
      units: [{ name: asking('the name of a city or district of the region, one entry each, in the region’s order') }],
    },
    map: { lat: 0, lon: 0, zoom: 13, bbox: [0, 0, 0, 0] },
    pictures: { emblem: `${PLACEHOLDER_PICTURE}-emblem.svg`, favicon: `${PLACEHOLDER_PICTURE}-emblem.svg` },
    ecology: {
      paragraphs: Object.fromEntries(Object.entries(asking('a paragraph on the district’s environment')).map(([c, t]) => [c, [t]])) as District['ecology']['paragraphs'],
      figures: [picture('an ecology picture')],
    },
    tourism: {
      paragraphs: Object.fromEntries(Object.entries(asking('a paragraph on the district’s history and sights')).map(([c, t]) => [c, [t]])) as District['tourism']['paragraphs'],
      slides: [picture('the first carousel picture'), picture('the second carousel picture'), picture('the third carousel picture')],
    },
    dishes: {
      paragraphs: Object.fromEntries(Object.entries(asking('a paragraph on the district’s dishes')).map(([c, t]) => [c, [t]])) as District['dishes']['paragraphs'],
      figures: [picture('a dish')],
    },
    server: { names: [PLACEHOLDER_HOST] },
  };
}

/** The stand-in pictures a new folder gets: a plain emblem and a plain picture. */
export const TEMPLATE_PICTURES: Record<string, string> = {
  [`${PLACEHOLDER_PICTURE}-emblem.svg`]: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 48 48"><circle cx="24" cy="24" r="23" fill="#5a6470"/></svg>\n',
  [`${PLACEHOLDER_PICTURE}.svg`]: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 400"><rect width="600" height="400" fill="#d5dbe1"/></svg>\n',
};

/** Where `identity` still holds a placeholder, as dotted paths (`texts.ru.site.name`); empty when it holds none. */
export function placeholdersIn(identity: District): string[] {
  const found: string[] = [];
  const visit = (value: unknown, path: string): void => {
    if (typeof value === 'string') {
      if (value.startsWith(PLACEHOLDER) || value.includes(PLACEHOLDER_HOST) || value === PLACEHOLDER_PHONE || value.startsWith(PLACEHOLDER_PICTURE)) found.push(path);
    } else if (Array.isArray(value)) value.forEach((v, i) => visit(v, `${path}.${i}`));
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, path ? `${path}.${k}` : k);
  };
  visit(identity, '');
  const { region, map } = identity;
  for (const field of ['population', 'populationRank', 'areaKm2'] as const) if (region[field] === 0) found.push(`region.${field}`);
  if (map.lat === 0 && map.lon === 0) found.push('map.lat', 'map.lon');
  if (map.bbox.every((x) => x === 0)) found.push('map.bbox');
  return found;
}
