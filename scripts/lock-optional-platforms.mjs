/**
 * Keeps `npm ci` working with a registry that lacks some platform builds.
 *
 * Packages such as @astrojs/compiler-binding list one optional dependency per
 * platform. When the registry this project installs from does not serve one
 * of them (here: the non-Linux builds), `npm install` leaves it out of
 * package-lock.json and `npm ci` then refuses the lock as out of sync. This
 * adds a placeholder entry, marked optional with the platform its name says,
 * for each such missing dependency, so npm skips it on other platforms
 * exactly as it would the real one. Runs after every install; a lock that
 * needs nothing is left untouched. Plain JavaScript, so any Node runs it.
 */
import { readFileSync, writeFileSync } from 'node:fs';

const FILE = new URL('../package-lock.json', import.meta.url);
const OS = ['android', 'darwin', 'freebsd', 'linux', 'openbsd', 'sunos', 'win32', 'aix', 'netbsd'];
const CPU = ['arm64', 'arm', 'x64', 'ia32', 'wasm32', 'ppc64', 's390x', 'riscv64', 'loong64', 'mips64el'];

const lock = JSON.parse(readFileSync(FILE, 'utf8'));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages ?? {})) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const where = `${path.slice(0, path.lastIndexOf('node_modules/') + 'node_modules/'.length) || 'node_modules/'}${name}`;
    if (lock.packages[where] || lock.packages[`node_modules/${name}`]) continue;
    const parts = name.split('/').pop().split('-');
    const os = parts.filter((p) => OS.includes(p));
    const cpu = parts.filter((p) => CPU.includes(p));
    if (!os.length && !cpu.length) continue; // not a platform build: leave it to npm
    lock.packages[`node_modules/${name}`] = {
      version: String(version).replace(/^[^\d]*/, ''),
      optional: true,
      ...(os.length ? { os } : {}),
      ...(cpu.length ? { cpu } : {}),
    };
    added++;
  }
}
if (added) {
  writeFileSync(FILE, `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`package-lock.json: added ${added} placeholder(s) for platform builds the registry does not serve`);
}
