/**
 * The Tally server: reads HOST, PORT, DATA_DIR (and bootstrap and rate-limit
 * settings), opens the store, listens with uWebSockets.js and logs one
 * `listening` line naming the backend and port. SIGTERM/SIGINT: stop
 * accepting, answer in-flight requests, close the store, exit 0.
 */
import { readConfig } from './config.js';
import { createLogger } from './log.js';
import { buildRoutes } from './http/registry.js';
import { createPipeline } from './http/pipeline.js';
import { BACKEND, startHttpServer } from './http/server.js';
import { openStore } from './store/env.js';
import { bootstrap } from './tenancy/bootstrap.js';
import { LmdbTenancyStore } from './tenancy/store.js';
import type { ServerContext } from './context.js';

async function main(): Promise<void> {
  const log = createLogger();
  const config = readConfig();
  const env = openStore(config.dataDir);
  const tenancy = new LmdbTenancyStore(env);
  await bootstrap(tenancy, config, log, new Date());
  const ctx: ServerContext = { config, env, tenancy, log };
  const server = await startHttpServer(config.host, config.port, createPipeline(ctx, buildRoutes(ctx)));
  log.info({ host: config.host, port: server.port, backend: BACKEND }, 'listening');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'stopping');
    await server.close();
    await env.close();
    log.info('stopped');
    log.flush();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
