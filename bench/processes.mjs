/**
 * What the HTTP benches share: the bootstrap credentials they start Tally
 * with, and starting a server process (Tally or a bare uWebSockets.js
 * endpoint) that logs a JSON `listening` line with its port and backend,
 * and the median their tables report.
 */
import { spawn } from 'node:child_process';

export const KEY = 'bench-key';
export const SECRET = 'bench-secret-of-tally';
export const AUTH = { 'X-Api-Key': KEY, 'X-Api-Secret': SECRET, 'X-Api-Version': '1' };

/**
 * Spawns `command args` and resolves with `{child, port, backend, commits}` once it logs that it listens;
 * `commits` collects the `store commits` lines it logs after (Tally with STORE_METRICS_INTERVAL_MS).
 */
export function startProcess(command, args, env) {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const commits = [];
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (d) => {
      buffered += d;
      const lines = buffered.split('\n');
      buffered = lines.pop();
      for (const line of lines) {
        if (!line.startsWith('{')) continue;
        const entry = JSON.parse(line);
        if (entry.msg === 'listening') resolve({ child, port: entry.port, backend: entry.backend, commits });
        if (entry.msg === 'store commits') commits.push(entry);
      }
    });
    child.on('exit', (code) => reject(new Error(`${command} exited ${code} before listening`)));
  });
}

/** The median of some numbers (of an even count, the mean of the middle two). */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
