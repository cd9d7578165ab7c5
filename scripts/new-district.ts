/**
 * `npm run new-district -- <name>`: makes `districts/<name>/` (or DISTRICTS_DIR's) with every field of a
 * district's identity to fill in, in the four languages, and stand-in pictures (src/district/template.ts),
 * then says what is still missing. Run it again on an existing folder to see what is still missing there.
 * `SITE_DISTRICT=<name> npm start` shows the site as it stands; `npm run rebuild` publishes it once
 * nothing is missing.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DistrictError, districtDir, IDENTITY_FILE, loadDistrict } from '../src/district/district.ts';
import { DISTRICT_KEY_PATTERN } from '../src/district/key.ts';
import { districtTemplate, placeholdersIn, TEMPLATE_PICTURES } from '../src/district/template.ts';

const name = process.argv[2]?.trim() ?? '';
if (!DISTRICT_KEY_PATTERN.test(name)) {
  console.error('Usage: npm run new-district -- <name>   (lower-case Latin letters, digits and hyphens, e.g. chust; it names the folder and the storage keys)');
  process.exit(2);
}
const dir = districtDir(name);
if (!existsSync(join(dir, IDENTITY_FILE))) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, IDENTITY_FILE), `${JSON.stringify(districtTemplate(), null, 2)}\n`);
  for (const [file, svg] of Object.entries(TEMPLATE_PICTURES)) writeFileSync(join(dir, file), svg);
  console.log(`Made ${dir}/ with every field to fill in (README, "A district is a folder").`);
}
try {
  const missing = placeholdersIn(loadDistrict(name));
  if (!missing.length) console.log(`${dir}/${IDENTITY_FILE} is complete: SITE_DISTRICT=${name} npm run rebuild publishes it.`);
  else
    console.log(
      `Still to fill in (${missing.length}), in ${dir}/${IDENTITY_FILE}:\n${missing.map((p) => `  ${p}`).join('\n')}\nand the stand-in pictures fill-in*.svg to replace with the district's own.`,
    );
} catch (error) {
  if (!(error instanceof DistrictError)) throw error;
  console.error(error.message);
  process.exit(1);
}
