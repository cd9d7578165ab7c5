/**
 * The shape of a district's identity file (`districts/<name>/district.json`), checked when the build
 * reads it: an invalid or incomplete file stops the build with the file and the field named
 * (./district.ts). README "A district is a folder" describes every field with Qorakul's values.
 */
import * as v from 'valibot';
import { LANGUAGES, type LangCode } from '../i18n/languages.ts';

/** `schema` once for each language of the site (src/i18n/languages.ts). */
const inEachLanguage = <S extends v.GenericSchema>(schema: S, message?: string) =>
  v.strictObject({ 'uz-latn': schema, 'uz-cyrl': schema, ru: schema, en: schema } satisfies Record<LangCode, S>, message);
const nonEmpty = v.pipe(v.string('must be a text'), v.trim(), v.nonEmpty('must not be empty'));
const webAddress = v.pipe(v.string('must be a web address'), v.url('must be a web address'), v.startsWith('https://', 'must begin with https://'));
/** A file beside district.json: a plain name, never a path out of the folder. */
const fileName = v.pipe(
  v.string('must be a file name'),
  v.regex(/^[\w-]+(\.[\w-]+)*\.(svg|png|jpg|jpeg|webp)$/, 'must be the name of an SVG, PNG, JPEG or WebP file beside district.json'),
);
const svgFileName = v.pipe(v.string('must be a file name'), v.regex(/^[\w-]+(\.[\w-]+)*\.svg$/, 'must be the name of an SVG file beside district.json'));
const count = v.pipe(v.number('must be a number'), v.integer('must be a whole number'), v.minValue(0, 'must not be negative'));

/** A text in each of the four languages. */
const localized = inEachLanguage(nonEmpty, `must give a text in each language (${LANGUAGES.map((l) => l.code).join(', ')})`);
const paragraphs = inEachLanguage(v.pipe(v.array(nonEmpty, 'must be a list of paragraphs'), v.minLength(1, 'must hold at least one paragraph')));
const picture = v.strictObject({ file: fileName, caption: localized });

/**
 * The interface texts that belong to a district, not to the product: its names, its address, its
 * welcome, its region's facts. Each language of the file gives every one of them; the dictionaries of
 * src/i18n/ give the rest, and `t()` reads both alike.
 */
export const DISTRICT_TEXT_KEYS = [
  'site.name',
  'site.region',
  'site.description',
  'footer.addressText',
  'footer.rights',
  'home.heroTitle',
  'map.title',
  'info.province',
  'province.intro',
  'province.religionsValue',
  'province.description',
  'departments.intro',
  'dept.regionSite',
  'trust.hoursValue',
] as const;
export type DistrictTextKey = (typeof DISTRICT_TEXT_KEYS)[number];

const texts = inEachLanguage(v.strictObject(Object.fromEntries(DISTRICT_TEXT_KEYS.map((k) => [k, nonEmpty])) as Record<DistrictTextKey, typeof nonEmpty>));

export const districtSchema = v.strictObject({
  texts,
  contact: v.strictObject({
    /** As citizens dial it, with the country code: `+998 65 592-10-01`. */
    helpline: v.pipe(v.string('must be a phone number'), v.regex(/^\+998[\d ()-]{9,16}$/, 'must be a phone number beginning with +998')),
    email: v.pipe(v.string('must be an e-mail address'), v.email('must be an e-mail address')),
    social: v.strictObject({ telegram: v.optional(webAddress), facebook: v.optional(webAddress), youtube: v.optional(webAddress), instagram: v.optional(webAddress) }),
  }),
  region: v.strictObject({
    population: count,
    populationRank: count,
    areaKm2: count,
    /** The region administration's site. */
    site: webAddress,
    /** The region's cities and districts, in the order the region lists them; those with a site link to it. */
    units: v.pipe(v.array(v.strictObject({ name: localized, site: v.optional(webAddress) })), v.minLength(1, 'must name at least one city or district')),
  }),
  /** The administration's place on the map, and the map's bounds (west, south, east, north). */
  map: v.strictObject({
    lat: v.pipe(v.number('must be a latitude'), v.minValue(-90), v.maxValue(90)),
    lon: v.pipe(v.number('must be a longitude'), v.minValue(-180), v.maxValue(180)),
    zoom: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(19)),
    bbox: v.tuple([v.number(), v.number(), v.number(), v.number()], 'must be [west, south, east, north]'),
  }),
  /** Both drawn as SVG: the emblem inline in every page's header, the favicon as the browser's tab icon. */
  pictures: v.strictObject({ emblem: svgFileName, favicon: svgFileName }),
  ecology: v.strictObject({ paragraphs, figures: v.array(picture) }),
  tourism: v.strictObject({ paragraphs, slides: v.pipe(v.array(picture), v.length(3, "must hold the carousel's three pictures")) }),
  dishes: v.strictObject({ paragraphs, figures: v.array(picture) }),
  /** The names the district's site answers to (the first is canonical): nginx's server_name. */
  server: v.strictObject({ names: v.pipe(v.array(v.pipe(v.string(), v.regex(/^[a-z0-9.-]+$/, 'must be a host name'))), v.minLength(1, 'must name at least one host')) }),
});

export type District = v.InferOutput<typeof districtSchema>;
