/**
 * `tally import customers <file>`: creates customers from NDJSON, one
 * POST /customers body a line, through a running server's HTTP API, so every
 * rule, index, event and cache applies as for any other client. Each line is
 * sent with an Idempotency-Key made of its number and text: the same file
 * imported again (an interrupted run) gets each line's first answer back
 * instead of creating anything twice (docs/customers.md).
 */
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { MultiBar } from 'cli-progress';

export interface ImportOptions {
  /** The server, e.g. http://127.0.0.1:8080. */
  url: string;
  key: string;
  secret: string;
  /** Requests in flight at once. */
  concurrency: number;
  /** A file for the failed lines (one JSON line each); stderr when undefined. */
  errors?: string;
}

export interface ImportSummary {
  created: number;
  failed: number;
  /** Blank lines. */
  skipped: number;
}

/** What the errors output holds per failed line; status and code are null when no answer (or no code) came. */
interface Failure {
  line: number;
  status: number | null;
  code: string | null;
  error: string;
}

/** Tries per line: 429 (after its Retry-After) and network errors are sent again, a line's key making it safe. */
const ATTEMPTS = 6;
/** Plain progress lines when stderr is not a terminal. */
const PROGRESS_INTERVAL_MS = 10_000;

/** Imports `file` (`-`: stdin); resolves once every line is answered. */
export async function importCustomers(file: string, options: ImportOptions): Promise<ImportSummary> {
  const endpoint = new URL(`${options.url.replace(/\/+$/, '')}/customers`); // a bad --url throws here, not once per line
  // A file's lines are counted first, the bar's total (stdin's are not known ahead); a missing file fails here, before any output.
  const total = file === '-' ? undefined : await countLines(file);
  const input = file === '-' ? process.stdin : createReadStream(file);
  const errorsFile = options.errors === undefined ? undefined : createWriteStream(options.errors);
  if (errorsFile) await once(errorsFile, 'open'); // an unwritable errors file fails before any line is sent
  const errors = errorsFile ?? process.stderr;
  const summary: ImportSummary = { created: 0, failed: 0, skipped: 0 };
  const progress = startProgress(summary, total, errors);
  const inFlight = new Set<Promise<void>>();
  let number = 0;
  try {
    for await (const text of createInterface({ input, crlfDelay: Infinity })) {
      const line = ++number;
      if (text.trim() === '') {
        summary.skipped++;
        continue;
      }
      const sent = createLine(endpoint, options, line, text).then((failure) => {
        inFlight.delete(sent);
        if (failure === undefined) summary.created++;
        else {
          summary.failed++;
          progress.log(`${JSON.stringify(failure)}\n`);
        }
      });
      inFlight.add(sent);
      if (inFlight.size >= options.concurrency) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
  } finally {
    progress.stop();
    if (errorsFile) await new Promise((resolve) => errorsFile.end(resolve));
  }
  return summary;
}

/** POSTs one line; resolves with its failure, or undefined when the customer was created (or had been, by an earlier run). */
async function createLine(endpoint: URL, options: ImportOptions, line: number, text: string): Promise<Failure | undefined> {
  const headers = {
    'X-Api-Key': options.key,
    'X-Api-Secret': options.secret,
    'X-Api-Version': '1',
    'Content-Type': 'application/json',
    'Idempotency-Key': `tally-import-${createHash('sha256').update(`${line}\n${text}`).digest('hex')}`,
  };
  for (let attempt = 1; ; attempt++) {
    let status: number;
    let answer: string;
    let retryAfter: string | null;
    try {
      const res = await fetch(endpoint, { method: 'POST', headers, body: text });
      [status, answer, retryAfter] = [res.status, await res.text(), res.headers.get('Retry-After')];
    } catch (error) {
      // Refused, reset or cut: whether the line landed is unknown, and its key makes sending it again safe.
      if (attempt < ATTEMPTS) {
        await sleep(200 * 2 ** (attempt - 1));
        continue;
      }
      return { line, status: null, code: null, error: String((error as Error).cause ?? error) };
    }
    if (status === 429 && attempt < ATTEMPTS) {
      await sleep(Math.max(1, Number(retryAfter) || 1) * 1000);
      continue;
    }
    if (status >= 200 && status < 300) return undefined;
    return { line, status, ...errorOf(answer) };
  }
}

/** The `{error, code}` of an error answer (403's `{message}` too), or its text. */
function errorOf(answer: string): { code: string | null; error: string } {
  try {
    const body = JSON.parse(answer) as { code?: string; error?: string; message?: string };
    return { code: body.code ?? null, error: body.error ?? body.message ?? answer };
  } catch {
    return { code: null, error: answer };
  }
}

/** Lines as readline reads them: a last line without its newline counts. */
async function countLines(file: string): Promise<number> {
  let lines = 0;
  let last = 0x0a;
  for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) {
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, i + 1)) lines++;
    last = chunk[chunk.length - 1];
  }
  return last === 0x0a ? lines : lines + 1;
}

interface Progress {
  /** Writes a failed line to the errors output (above the bar, when the bar shares it). */
  log(text: string): void;
  stop(): void;
}

/** A bar on stderr when it is a terminal (only a count for stdin, whose total is unknown); a plain line every PROGRESS_INTERVAL_MS otherwise. */
function startProgress(summary: ImportSummary, total: number | undefined, errors: NodeJS.WritableStream): Progress {
  const lines = () => summary.created + summary.failed + summary.skipped;
  if (!process.stderr.isTTY) {
    const timer = setInterval(() => {
      process.stderr.write(`tally import: ${lines()} lines, ${summary.created} created, ${summary.failed} failed\n`);
    }, PROGRESS_INTERVAL_MS);
    return { log: (text) => errors.write(text), stop: () => clearInterval(timer) };
  }
  const counts = '{created} created | {failed} failed';
  const format = total === undefined ? `tally import: {value} lines | ${counts}` : `tally import [{bar}] {percentage}% | {value}/{total} lines | ${counts}`;
  const bars = new MultiBar({ stream: process.stderr, hideCursor: true, format });
  const bar = bars.create(total ?? 0, 0, { ...summary });
  const timer = setInterval(() => bar.update(lines(), { ...summary }), 100); // a copy: the counts of the same instant as the value
  return {
    log: (text) => (errors === process.stderr ? bars.log(text) : errors.write(text)),
    stop() {
      clearInterval(timer);
      bar.update(lines(), { ...summary });
      bars.update(); // writes the failed lines logged since the last render: stop() would drop them
      bars.stop();
    },
  };
}
