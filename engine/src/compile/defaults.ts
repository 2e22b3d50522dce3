/**
 * What an absent rule_params field means when a campaign is evaluated. The
 * compiler applies these, and campaign reads show them (a client must not
 * have to know the engine to tell whether a campaign runs).
 */
export const RULE_PARAMS_DEFAULTS = Object.freeze({
  active: true,
  select_customers: 'all_customers',
  coupon_required: false,
  priority: 0,
  stackability_properties: 'stackable',
} as const);

/** The per-customer limit of a `once` period sent without `once_limit`: once in that period (`once: "num_day"` is once a day). */
export const DEFAULT_ONCE_LIMIT = 1;
