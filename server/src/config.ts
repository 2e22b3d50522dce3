/** Settings read from the environment at start-up (README, docs/http.md). */
export interface Config {
  host: string;
  /** 0 = a free port. */
  port: number;
  dataDir: string;
  bootstrapKey?: string;
  bootstrapSecret?: string;
  /** TALLY_RATE_LIMITS=off disables rate limiting (load tests). */
  rateLimits: boolean;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env.PORT ?? '8080');
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be 0..65535, got ${env.PORT}`);
  return {
    host: env.HOST || '127.0.0.1',
    port,
    dataDir: env.DATA_DIR || './data',
    bootstrapKey: env.TALLY_BOOTSTRAP_KEY || undefined,
    bootstrapSecret: env.TALLY_BOOTSTRAP_SECRET || undefined,
    rateLimits: env.TALLY_RATE_LIMITS !== 'off',
  };
}
