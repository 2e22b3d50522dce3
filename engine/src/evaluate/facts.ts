/** The facts the compiled conditions read, built once per evaluation from the cart as received. */
import type { CartFacts, CustomerFacts, LineFacts } from '../conditions/index.js';
import { idString } from '../ids.js';
import type { ZonedDate } from '../time/zonedDate.js';
import type { CartInput } from './cartInput.js';
import { isIdentified, type ContextInput } from './contextInput.js';

const NO_ATTRIBUTES: Readonly<Record<string, unknown>> = Object.freeze({});
const NO_FEATURES: string[] = [];

export function buildFacts(input: CartInput, context: ContextInput, created: ZonedDate): CartFacts {
  const { cart } = input;
  const lines: LineFacts[] = input.lines.map((line) => {
    // A line sent with the id only has the catalogue's code and EAN (docs/carts.md, Context).
    const known = line.productId === null ? undefined : context.productCodes[line.productId];
    return {
      index: line.index,
      order: line.order,
      product_id: line.productId ?? undefined,
      product_code: line.raw.product_code ?? known?.code,
      product_ean: line.raw.product_ean ?? known?.ean,
      supplier_id: line.raw.supplier_id === undefined || line.raw.supplier_id === null ? undefined : idString(line.raw.supplier_id, `lines[${line.index}].supplier_id`),
      features: (line.productId !== null && context.productFeatures[line.productId]) || NO_FEATURES,
      quantity: line.quantity,
      total: line.current,
      original_total: line.originalCents,
      attributes: line.raw.attributes ?? NO_ATTRIBUTES,
    };
  });
  return {
    total: input.totalCents,
    original_total: input.originalCents,
    location_id: input.locationId ?? undefined,
    location_code: cart.location_code,
    location_features: context.locationFeatures,
    channel: cart.channel,
    currency: input.currency,
    attributes: cart.attributes ?? NO_ATTRIBUTES,
    customer: customerFacts(context),
    creation_date: { weekday: created.weekday, hour: created.hour },
    lines,
  };
}

/** The customer as conditions see it (also the only facts of a game play, which has no cart). */
export function customerFacts(context: ContextInput): CustomerFacts {
  const customer = context.customer;
  return {
    identified: isIdentified(context),
    id: context.customerId ?? undefined,
    code: customer?.code,
    country: customer?.country,
    gender: customer?.gender,
    kind: customer?.kind,
    tier: customer?.tier,
    attributes: customer?.attributes ?? NO_ATTRIBUTES,
  };
}
