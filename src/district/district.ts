/**
 * A district's identity, read from its folder (`districts/<name>/`, src/district/key.ts) and checked
 * against ./schema.ts when the build first asks for it. Everything that differs from one district to the
 * next comes from here; what every district shares stays in code.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import * as v from 'valibot';
import { DISTRICT_KEY, DISTRICT_KEY_PATTERN } from './key.ts';
import { districtSchema, type District } from './schema.ts';
import { siteAddress } from '../lib/base-path.ts';

/** Where the district folders are (DISTRICTS_DIR; the tests keep a second district of their own). */
export const districtsDir = () => process.env.DISTRICTS_DIR?.trim() || 'districts';
export const IDENTITY_FILE = 'district.json';

/** A district folder that cannot be built: the message names the file and the field. */
export class DistrictError extends Error {}

export const districtDir = (key: string = DISTRICT_KEY) => join(districtsDir(), key);

/** Reads and checks a district's identity file; throws DistrictError saying what is wrong and where. */
export function loadDistrict(key: string = DISTRICT_KEY, root = '.', districts: string = districtsDir()): District {
  if (!DISTRICT_KEY_PATTERN.test(key)) {
    throw new DistrictError(`SITE_DISTRICT "${key}" is no district folder name: lower-case Latin letters, digits and hyphens, beginning with a letter`);
  }
  const dir = isAbsolute(districts) ? join(districts, key) : join(root, districts, key);
  const file = join(dir, IDENTITY_FILE);
  if (!existsSync(file)) throw new DistrictError(`${file} does not exist: make the district's folder with \`npm run new-district -- ${key}\``);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new DistrictError(`${file} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const result = v.safeParse(districtSchema, json);
  if (!result.success) {
    const problems = result.issues.slice(0, 10).map((issue) => `  ${v.getDotPath(issue) ?? '(the file)'}: ${issue.message}`);
    const more = result.issues.length > 10 ? `\n  … and ${result.issues.length - 10} more` : '';
    throw new DistrictError(`${file} is not a complete district identity:\n${problems.join('\n')}${more}`);
  }
  const district = result.output;
  for (const name of picturesOf(district)) {
    if (!existsSync(join(dir, name))) throw new DistrictError(`${file} names the picture ${name}, which is not in ${dir}`);
  }
  return district;
}

/** The picture files of an identity that pages fetch (the favicon, figures and slides), once each; the emblem is drawn inline. */
export function fetchedPicturesOf(district: District): string[] {
  const files = [district.pictures.favicon, ...[...district.ecology.figures, ...district.tourism.slides, ...district.dishes.figures].map((p) => p.file)];
  return [...new Set(files)];
}

/** Every picture file an identity names, once each. */
export const picturesOf = (district: District): string[] => [...new Set([district.pictures.emblem, ...fetchedPicturesOf(district)])];

let cached: { dir: string; district: District } | undefined;

/** This build's district (SITE_DISTRICT), read once. */
export function district(): District {
  if (cached?.dir !== districtDir()) cached = { dir: districtDir(), district: loadDistrict(DISTRICT_KEY) };
  return cached.district;
}

/** A digest of this district's folder (identity and pictures), for the page keys: editing it renders every page again. */
export function districtDigest(): string {
  // Read once a process, as the identity is: every route's page keys ask for it.
  if (digested?.dir !== districtDir()) {
    const hash = createHash('sha256').update(readFileSync(join(districtDir(), IDENTITY_FILE)));
    for (const name of picturesOf(district()).sort()) hash.update(`\0${name}\0`).update(readFileSync(join(districtDir(), name)));
    digested = { dir: districtDir(), digest: hash.digest('base64url').slice(0, 16) };
  }
  return digested.digest;
}
let digested: { dir: string; digest: string } | undefined;

/** The text of a picture of the district's folder (the emblem, drawn inline in the header). */
export const districtFileText = (name: string) => readFileSync(join(districtDir(), name), 'utf8');

/** The helpline as a link a phone dials: `tel:` and its digits. */
export const helplineHref = (helpline: string) => `tel:${helpline.replace(/[^\d+]/g, '')}`;

/** Where the site serves the district's pictures (placed by the build: scripts/pipeline/downloads/place-downloads.ts). */
export const DISTRICT_PICTURE_DIR = 'illustrations';
/** Where in the site a picture of the district's folder is placed; the favicon keeps the path browsers ask for. */
export const districtPicturePath = (file: string) => (file === district().pictures.favicon ? '/favicon.svg' : `/${DISTRICT_PICTURE_DIR}/${file}`);
/** The address pages fetch a picture of the district's folder from, under the site's base path. */
export const districtPictureUrl = (file: string) => siteAddress(districtPicturePath(file));
