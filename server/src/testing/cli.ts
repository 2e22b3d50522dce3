/** Runs the built CLI (`node server/dist/cli.js`) against a DATA_DIR, as an operator would. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../dist/cli.js', import.meta.url));

export interface CliResult {
  code: number;
  /** Parsed stdout (JSON), or undefined; `{unparsed}` when it is not JSON. */
  output: any;
  /** Parsed stderr (JSON `{error, code}`), or undefined; `{unparsed}` when it is not JSON. */
  error: any;
}

export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Written to the CLI's stdin (closed either way). */
  input?: string;
  /** Extra environment variables. */
  env?: Record<string, string>;
}

/** Runs the CLI with `args` as given (no `--data-dir`); stdout and stderr as text. */
export function runCliText(args: string[], options: CliOptions = {}): Promise<CliOutput> {
  return new Promise((resolve) => {
    const child = execFile(process.execPath, [CLI, ...args], { env: { ...process.env, ...options.env } }, (err, stdout, stderr) => {
      resolve({ code: err ? Number(err.code ?? 1) : 0, stdout, stderr });
    });
    child.stdin!.end(options.input);
  });
}

export async function runCli(dataDir: string, ...args: string[]): Promise<CliResult> {
  const { code, stdout, stderr } = await runCliText(['--data-dir', dataDir, ...args]);
  const parse = (text: string) => {
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return { unparsed: text };
    }
  };
  return { code, output: parse(stdout), error: parse(stderr) };
}
