/**
 * The cart hot path, as it runs on a pool worker (or inline on the main
 * thread when WORKERS=0): parse and validate the body, read the context,
 * evaluate with the Company's cached program, and for realtime and create
 * commit the cart in one durable transaction. Returns the response as JSON text.
 */
import { evaluateCart, TallyError, type Cart, type Context, type Outcome } from '@tally/engine';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { LmdbCounterStore } from '../counters/store.js';
import { CustomerStore } from '../customers/store.js';
import { readBalance } from '../points/ledger.js';
import { wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { tenantPrefix } from '../store/keys.js';
import { LmdbTenancyStore } from '../tenancy/store.js';
import type { CompanySettings, Environment, Tenant } from '../tenancy/types.js';
import { LmdbVoucherStore } from '../vouchers/store.js';
import { LocationStore } from '../locations/store.js';
import { ProductStore } from '../products/store.js';
import { buildContext, resolveCustomer, type CartCustomer, type ContextSources } from './context.js';
import { cartJson } from './present.js';
import { ProgramCache, type CachedProgram } from './programs.js';
import { commitCart, evaluationOf, type RealtimeStores } from './realtime.js';
import { readCartRequest, type CartRequest } from './request.js';
import { readReturns } from './returns.js';
import { DrawSeeds } from './seed.js';
import { CartStore } from './store.js';
import { localDate } from '../points/local-date.js';
import { customerTier } from '../tiers/customer-tier.js';
import { TierStore } from '../tiers/store.js';

export type CartOperation = 'simulate' | 'realtime' | 'create';

/** What the main thread sends a worker: small strings, the body unparsed. */
export interface CartTask {
  operation: CartOperation;
  companyId: string;
  environment: Environment;
  /** The settings version the main thread authenticated with. */
  settingsVersion: number;
  /** ISO instant of the request. */
  now: string;
  /** The request body as received, unparsed. */
  body: string;
}

export class CartService {
  private readonly sources: ContextSources;
  private readonly stores: RealtimeStores;
  private readonly programs: ProgramCache;
  private readonly tenancy: LmdbTenancyStore;
  private readonly seeds: DrawSeeds;
  private readonly products: ProductStore;
  private readonly settings = new Map<string, CompanySettings>();

  /** `onCompile` is told each time a program is compiled (logged: a test counts them). */
  constructor(env: StoreEnv, onCompile: (tenant: string, campaignVersion: number) => void) {
    const carts = new CartStore(env);
    const counters = new LmdbCounterStore(env);
    const vouchers = new LmdbVoucherStore(env);
    const tiers = new TierStore(env);
    this.products = new ProductStore(env);
    this.sources = {
      customers: new CustomerStore(env),
      vouchers,
      counters,
      locations: new LocationStore(env),
      products: this.products,
      balance: (tenant, customerId, now) => readBalance(env, tenant, customerId, { now, timezone: this.settingsOf(tenant).timezone }),
      tier: (tenant, customer, now) => customerTier(tiers, tenant, customer, localDate(now, this.settingsOf(tenant).timezone)),
    };
    this.stores = { env, carts, counters, vouchers, customers: this.sources.customers };
    this.programs = new ProgramCache(new LmdbCampaignStore(env), onCompile);
    this.tenancy = new LmdbTenancyStore(env);
    this.seeds = new DrawSeeds(env, carts);
  }

  async run(task: CartTask): Promise<string> {
    const tenant: Tenant = { companyId: task.companyId, environment: task.environment };
    const settings = this.settingsOf(tenant, task.settingsVersion);
    const request = readCartRequest(task.body);
    const { body } = request;
    this.resolveLocation(tenant, request);
    this.resolveProducts(tenant, request);
    const cached = this.programs.get(tenant, settings);
    // Read with the customer, in the same snapshot: the realtime transaction compares it to see a merge committed since.
    const customerStatus = this.sources.customers.statusVersion(tenant);
    const resolve = () => resolveCustomer(this.sources, tenant, request);
    const customer = resolve();
    const now = new Date(task.now);
    const contextOf = (of: CartCustomer, mode: Context['mode'], seed: string): Context => {
      const returns = readReturns(this.stores, tenant, { now, timezone: settings.timezone }, of.id, body.returns);
      return { ...buildContext(this.sources, tenant, settings, cached, of, now, mode, seed, request.product_ids), ...(returns ? { returns } : {}) };
    };
    if (task.operation === 'simulate') return cartJson(evaluate(cached, body, contextOf(customer, 'simulate', '')).response);
    // Only instant-win draws read the seed: an HMAC of the body costs about 5 µs a cart without them.
    const seed = cached.program.instantWins.length > 0 ? await this.seeds.seed(tenant, task.body) : '';
    // Evaluated (and serialized) before the transaction: only the re-check and the writes hold the write lock.
    const evaluateFor = (of: CartCustomer) => evaluationOf(evaluate(cached, body, contextOf(of, 'realtime', seed)));
    return commitCart(this.stores, {
      tenant, settings, cached, kind: task.operation, request, customer, customerStatus, resolveCustomer: resolve, now, evaluation: evaluateFor(customer), reevaluate: evaluateFor,
    });
  }

  /** A cart sent with location_code only is evaluated and stored with that location's id, when the location is known. */
  private resolveLocation(tenant: Tenant, request: CartRequest): void {
    if (request.location_id !== undefined || typeof request.body.location_code !== 'string') return;
    const location = this.sources.locations.locationByCode(tenant, request.body.location_code);
    if (!location) return;
    request.location_id = location.id;
    request.body.location_id = wireInt(location.id);
  }

  /** Lines sent with product_code only are evaluated and stored with the product's id, when the product is known. */
  private resolveProducts(tenant: Tenant, request: CartRequest): void {
    for (const line of request.body.lines) {
      if (line.product_id !== undefined || typeof line.product_code !== 'string') continue;
      const id = this.products.productIdByCode(tenant, line.product_code);
      if (id === undefined) continue;
      line.product_id = wireInt(id);
      request.product_ids.push(id);
    }
  }

  private settingsOf(tenant: Tenant, version?: number): CompanySettings {
    const key = tenantPrefix(tenant);
    const cached = this.settings.get(key);
    if (cached && (version === undefined || cached.version === version)) return cached;
    const fresh = this.tenancy.getSettings(tenant);
    this.settings.set(key, fresh);
    return fresh;
  }
}

function evaluate(cached: CachedProgram, body: Cart, context: Context): Outcome {
  try {
    return evaluateCart(cached.program, body, context);
  } catch (err) {
    if (err instanceof TallyError) throw err;
    throw new TallyError('server_error', `evaluation failed: ${(err as Error).message}`);
  }
}
