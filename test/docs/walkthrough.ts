// The README's walk-through as steps: each `sh` block is a step, and the `json` or `text` block right
// after it is the answer the README shows for it. Steps run in one bash process, in order, so that
// variables and files carry over from one to the next, as they do for a reader at a terminal.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';

/** The address the README's commands use; replaced by the server under test. */
export const README_ORIGIN = 'http://127.0.0.1:3000';

export interface Step {
  commands: string;
  /** What the README shows after the commands, if anything. */
  shown?: { kind: 'json' | 'text'; text: string };
}

/** The fenced blocks of the section under `heading` (up to the next heading of the same level). */
export function walkthroughSteps(markdown: string, heading: string): Step[] {
  const text = `\n${markdown}`;
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section "${heading}"`);
  const rest = text.slice(start + heading.length + 2);
  const level = heading.slice(0, heading.indexOf(' ') + 1);
  const end = rest.search(new RegExp(`^${level}`, 'm'));
  const section = end < 0 ? rest : rest.slice(0, end);
  const steps: Step[] = [];
  for (const [, lang, body] of section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)) {
    if (lang === 'sh') steps.push({ commands: body! });
    else if ((lang === 'json' || lang === 'text') && steps.length > 0 && steps.at(-1)!.shown === undefined) {
      steps.at(-1)!.shown = { kind: lang, text: body! };
    } else throw new Error(`a \`\`\`${lang} block must follow a \`\`\`sh block:\n${body}`);
  }
  return steps;
}

/** One bash process that runs steps in turn and hands back what each wrote to stdout. */
export class Shell {
  readonly #bash: ChildProcessWithoutNullStreams;
  #stdout = '';
  #stderr = '';
  #waiting: (() => void) | undefined;
  #steps = 0;

  constructor(cwd: string) {
    this.#bash = spawn('bash', ['--noprofile', '--norc'], { cwd, env: { PATH: process.env.PATH ?? '', HOME: cwd, LANG: 'C.UTF-8' } });
    this.#bash.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      this.#stdout += chunk;
      this.#waiting?.();
    });
    this.#bash.stderr.setEncoding('utf8').on('data', (chunk: string) => (this.#stderr += chunk));
  }

  /** Runs `commands` and resolves with their stdout once they are done. */
  async run(commands: string): Promise<{ stdout: string; stderr: string }> {
    const marker = `__step_${++this.#steps}_done__`;
    // The marker on a line of its own, even after an answer that ends without a newline.
    this.#bash.stdin.write(`${commands}\nprintf '\\n${marker}\\n'\n`);
    while (!this.#stdout.includes(`\n${marker}\n`)) {
      if (this.#bash.exitCode !== null) throw new Error(`bash exited: ${this.#stderr}`);
      await new Promise<void>((resolve) => (this.#waiting = resolve));
    }
    const at = this.#stdout.indexOf(`\n${marker}\n`);
    const stdout = this.#stdout.slice(0, at);
    this.#stdout = this.#stdout.slice(at + marker.length + 2);
    const stderr = this.#stderr;
    this.#stderr = '';
    return { stdout, stderr };
  }

  close(): void {
    this.#bash.stdin.end();
  }
}

/** Members whose values differ on every run: identifiers, secrets and times. */
const VARYING = new Set([
  'user_id',
  'id',
  'key',
  'prefix',
  'b_id_farm',
  'b_id',
  'b_lu',
  'a_id',
  'p_id',
  'p_app_id',
  'b_id_harvesting',
  'error_id',
  'created_at',
  'updated_at',
  'last_used_at',
  'expires_at',
]);

/**
 * Stands for anything in a shown answer: a value, the rest of an array, further members of an object
 * (as a member `"…": "…"`), or characters inside a string.
 */
export const LEFT_OUT = '…';

/**
 * Where `actual` differs from what the README shows, as a list of paths (empty when they agree). Varying
 * members must be there with a value of the same type; `…` in the README stands for anything.
 */
export function differences(shown: unknown, actual: unknown, path = '$'): string[] {
  if (shown === LEFT_OUT) return [];
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${path}: an array is shown, ${JSON.stringify(actual)} came`];
    const open = shown.at(-1) === LEFT_OUT;
    const compared = open ? shown.slice(0, -1) : shown;
    if (open ? actual.length < compared.length : actual.length !== compared.length) {
      return [`${path}: ${compared.length}${open ? ' or more' : ''} items are shown, ${actual.length} came`];
    }
    return compared.flatMap((item, i) => differences(item, actual[i], `${path}[${i}]`));
  }
  if (typeof shown === 'object' && shown !== null) {
    if (typeof actual !== 'object' || actual === null || Array.isArray(actual))
      return [`${path}: an object is shown, ${JSON.stringify(actual)} came`];
    const shownObject = shown as Record<string, unknown>;
    const actualObject = actual as Record<string, unknown>;
    const found: string[] = [];
    if (!(LEFT_OUT in shownObject)) {
      for (const name of Object.keys(actualObject)) if (!(name in shownObject)) found.push(`${path}.${name}: came, is not shown`);
    }
    for (const [name, value] of Object.entries(shownObject)) {
      if (name === LEFT_OUT) continue;
      if (!(name in actualObject)) found.push(`${path}.${name}: is shown, did not come`);
      else if (VARYING.has(name)) {
        if (typeof value !== typeof actualObject[name])
          found.push(`${path}.${name}: ${JSON.stringify(value)} is shown, ${JSON.stringify(actualObject[name])} came`);
      } else found.push(...differences(value, actualObject[name], `${path}.${name}`));
    }
    return found;
  }
  if (typeof shown === 'string' && typeof actual === 'string' && shown.includes(LEFT_OUT)) {
    return matchesWithGaps(shown, actual) ? [] : [`${path}: ${JSON.stringify(shown)} is shown, ${JSON.stringify(actual)} came`];
  }
  return Object.is(shown, actual) ? [] : [`${path}: ${JSON.stringify(shown)} is shown, ${JSON.stringify(actual)} came`];
}

/** `shown` with each `…` standing for any run of characters (an identifier in a path, say). */
function matchesWithGaps(shown: string, actual: string): boolean {
  const parts = shown.split(LEFT_OUT).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's').test(actual);
}

/** Where a step's output differs from what the README shows after it. */
export function stepDifferences(step: Step, output: string): string[] {
  if (step.shown === undefined) return output.trim() === '' ? [] : [`nothing is shown, this came: ${output}`];
  if (step.shown.kind === 'text')
    return output.trim() === step.shown.text.trim() ? [] : [`${step.shown.text.trim()} is shown, ${output.trim()} came`];
  let actual: unknown;
  try {
    actual = JSON.parse(output);
  } catch {
    return [`JSON is shown, this came: ${output}`];
  }
  return differences(JSON.parse(step.shown.text), actual);
}
