/**
 * Where Astro is told to write (scripts/pipeline/astro/out-dir.ts): a folder outside the project whose path
 * begins with the project's is reached through a link Astro cannot mistake for the project's; a folder on
 * another file system is refused with a message that says why. (The build into such a folder runs for
 * real in tests/unit/rebuild.test.ts.)
 */
import { existsSync, lstatSync, readlinkSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { astroOutDir, mistakenForProject } from '../../scripts/pipeline/astro/out-dir.ts';

describe('the folder Astro writes to', () => {
  it('tells a folder beside the project that shares its name from one inside it', () => {
    expect(mistakenForProject('/srv/site-releases/staging', '/srv/site')).toBe(true);
    expect(mistakenForProject('/srv/site/.releases/staging', '/srv/site')).toBe(false);
    expect(mistakenForProject('dist', '/srv/site')).toBe(false);
    expect(mistakenForProject('/var/www/releases/staging', '/srv/site')).toBe(false);
  });

  it('gives Astro a link to such a folder, removed once the build is done', () => {
    const target = `${process.cwd()}-out-${process.pid}`;
    const out = astroOutDir(target);
    try {
      expect(out.path).not.toBe(target);
      expect(out.path.startsWith(process.cwd())).toBe(false);
      expect(lstatSync(out.path).isSymbolicLink()).toBe(true);
      expect(readlinkSync(out.path)).toBe(target);
    } finally {
      out.done();
      rmSync(target, { recursive: true, force: true });
    }
    expect(existsSync(out.path)).toBe(false);
    expect(astroOutDir('.cache/some-dist').path).toBe('.cache/some-dist');
  });

  it('refuses a folder on another file system, saying so', () => {
    // /dev is a file system of its own (devtmpfs) on Linux.
    expect(() => astroOutDir('/dev/shm/hokimiyat-out')).toThrow(/is on another file system than the project .*Put OUT_DIR \(for a rebuild: RELEASES_DIR\) on the same disk/);
  });
});
