/**
 * The systemd units in deploy/ (systemd does not run here, so they are read as text): each starts a script
 * that exists with the project's Node, as the service user, from the project folder, with the settings of
 * site.env; the webhook's secret comes as a credential, never on a command line; the hardening leaves
 * sudo working for POLICY_COMMAND; the timer starts the rebuild at 03:30 in Tashkent. Where
 * `systemd-analyze` is installed, it also verifies the units (every key known, every program there) and
 * reads the timer's OnCalendar.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SECRET_CREDENTIAL } from '../../scripts/webhook/secret.ts';

const ROOT = new URL('../..', import.meta.url).pathname;
const PROJECT = '/srv/hokimiyat-site';

type Unit = Map<string, [key: string, value: string][]>;

/** A unit file's sections and their settings, in order (a key may repeat); comments and blank lines dropped. */
function readUnit(name: string): Unit {
  const unit: Unit = new Map();
  let section: [string, string][] | undefined;
  for (const raw of readFileSync(join(ROOT, 'deploy', name), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(\w+)\]$/.exec(line);
    if (header) unit.set(header[1]!, (section = []));
    else {
      const eq = line.indexOf('=');
      expect(eq, `${name}: "${line}"`).toBeGreaterThan(0);
      expect(section, `${name}: a setting before any section`).toBeDefined();
      section!.push([line.slice(0, eq), line.slice(eq + 1)]);
    }
  }
  return unit;
}
const all = (unit: Unit, section: string, key: string) => (unit.get(section) ?? []).filter(([k]) => k === key).map(([, v]) => v);
const one = (unit: Unit, section: string, key: string) => {
  const values = all(unit, section, key);
  expect(values, `${section}.${key}`).toHaveLength(1);
  return values[0]!;
};
/** A path on the server as the same path in this checkout. */
const inRepo = (path: string) => join(ROOT, relative(PROJECT, path));

const webhook = readUnit('hokimiyat-webhook@.service');
const rebuild = readUnit('hokimiyat-rebuild@.service');
const timer = readUnit('hokimiyat-rebuild@.timer');
const services = [
  ['hokimiyat-webhook@.service', webhook],
  ['hokimiyat-rebuild@.service', rebuild],
] as const;

describe('the services', () => {
  it("run a script of this repository with its Node 24, as the service user, in the project folder, with the district's settings", () => {
    for (const [name, unit] of services) {
      const [program, script, ...args] = one(unit, 'Service', 'ExecStart').split(/\s+/);
      expect(program, name).toBe(`${PROJECT}/node_modules/.bin/node`);
      expect(existsSync(inRepo(program!)), `${name}: ${program} (npm ci puts it there)`).toBe(true);
      expect(existsSync(join(ROOT, script!)), `${name}: ${script}`).toBe(true);
      expect(one(unit, 'Service', 'WorkingDirectory'), name).toBe(PROJECT);
      expect(one(unit, 'Service', 'User'), name).toBe('hokimiyat');
      expect(one(unit, 'Service', 'Group'), name).toBe('hokimiyat');
      // One settings file per district, named by the instance: hokimiyat-rebuild@chust reads chust.env.
      expect(one(unit, 'Service', 'EnvironmentFile'), name).toBe('/etc/hokimiyat-site/%i.env');
      expect(one(unit, 'Unit', 'Description'), name).toMatch(/^District site %i: /);
      expect(one(unit, 'Unit', 'After'), name).toContain('network-online.target');
      if (name === 'hokimiyat-webhook@.service') expect([script, ...args]).toEqual(['scripts/webhook.ts']);
      else expect([script, ...args]).toEqual(['scripts/rebuild.ts', '--wait']);
    }
    // The same settings, so that both use one RELEASES_DIR and so one lock.
    for (const key of ['User', 'Group', 'WorkingDirectory', 'EnvironmentFile', 'Environment', 'ReadWritePaths']) {
      expect(all(rebuild, 'Service', key), key).toEqual(all(webhook, 'Service', key));
    }
  });

  it('the webhook is restarted on failure, but not when its settings are missing, and stops its rebuild cleanly', () => {
    expect(one(webhook, 'Service', 'Restart')).toBe('on-failure');
    expect(Number(one(webhook, 'Service', 'RestartSec'))).toBeGreaterThan(0);
    expect(one(webhook, 'Service', 'RestartPreventExitStatus')).toBe('2'); // CONFIG_EXIT: API_BASE and the like missing
    expect(one(webhook, 'Service', 'KillMode')).toBe('mixed');
    expect(one(webhook, 'Install', 'WantedBy')).toBe('multi-user.target');
    expect(one(rebuild, 'Service', 'Type')).toBe('oneshot');
    expect(rebuild.has('Install')).toBe(false); // started by the timer only
  });

  it('hands the webhook its secret as a credential; no secret is on a command line or in a unit', () => {
    expect(one(webhook, 'Service', 'LoadCredential')).toBe(`${SECRET_CREDENTIAL}:/etc/hokimiyat-site/%i.webhook-secret`);
    for (const [name, unit] of [...services, ['hokimiyat-rebuild@.timer', timer] as const]) {
      for (const [, settings] of unit) {
        for (const [key, value] of settings) {
          expect(`${key}=${value}`, name).not.toMatch(/WEBHOOK_SECRET=|--secret|SetCredential/i);
        }
      }
    }
    const example = readFileSync(join(ROOT, 'deploy/site.env.example'), 'utf8');
    expect(example).not.toMatch(/^\s*WEBHOOK_SECRET/m);
  });

  it('leaves sudo working for POLICY_COMMAND: no NoNewPrivileges, nor any setting that implies it', () => {
    const example = readFileSync(join(ROOT, 'deploy/site.env.example'), 'utf8');
    expect(example).toMatch(/^POLICY_COMMAND="sudo -n \/usr\/local\/sbin\/hokimiyat-load-policy qorakul"$/m);
    // systemd.exec(5), NoNewPrivileges=: these override it to yes for a service that is not root; and a
    // CapabilityBoundingSet= would leave sudo's root without what systemctl needs.
    const implying =
      /^(NoNewPrivileges|DynamicUser|LockPersonality|MemoryDenyWriteExecute|PrivateDevices|ProtectClock|ProtectHostname|ProtectKernel\w+|RestrictAddressFamilies|RestrictNamespaces|RestrictRealtime|RestrictSUIDSGID|SystemCallArchitectures|SystemCallFilter|SystemCallLog|CapabilityBoundingSet)$/;
    for (const [name, unit] of services) {
      const keys = (unit.get('Service') ?? []).map(([k]) => k);
      expect(
        keys.filter((k) => implying.test(k)),
        name,
      ).toEqual([]);
      expect(one(unit, 'Service', 'ProtectSystem'), name).toBe('strict');
    }
  });

  it("may write where the rebuild writes: the releases, the caches and Astro's files, all in the project folder", () => {
    const writable = all(webhook, 'Service', 'ReadWritePaths')
      .flatMap((v) => v.split(/\s+/))
      .map((p) => p.replace(/^-/, ''));
    const covered = (path: string) => writable.some((w) => path === w || path.startsWith(`${w}/`));
    for (const folder of ['.releases', '.cache/astro', '.cache/pictures', '.cache/compressed', '.cache/content', '.astro']) {
      expect(covered(join(PROJECT, folder)), folder).toBe(true);
    }
    expect(writable.every(isAbsolute)).toBe(true);
  });

  it('site.env.example names every setting the services require', () => {
    const example = readFileSync(join(ROOT, 'deploy/site.env.example'), 'utf8');
    for (const name of ['API_BASE', 'SITE_URL', 'HCAPTCHA_SITEKEY', 'POLICY_COMMAND']) expect(example).toMatch(new RegExp(`^${name}=.+`, 'm'));
  });
});

const analyze = ['/usr/bin/systemd-analyze', '/bin/systemd-analyze'].find(existsSync);
const UNITS = ['hokimiyat-webhook@.service', 'hokimiyat-rebuild@.service', 'hokimiyat-rebuild@.timer'];

it.skipIf(!analyze)('systemd-analyze verify finds nothing to say about the units (with this checkout as the project folder)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'units-'));
  try {
    // Templates are verified as an instance of them, as systemd loads them.
    const instances = UNITS.map((name) => name.replace('@', '@qorakul'));
    for (const [i, name] of UNITS.entries()) writeFileSync(join(dir, instances[i]!), readFileSync(join(ROOT, 'deploy', name), 'utf8').replaceAll(PROJECT, ROOT.replace(/\/$/, '')));
    // It exits 0 even for an unknown key, so what it prints is the verdict.
    const run = spawnSync(analyze!, ['verify', ...instances.map((n) => join(dir, n))], { encoding: 'utf8', env: { ...process.env, SYSTEMD_COLORS: '0' } });
    expect(`${run.stdout}${run.stderr}`).toBe('');
    expect(run.status).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

describe('the timer', () => {
  const calendar = one(timer, 'Timer', 'OnCalendar');

  it('starts the rebuild service every night at 03:30 in Tashkent, and makes up a night the machine was off', () => {
    expect(one(timer, 'Timer', 'Unit')).toBe('hokimiyat-rebuild@%i.service');
    expect(existsSync(join(ROOT, 'deploy', one(timer, 'Timer', 'Unit').replace('%i', '')))).toBe(true);
    // Districts of one server start within the hour, each at a time of its own that stays the same every night.
    expect(one(timer, 'Timer', 'RandomizedDelaySec')).toBe('1h');
    expect(one(timer, 'Timer', 'FixedRandomDelay')).toBe('true');
    expect(one(timer, 'Timer', 'Persistent')).toBe('true');
    expect(one(timer, 'Install', 'WantedBy')).toBe('timers.target');
    const [date, time, zone, ...rest] = calendar.split(' ');
    expect([date, time, rest]).toEqual(['*-*-*', '03:30:00', []]);
    // A zone the system knows, at UTC+5 (Tashkent has no summer time): 22:30 UTC the day before.
    const inZone = new Intl.DateTimeFormat('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
    for (const day of ['2030-01-15', '2030-07-15']) expect(inZone.format(new Date(`${day}T22:30:00Z`))).toBe('03:30');
  });

  it.skipIf(!analyze)('systemd-analyze reads OnCalendar as 22:30 UTC every day', () => {
    const out = execFileSync(analyze!, ['calendar', '--iterations=2', calendar], { encoding: 'utf8', env: { ...process.env, TZ: 'UTC', SYSTEMD_COLORS: '0' } });
    expect(out).toContain(`Normalized form: ${calendar}`);
    const elapses = [...out.matchAll(/(?:Next elapse|Iter\. #\d+): \w+ (\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) UTC/g)];
    expect(elapses.map((m) => m[2])).toEqual(['22:30:00', '22:30:00']);
    expect(Date.parse(elapses[1]![1]!) - Date.parse(elapses[0]![1]!)).toBe(86_400_000);
  });
});
