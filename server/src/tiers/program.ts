/**
 * A POST or PATCH /tier_programs body → the program to store. Each field sent
 * replaces the stored one. Levels are distinct and their thresholds rise with
 * the level, so a measured value names exactly one level; the measured
 * attribute is a cart metric (measured.ts) or a numeric attribute of the
 * Company's customer attribute schema.
 */
import type { CompanySettings } from '../tenancy/types.js';
import type { TierProgramsCreate, TierProgramsUpdate } from '../wire/types.js';
import type { TierProgram } from './types.js';
import { checkLevels, checkMeasuredAttribute } from '../challenges/measure-checks.js';

/** A POST body → the new program (its id is given when it is stored). */
export function newProgram(id: string, body: TierProgramsCreate, settings: CompanySettings): TierProgram {
  const blank: TierProgram = { id, name: body.name, countries: [], active: true, attribute: body.attribute, levels: body.structure };
  return changedProgram(blank, body, settings);
}

/** A PATCH body → the stored program with the fields sent replaced (null clears validity_days and period_months). */
export function changedProgram(previous: TierProgram, body: TierProgramsUpdate, settings: CompanySettings): TierProgram {
  const program: TierProgram = {
    id: previous.id,
    name: body.name ?? previous.name,
    countries: body.countries ?? previous.countries,
    active: body.active ?? previous.active,
    attribute: body.attribute ?? previous.attribute,
    levels: body.structure ?? previous.levels,
  };
  const validity = body.validity_days === undefined ? previous.validity_days : body.validity_days;
  if (validity !== undefined && validity !== null) program.validity_days = validity;
  const months = body.period_months === undefined ? previous.period_months : body.period_months;
  if (months !== undefined && months !== null) program.period_months = months;
  if (body.attribute !== undefined) checkMeasuredAttribute(body.attribute, settings);
  if (body.structure !== undefined) checkLevels(body.structure);
  return program;
}
