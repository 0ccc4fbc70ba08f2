// The project's code compiled once per test run, for the tests that run Akker or its scripts as a
// process of their own. A child started with tsx compiles and loads every module through tsx's hooks:
// about a second of CPU more per start than plain JavaScript, and the suite starts some thirty.
// esbuild is the compiler tsx itself uses, so the children run the code `npm start` would.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { inject } from 'vitest';

declare module 'vitest' {
  export interface ProvidedContext {
    processBuild: string;
  }
}

const isSource = (file: string) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts');

/** Compiles src/ and scripts/ of `projectRoot` into `dir`, with every other file of them beside the code. */
async function compile(projectRoot: string, dir: string): Promise<void> {
  const files = ['src', 'scripts'].flatMap((folder) =>
    readdirSync(join(projectRoot, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name)),
  );
  await build({
    entryPoints: files.filter(isSource),
    outdir: dir,
    outbase: projectRoot,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    logLevel: 'warning',
  });
  for (const file of files.filter((file) => !isSource(file))) cpSync(file, join(dir, relative(projectRoot, file)));
}

/**
 * The compiled code in a new folder under node_modules/.cache (inside the project, so that the compiled
 * modules find the project's packages); `rebuild` compiles the code again (watch mode, before a rerun).
 */
export async function buildForProcesses(projectRoot: string): Promise<{ dir: string; rebuild(): Promise<void>; remove(): void }> {
  const cache = join(projectRoot, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const dir = mkdtempSync(join(cache, 'akker-test-build-'));
  await compile(projectRoot, dir);
  return { dir, rebuild: () => compile(projectRoot, dir), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The compiled form of a module of the project, `src/server.ts` → an absolute path to its .js. */
export function compiled(module: string): string {
  return join(inject('processBuild'), module.replace(/\.tsx?$/, '.js'));
}

/** The same as a file: URL, for `import()` in a script given to `node -e`. */
export const compiledUrl = (module: string): string => pathToFileURL(compiled(module)).href;
