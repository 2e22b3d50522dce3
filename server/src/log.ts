/** One JSON line per event on stdout (pino). */
import { pino, type Logger } from 'pino';

export type { Logger };

export function createLogger(): Logger {
  return pino({ base: undefined, level: process.env.LOG_LEVEL ?? 'info' });
}
