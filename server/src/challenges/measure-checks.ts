/**
 * The checks shared by everything measured against levels (challenges and
 * tier programs): the attribute must be measurable, and the levels of the
 * structure distinct with rising thresholds.
 */
import { invalidRequest } from '../http/errors.js';
import type { CompanySettings } from '../tenancy/types.js';
import { isCartMetric } from './measure.js';

/** A cart metric, or a numeric custom attribute of the Company's customer schema. */
export function checkMeasuredAttribute(attribute: string, settings: CompanySettings): void {
  if (isCartMetric(attribute)) return;
  const properties = (settings.customer_attribute_schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const type = properties[attribute]?.type;
  if (type !== 'number' && type !== 'integer') {
    throw invalidRequest('attribute', `${attribute} is neither total_spent, carts, points_earned nor a numeric customer attribute of the Company's schema`);
  }
}

export function checkLevels(levels: readonly { level: number; threshold: number }[]): void {
  const sorted = [...levels].sort((a, b) => a.level - b.level);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].level === sorted[i - 1].level) throw invalidRequest('structure', `level ${sorted[i].level} is given twice`);
    if (sorted[i].threshold <= sorted[i - 1].threshold) {
      throw invalidRequest('structure', `the threshold of level ${sorted[i].level} must be above that of level ${sorted[i - 1].level}`);
    }
  }
}
