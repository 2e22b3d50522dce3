#!/usr/bin/env node
/**
 * `tally`: manage Companies and API keys in DATA_DIR and back the store up,
 * also while the server runs (LMDB is multi-process safe); import customers
 * through a running server's HTTP API. Every command prints JSON; errors print
 * `{error, code}` on stderr and exit 1.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { TallyError } from '@tally/engine';
import { auditWitness, runAuditedCommand, type AuditContext } from './audit/context.js';
import { backup } from './cli/backup.js';
import { importCustomers } from './cli/import.js';
import { invalidRequest, mustBeIn } from './http/errors.js';
import { openStore, storeCreation, storeFile, type StoreEnv } from './store/env.js';
import {
  createApiKey,
  createCompany,
  parseEnvironment,
  requireCompany,
  toView,
  updateApiKey,
  updateCompany,
} from './tenancy/admin.js';
import { LmdbTenancyStore, type TenancyStore } from './tenancy/store.js';
import { newApiKey } from './tenancy/secrets.js';
import { ENVIRONMENTS, type RateLimits, type Tenant } from './tenancy/types.js';
import { validate } from './http/validation.js';

function parseJsonOption(text: string, option: string): Record<string, unknown> {
  try {
    const value = JSON.parse(text) as unknown;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    // reported below
  }
  throw invalidRequest(option, 'must be a JSON object');
}

function rateLimitsOption(text: string): RateLimits {
  // A key's budgets are checked by the schema of the settings' rate_limits (one definition for both).
  const { rate_limits = {} } = validate('company.update', { rate_limits: parseJsonOption(text, 'rate-limits') });
  return rate_limits;
}

/** The audit context of a CLI command: operation `cli.<words>`, its options as the body. */
function recorded(name: string, tenants: Tenant[], target: string, options: object): Omit<AuditContext, 'actor'> {
  return { tenants, operation: `cli.${name.replace(' ', '.')}`, method: null, path: null, target, body: options };
}

/** A command on an existing key, recorded in the key's Company environment (a missing key: the command fails, nothing to record). */
function keyCommand(tenancy: TenancyStore, name: string, key: string, options: object) {
  const record = tenancy.getApiKey(key);
  return record && recorded(name, [{ companyId: record.company_id, environment: record.environment }], `api_key:${key}`, options);
}

function positiveInteger(text: string): number {
  const number = Number(text);
  if (!Number.isInteger(number) || number < 1) throw new InvalidArgumentError(mustBeIn('integer', { minimum: 1 }));
  return number;
}

const program = new Command('tally')
  .description('Manage Tally Companies and API keys, back up the store, import customers')
  .option('--data-dir <dir>', 'the server\'s DATA_DIR', process.env.DATA_DIR || './data');

/** Runs the command, prints its result as JSON. */
function command<A extends unknown[]>(run: (...args: A) => Promise<unknown> | unknown) {
  return async (...args: A) => {
    try {
      const result = await run(...args);
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
    } catch (err) {
      const body = err instanceof TallyError ? { error: err.message, code: err.code } : { error: String(err), code: 'server_error' };
      process.stderr.write(`${JSON.stringify(body)}\n`);
      process.exitCode = 1;
    }
  };
}

/**
 * A command on the store: opens DATA_DIR for it (its transactions recorded in the audit log when a command names them).
 * Opening creates an empty store where there is none, so only a command that can fill one (`creates`: company create,
 * before the first server start) may, and keeps it only if it succeeds; any other refuses a directory without a store
 * and creates nothing (a mistyped --data-dir would otherwise list `[]`, or take writes the server never reads).
 */
function storeAction<A extends unknown[]>(run: (env: StoreEnv, ...args: A) => Promise<unknown> | unknown, creates = false) {
  return command(async (...args: A) => {
    const dataDir = program.opts<{ dataDir: string }>().dataDir;
    const existed = existsSync(storeFile(dataDir));
    if (!existed && !creates) {
      throw new TallyError('store_not_found', `no Tally store at ${resolve(dataDir)}: a mistyped --data-dir or DATA_DIR? (tally company create makes one)`, 'data-dir');
    }
    // A command that fails leaves no store it created, and no notice of one: run again, it starts from nothing.
    const created = existed ? [] : storeCreation(dataDir);
    let env: StoreEnv | undefined;
    let result: unknown;
    try {
      env = openStore(dataDir, { witness: auditWitness });
      result = await run(env, ...args);
    } catch (err) {
      await env?.close();
      for (const path of created) rmSync(path, { recursive: true, force: true });
      throw err;
    }
    await env.close();
    if (!existed) process.stderr.write(`created a new store at ${resolve(dataDir)}\n`);
    return result;
  });
}

/** What a command changes, for its audit log entries (actor `cli`); undefined: it changes nothing it can name. */
type Audited<A extends unknown[]> = (tenancy: TenancyStore, ...args: A) => Omit<AuditContext, 'actor'> | undefined;

/** A command on Companies and keys, its writes recorded in the audit log when `audited` names them; `creates` as storeAction's. */
function action<A extends unknown[]>(run: (tenancy: TenancyStore, ...args: A) => Promise<unknown> | unknown, audited?: Audited<A>, creates = false) {
  return storeAction((env, ...args: A) => {
    const tenancy = new LmdbTenancyStore(env);
    const context = audited?.(tenancy, ...args);
    return context ? runAuditedCommand(context, () => run(tenancy, ...args)) : run(tenancy, ...args);
  }, creates);
}

const company = program.command('company').description('Companies and their settings');
company
  .command('create <id>')
  .description('create a Company (id: a slug of at most 64 characters)')
  .option('--name <name>', 'display name (default: the id)')
  .action(
    action(
      (tenancy, id: string, opts: { name?: string }) => createCompany(tenancy, id, opts.name ?? id, new Date()),
      // A new Company is recorded in each of its environments.
      (_tenancy, id, opts) => recorded('company create', ENVIRONMENTS.map((environment) => ({ companyId: id, environment })), `company:${id}`, { id, ...opts }),
      true,
    ),
  );
company
  .command('list')
  .description('list Companies')
  .action(action((tenancy) => tenancy.listCompanies()));
company
  .command('update <id>')
  .description('rename a Company or change one environment\'s settings')
  .option('--name <name>', 'new display name')
  .option('--environment <env>', 'sandbox or production', 'sandbox')
  .option('--settings <json>', 'settings to replace, as in PATCH /company')
  .action(
    action(
      (tenancy, id: string, opts: { name?: string; environment: string; settings?: string }) =>
        updateCompany(tenancy, id, {
          name: opts.name,
          environment: parseEnvironment(opts.environment),
          settings: opts.settings === undefined ? undefined : validate('company.update', parseJsonOption(opts.settings, 'settings')),
        }),
      (_tenancy, id, opts) => recorded('company update', [{ companyId: id, environment: parseEnvironment(opts.environment) }], `company:${id}`, {
        name: opts.name, settings: opts.settings === undefined ? undefined : parseJsonOption(opts.settings, 'settings'),
      }),
    ),
  );

const key = program.command('key').description('API keys');
key
  .command('create')
  .description('create an enabled key; prints its secret once')
  .requiredOption('--company <id>', 'the Company')
  .option('--environment <env>', 'sandbox or production', 'sandbox')
  .option('--description <text>', 'what the key is for')
  .option('--rate-limits <json>', 'raised budgets, e.g. {"tier_1":200}')
  .action(
    action(
      (tenancy, opts: { company: string; environment: string; description?: string; rateLimits?: string; key: string }) =>
        createApiKey(
          tenancy,
          {
            companyId: opts.company,
            environment: parseEnvironment(opts.environment),
            description: opts.description,
            rateLimits: opts.rateLimits === undefined ? undefined : rateLimitsOption(opts.rateLimits),
            key: opts.key,
          },
          new Date(),
        ),
      // The key is made before the command runs, so its entry names it (never the secret, made by createApiKey).
      (_tenancy, opts) => {
        opts.key = newApiKey();
        const { company, environment, ...options } = opts;
        return recorded('key create', [{ companyId: company, environment: parseEnvironment(environment) }], `api_key:${opts.key}`, options);
      },
    ),
  );
key
  .command('list')
  .description('list keys (never their secrets)')
  .option('--company <id>', 'only this Company\'s keys')
  .action(
    action((tenancy, opts: { company?: string }) => {
      if (opts.company !== undefined) requireCompany(tenancy, opts.company);
      return tenancy.listApiKeys(opts.company).map(toView);
    }),
  );
key
  .command('disable <key>')
  .description('refuse the key from now on (the record stays)')
  .action(action((tenancy, k: string) => updateApiKey(tenancy, k, { enabled: false }), (tenancy, k) => keyCommand(tenancy, 'key disable', k, {})));
key
  .command('enable <key>')
  .description('accept the key again')
  .action(action((tenancy, k: string) => updateApiKey(tenancy, k, { enabled: true }), (tenancy, k) => keyCommand(tenancy, 'key enable', k, {})));
key
  .command('update <key>')
  .description('change a key\'s description or raise its rate limits')
  .option('--description <text>', 'what the key is for')
  .option('--rate-limits <json>', 'budgets to set, e.g. {"tier_3":100}')
  .action(
    action((tenancy, k: string, opts: { description?: string; rateLimits?: string }) =>
      updateApiKey(tenancy, k, {
        description: opts.description,
        rateLimits: opts.rateLimits === undefined ? undefined : rateLimitsOption(opts.rateLimits),
      }),
      (tenancy, k, opts) => keyCommand(tenancy, 'key update', k, opts),
    ),
  );

program
  .command('backup <dir>')
  .description('copy the store into an empty or new directory, also while the server runs')
  .option('--compact', 'leave out free pages (slower, smaller)', false)
  .action(storeAction((env, dir: string, opts: { compact: boolean }) => backup(env, dir, opts.compact)));

/** A secret file's first line: an editor's or `echo`'s final newline is not part of the secret. */
function secretFromFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw invalidRequest('secret-file', `${file} cannot be read: ${(err as Error).message}`);
  }
  return text.split(/\r?\n/, 1)[0];
}

const importing = program.command('import').description('bulk-load records through a running server\'s HTTP API');
importing
  .command('customers <file>')
  .description('create customers from NDJSON, one POST /customers body a line (- reads stdin); exits 1 unless every line succeeded')
  // The server's own default (HOST 127.0.0.1, PORT 8080).
  .option('--url <url>', 'the server', `http://127.0.0.1:${process.env.PORT || '8080'}`)
  .option('--key <key>', 'API key (default: TALLY_API_KEY)')
  .option('--secret <secret>', 'API secret, visible to every user in the process list (ps): prefer --secret-file or TALLY_API_SECRET')
  .option('--secret-file <file>', 'read the API secret from this file (its first line)')
  .option('--concurrency <n>', 'requests in flight', positiveInteger, 8)
  .option('--errors <file>', 'write each failed line here as JSON {line, status, code, error} (default: stderr)')
  .action(
    command(async (file: string, opts: { url: string; key?: string; secret?: string; secretFile?: string; concurrency: number; errors?: string }) => {
      const key = opts.key ?? process.env.TALLY_API_KEY;
      if (opts.secret !== undefined && opts.secretFile !== undefined) throw invalidRequest('secret', 'give --secret or --secret-file, not both');
      const secret = opts.secret ?? (opts.secretFile !== undefined ? secretFromFile(opts.secretFile) : process.env.TALLY_API_SECRET);
      if (!key || !secret) throw invalidRequest('key', 'an API key and secret are required (--key and --secret-file, --secret, or TALLY_API_KEY and TALLY_API_SECRET)');
      const summary = await importCustomers(file, { ...opts, key, secret });
      if (summary.failed > 0) process.exitCode = 1;
      return summary;
    }),
  );

await program.parseAsync();
