/** One JSON line per event on stdout (pino). */
import { pino, type Logger } from 'pino';

export type { Logger };

/** pino's levels, most severe first, and `silent`: LOG_LEVEL takes one of them (config.ts). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** `level`: the main thread's checked LOG_LEVEL; a worker thread reads the variable the main thread checked. */
export function createLogger(level: string = process.env.LOG_LEVEL || 'info'): Logger {
  return pino({ base: undefined, level });
}
