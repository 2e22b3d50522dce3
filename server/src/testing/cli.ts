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

export function runCli(dataDir: string, ...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, '--data-dir', dataDir, ...args], (err, stdout, stderr) => {
      const parse = (text: string) => {
        if (text.trim() === '') return undefined;
        try {
          return JSON.parse(text);
        } catch {
          return { unparsed: text };
        }
      };
      resolve({ code: err ? Number(err.code ?? 1) : 0, output: parse(stdout), error: parse(stderr) });
    });
  });
}
