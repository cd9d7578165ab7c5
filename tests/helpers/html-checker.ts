/**
 * The W3C Nu HTML Checker (the engine of validator.w3.org), from npm's vnu-jar, run by the Java that
 * .ci/run installs from Debian (default-jre-headless). One Java process checks a whole build.
 */
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { relative } from 'node:path';

const vnuJar: string = createRequire(import.meta.url)('vnu-jar');

interface CheckerMessage {
  type: string;
  subType?: string;
  url: string;
  lastLine?: number;
  message: string;
  extract?: string;
}

/** Every error the checker finds in `files`, one line each: `path:line: message «extract»` (paths relative to `root`). */
export function htmlErrors(root: string, files: string[]): Promise<string[]> {
  return new Promise((resolve, reject) => {
    execFile('java', ['-jar', vnuJar, '--errors-only', '--format', 'json', ...files], { maxBuffer: 256 * 1024 * 1024 }, (error, _stdout, stderr) => {
      // The checker exits 1 when it finds errors, and writes its report to stderr either way.
      let report: { messages: CheckerMessage[] };
      try {
        report = JSON.parse(stderr);
      } catch {
        reject(new Error(`the HTML checker did not run (is Java installed? .ci/run installs default-jre-headless): ${error?.message ?? ''}\n${stderr.slice(0, 2000)}`));
        return;
      }
      resolve(
        report.messages
          .filter((m) => m.type === 'error' || m.type === 'non-document-error')
          .map((m) => `${relative(root, decodeURIComponent(new URL(m.url).pathname))}:${m.lastLine ?? '?'}: ${m.message}${m.extract ? ` «${m.extract.trim()}»` : ''}`),
      );
    });
  });
}
