/** @tally/engine: compile a Company's campaigns once, evaluate carts many times. */
export { compileCampaigns } from './compile/compileCampaigns.js';
export { checkEffectBounds } from './compile/effects.js';
export { couponDatesRefusal, DEFAULT_MAX_REDEMPTIONS, voucherCoupon } from './compile/coupon.js';
export { DEFAULT_ONCE_LIMIT, RULE_PARAMS_DEFAULTS } from './compile/defaults.js';
export { evaluateCart } from './evaluate/evaluateCart.js';
export { emptyWrites } from './evaluate/run.js';
export type { Program, ProgramJSON } from './compile/program.js';
export { TallyError, ERROR_STATUS, statusOf, invalidRequest, cannotBeSentWith, requiredOr, requiredWith, mustBe, mustBeAnyOf, mustBeIn, inRange, typeName, type Bounds, type ErrorCode, type JsonType, type KnownErrorCode } from './errors.js';
export { localDateOf, periodKey } from './time/periodKey.js';
export { endsBeforeStart } from './time/dateWindow.js';
export { cashbackDistance } from './cashbackThreshold.js';
export { currencyOf, isCurrency } from './currency.js';
export { MAX_AMOUNT, MAX_POINTS } from './money.js';
export { customerSummary } from './evaluate/response.js';
export { compileGame, type CompiledGame } from './games/compileGame.js';
export { playGame } from './games/playGame.js';
export type * from './types.js';
export { compileRule, type CompiledRule, type CartFacts, type CustomerFacts } from './conditions/index.js';
