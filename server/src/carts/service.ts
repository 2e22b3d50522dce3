/**
 * The cart hot path, as it runs on a pool worker (or inline on the main
 * thread when WORKERS=0): parse and validate the body, read the context,
 * evaluate with the Company's cached program, and for realtime and create
 * commit the cart in one durable transaction. Returns the response as JSON text.
 */
import { evaluateCart, TallyError, type Cart, type CartResponse, type Context, type Outcome } from '@tally/engine';
import { AssociationStore } from '../associations/store.js';
import { LmdbCampaignStore } from '../campaigns/store.js';
import { LmdbCounterStore } from '../counters/store.js';
import { openCustomerDatabases } from '../customers/databases.js';
import { CustomerStore } from '../customers/store.js';
import { readBalance } from '../points/ledger.js';
import { parseJson } from '../http/json.js';
import { wireInt } from '../http/wire.js';
import type { StoreEnv } from '../store/env.js';
import { tenantPrefix } from '../store/keys.js';
import { LmdbTenancyStore } from '../tenancy/store.js';
import type { CompanySettings, Environment, Tenant } from '../tenancy/types.js';
import { LmdbVoucherStore } from '../vouchers/store.js';
import { LocationStore } from '../locations/store.js';
import type { LocationRecord } from '../locations/types.js';
import { featureKey } from '../taxonomies/types.js';
import { ProductStore } from '../products/store.js';
import { buildContext, resolveCustomer, type CartCustomer, type ContextSources } from './context.js';
import { cartJson, localizedResponse } from './present.js';
import { ProgramCache, type CachedProgram, type OnCompile } from './programs.js';
import { commitCart, evaluationOf, type RealtimeStores } from './realtime.js';
import { readCartRequest, type CartRequest } from './request.js';
import { cartFingerprint, CartRepeats } from './repeats.js';
import { readReturns } from './returns.js';
import { DrawSeeds } from './seed.js';
import { CartStore } from './store.js';
import { customerTier } from '../tiers/customer-tier.js';
import { TierStore } from '../tiers/store.js';
import { rewardPrizeUnits } from '../rewards/prize.js';

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
  /** The Accept-Language language when it is not the Company default (common rule 7); absent: default names. */
  language?: string;
}

export class CartService {
  private readonly sources: ContextSources;
  private readonly stores: RealtimeStores;
  private readonly programs: ProgramCache;
  private readonly tenancy: LmdbTenancyStore;
  private readonly seeds: DrawSeeds;
  private readonly products: ProductStore;
  private readonly settings = new Map<string, CompanySettings>();

  /** `onCompile` is told each time a program is compiled, with the campaigns left out (logged: a test counts them). */
  constructor(env: StoreEnv, onCompile: OnCompile) {
    const carts = new CartStore(env);
    const counters = new LmdbCounterStore(env);
    const vouchers = new LmdbVoucherStore(env);
    const tiers = new TierStore(env);
    this.products = new ProductStore(env);
    // The realtime transaction may resolve its customer again (a merge committed meanwhile), reading customers and
    // associations: never opened first inside a write transaction (docs/storage.md), also in a worker thread.
    openCustomerDatabases(env);
    this.sources = {
      customers: new CustomerStore(env),
      associations: new AssociationStore(env),
      vouchers,
      counters,
      locations: new LocationStore(env),
      products: this.products,
      balance: (tenant, customerId, now) => readBalance(env, tenant, customerId, { now, timezone: this.settingsOf(tenant).timezone }),
      tier: (tenant, customer, now) => {
        const settings = this.settingsOf(tenant);
        return customerTier(tiers, tenant, settings, customer, now);
      },
      rewardPrizeUnits: (...read) => rewardPrizeUnits(env, ...read),
    };
    this.stores = { env, carts, repeats: new CartRepeats(env), counters, vouchers, customers: this.sources.customers };
    this.programs = new ProgramCache(new LmdbCampaignStore(env), onCompile);
    this.tenancy = new LmdbTenancyStore(env);
    this.seeds = new DrawSeeds(env, carts);
  }

  async run(task: CartTask): Promise<string> {
    const tenant: Tenant = { companyId: task.companyId, environment: task.environment };
    const settings = this.settingsOf(tenant, task.settingsVersion);
    const request = readCartRequest(task.body);
    const cached = this.programs.get(tenant, settings);
    const located = this.resolveLocation(tenant, request, cached);
    // A program changed before the realtime transaction may name what this one did not (location_code, location_feature):
    // the cart is evaluated with it with the location completed for it, read on the transaction's view.
    const locatedFor = (program: CachedProgram) => (program === cached ? located : this.resolveLocation(tenant, request, program));
    this.resolveProducts(tenant, request);
    // Read with the customer, in the same snapshot: the realtime transaction compares it to see a merge committed since
    // (simulate writes nothing, so it skips the read).
    const customerStatus = task.operation === 'simulate' ? undefined : this.sources.customers.statusVersion(tenant);
    const resolve = () => resolveCustomer(this.sources, tenant, request);
    const customer = resolve();
    const now = new Date(task.now);
    const evaluateWith = (program: CachedProgram, of: CartCustomer, mode: Context['mode'], seed: string): Outcome => {
      const { body, features } = locatedFor(program);
      const returns = readReturns(this.stores, tenant, { now, timezone: settings.timezone }, of.id, body.returns);
      return evaluate(program, body, {
        ...buildContext(this.sources, tenant, settings, program, of, now, mode, seed, { productIds: request.product_ids, listedCodes: request.listed_codes, saleAt: String(body.creation_date) }),
        ...(returns ? { returns } : {}),
        ...(features ? { location_features: features } : {}),
      });
    };
    // Names in another language only when asked and some campaign of the program answered has them: otherwise the engine's.
    const languageOf = (program: CachedProgram) => (program.texts.size > 0 ? task.language : undefined);
    if (task.operation === 'simulate') {
      const { response } = evaluateWith(cached, customer, 'simulate', '');
      const language = languageOf(cached);
      return cartJson(language === undefined ? response : localizedResponse(response, cached.texts, language, settings));
    }
    // Only instant-win draws read the seed: an HMAC of the body costs about 5 µs a cart without them.
    const seed = cached.program.instantWins.length > 0 ? await this.seeds.seed(tenant, task.body) : '';
    // Evaluated (and serialized) before the transaction: only the re-check and the writes hold the write lock.
    const evaluateFor = (of: CartCustomer, program: CachedProgram) => {
      // A program that gained an instant win inside the transaction draws with the cart's seed too.
      const drawSeed = seed === '' && program.program.instantWins.length > 0 ? this.seeds.seedInTransaction(tenant, task.body) : seed;
      return evaluationOf(evaluateWith(program, of, 'realtime', drawSeed));
    };
    const { json, program } = await commitCart(this.stores, {
      tenant, settings, cached, kind: task.operation, request, customer, customerStatus, resolveCustomer: resolve, now,
      fingerprint: request.id === undefined && request.code === undefined ? cartFingerprint(task.operation, task.body) : undefined,
      evaluation: evaluateFor(customer, cached), programNow: () => this.programs.get(tenant, settings), reevaluate: evaluateFor,
    });
    // The stored cart keeps the default names (it is the record, read by every client); only this answer is localized,
    // with the names of the program it was evaluated with.
    const language = languageOf(program);
    return language === undefined ? json : cartJson(localizedResponse(parseJson(json) as CartResponse, program.texts, language, settings));
  }

  /**
   * The cart to evaluate, its location completed from company data when the location is known: a cart sent with
   * location_code only is evaluated and stored with that location's id; one sent with location_id only is evaluated
   * with the location's code, so that `location_code` leaves (`not_in` too) see where it is, but stored and answered
   * as sent. The code is read only for a program whose rules name `location_code`; the location's features
   * (`<taxonomy_slug>:<feature_id>`, context.location_features) only for one whose rules name `location_feature`,
   * from the same read: a location by id is read once, and not at all for a program that names neither.
   */
  private resolveLocation(tenant: Tenant, request: CartRequest, cached: CachedProgram): { body: CartRequest['body']; features?: string[] } {
    const { body } = request;
    const code = typeof body.location_code === 'string' ? body.location_code : undefined;
    const featuresOf = (location: LocationRecord | undefined) => (cached.usesLocationFeatures && location ? { features: location.features.map(featureKey) } : {});
    if (request.location_id === undefined) {
      const location = code === undefined ? undefined : this.sources.locations.locationByCode(tenant, code);
      if (location) {
        request.location_id = location.id;
        body.location_id = wireInt(location.id);
      }
      return { body, ...featuresOf(location) };
    }
    const needsCode = code === undefined && cached.usesLocationCode;
    if (!needsCode && !cached.usesLocationFeatures) return { body };
    const location = this.sources.locations.locationById(tenant, request.location_id);
    const known = needsCode ? location?.code : null;
    return { body: known ? { ...body, location_code: known } : body, ...featuresOf(location) };
  }

  /**
   * Lines sent without product_id are evaluated and stored with the product's id, when the catalogue knows the
   * product: by product_code, else by product_ean (when one product alone has that EAN).
   */
  private resolveProducts(tenant: Tenant, request: CartRequest): void {
    for (const line of request.body.lines) {
      if (line.product_id !== undefined) continue;
      const id =
        (typeof line.product_code === 'string' ? this.products.productIdByCode(tenant, line.product_code) : undefined) ??
        (typeof line.product_ean === 'string' ? this.products.productIdByEan(tenant, line.product_ean) : undefined);
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
