/** One JSON line per event on stdout (pino). */
import { pino, type Logger } from 'pino';

export type { Logger };

/** pino's levels, most severe first, and `silent`: LOG_LEVEL takes one of them (config.ts). */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The lines an operator must see whatever LOG_LEVEL says (`info` ones, written through a child at `info`): where the
 * server listens and on which uWebSockets.js backend, and the first API key's secret, which is stored only hashed.
 */
export function announcements(log: Logger): Logger {
  return log.child({}, { level: 'info' });
}

/** `level`: the main thread's checked LOG_LEVEL; a worker thread reads the variable the main thread checked. */
export function createLogger(level: string = process.env.LOG_LEVEL || 'info'): Logger {
  return pino({ base: undefined, level });
}
