/**
 * A POST or PATCH /tier_programs body → the program to store. Each field sent
 * replaces the stored one. Levels are distinct and their thresholds rise with
 * the level, so a measured value names exactly one level; the measured
 * attribute is a cart metric (measured.ts) or a numeric attribute of the
 * Company's customer attribute schema.
 */
import { isCartMetric } from '../challenges/measure.js';
import { invalidRequest } from '../http/errors.js';
import type { CompanySettings } from '../tenancy/types.js';
import type { TierLevel, TierProgram } from './types.js';

export interface TierProgramBody {
  name?: string;
  countries?: string[];
  active?: boolean;
  attribute?: string;
  structure?: TierLevel[];
  validity_days?: number | null;
  period_months?: number | null;
}

export function buildProgram(id: string, body: TierProgramBody, settings: CompanySettings, previous?: TierProgram): TierProgram {
  const program: TierProgram = {
    id,
    name: body.name ?? previous!.name,
    countries: body.countries ?? previous?.countries ?? [],
    active: body.active ?? previous?.active ?? true,
    attribute: body.attribute ?? previous!.attribute,
    levels: body.structure ?? previous!.levels,
  };
  const validity = body.validity_days === undefined ? previous?.validity_days : body.validity_days;
  if (validity !== undefined && validity !== null) program.validity_days = validity;
  const months = body.period_months === undefined ? previous?.period_months : body.period_months;
  if (months !== undefined && months !== null) program.period_months = months;
  if (body.attribute !== undefined) checkAttribute(body.attribute, settings);
  if (body.structure !== undefined) checkLevels(body.structure);
  return program;
}

function checkAttribute(attribute: string, settings: CompanySettings): void {
  if (isCartMetric(attribute)) return;
  const properties = (settings.customer_attribute_schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const type = properties[attribute]?.type;
  if (type !== 'number' && type !== 'integer') {
    throw invalidRequest('attribute', `${attribute} is neither total_spent, carts, points_earned nor a numeric customer attribute of the Company's schema`);
  }
}

function checkLevels(levels: readonly TierLevel[]): void {
  const sorted = [...levels].sort((a, b) => a.level - b.level);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].level === sorted[i - 1].level) throw invalidRequest('structure', `level ${sorted[i].level} is given twice`);
    if (sorted[i].threshold <= sorted[i - 1].threshold) {
      throw invalidRequest('structure', `the threshold of level ${sorted[i].level} must be above that of level ${sorted[i - 1].level}`);
    }
  }
}
