/**
 * The field rules of the contract's Customer table that a schema cannot
 * express: the alternatives among required fields, canonical forms (email in
 * lowercase, dni in uppercase, phone as digits), birth years outside
 * 1900..9999 stored as null, phone_prefix with phone, push_token with app, a
 * registration location kept by updates.
 */
import { cannotBeSentWith, invalidRequest, requiredOr } from '../http/errors.js';
import type { CustomersCreate, CustomersUpdate } from '../wire/types.js';
import type { CustomerProfile, CustomerRecord } from './types.js';

/** Fields kept outside `profile`: identifiers, secrets, state. */
const NOT_PROFILE = new Set([
  'id', 'code', 'email', 'dni', 'phone', 'status', 'attributes', 'password', 'password_confirmation',
  'referred_by', 'card_id', 'creation_date', 'updated_at',
]);

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
export const normalizeDni = (dni: string) => dni.trim().toUpperCase();
export const normalizePhone = (phone: string) => phone.replace(/\D/g, '');

/** A birth date whose year is outside 1900..9999 is stored as null (contract rule). */
function birth(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  return Number(value.slice(0, 4)) < 1900 ? null : value;
}

function profileOf(body: CustomersCreate | CustomersUpdate): CustomerProfile {
  const profile: CustomerProfile = {};
  for (const [field, value] of Object.entries(body)) if (!NOT_PROFILE.has(field)) profile[field] = value;
  if ('birth' in profile) profile.birth = birth(profile.birth);
  return profile;
}

/** Fewest digits a phone keeps once stripped (the schema's 4..30 characters could all be separators). */
const PHONE_MIN_DIGITS = 4;

/** Checked after normalising: "   " or "----" would otherwise store "" and take the unique empty slot. */
function canonicalDni(dni: string): string {
  const value = normalizeDni(dni);
  if (value === '') throw invalidRequest('dni', 'must have a character other than spaces');
  return value;
}

function canonicalPhone(phone: string): string {
  const value = normalizePhone(phone);
  if (value.length < PHONE_MIN_DIGITS) throw invalidRequest('phone', `must have at least ${PHONE_MIN_DIGITS} digits`);
  return value;
}

/** A sent identifier in canonical form; undefined when absent or null (null clears it on update). */
function identifier(value: string | null | undefined, normalize: (v: string) => string): string | undefined {
  return typeof value === 'string' ? normalize(value) : undefined;
}

function checkCollective(fields: { collective_id?: unknown; collective_slug?: unknown }): void {
  if (fields.collective_id != null && fields.collective_slug != null) {
    throw cannotBeSentWith('collective_slug', 'collective_id');
  }
}

/**
 * Profile fields that name one thing two ways: an update sending one replaces the thing, so the other stored is
 * dropped (a collective_slug stored beside a new collective_id would be "used" with it, against the contract; a
 * registration_location_id stored would outweigh a new registration_location_code).
 */
const NAMED_TWO_WAYS = [
  ['collective_id', 'collective_slug'],
  ['registration_location_id', 'registration_location_code'],
] as const;

/** Codes that are paths of their own under /customers (POST /customers/search, /customers/transfer, /customers/transfer-new): a customer with one could never be read, changed or deleted by code. */
const RESERVED_CODES: readonly string[] = ['search', 'transfer', 'transfer-new'];

function checkCode(code: string | null | undefined): void {
  if (typeof code === 'string' && RESERVED_CODES.includes(code)) throw invalidRequest('code', `'${code}' is reserved (/customers/${code} is an operation's path)`);
}

/** The new record's fields (everything but id, password hash and attributes, which the route settles). */
export function newCustomerFields(body: CustomersCreate, now: string): Omit<CustomerRecord, 'id' | 'password_hash' | 'attributes'> {
  if (body.id === undefined && body.code === undefined) throw requiredOr('id', 'code');
  checkCode(body.code);
  if (body.registration_location_id === undefined && body.registration_location_code === undefined) {
    throw requiredOr('registration_location_id', 'registration_location_code');
  }
  if (body.phone !== undefined && body.phone_prefix === undefined) throw invalidRequest('phone_prefix', 'is required when phone is filled');
  if (body.password_confirmation !== undefined && body.password_confirmation !== body.password) {
    throw invalidRequest('password_confirmation', 'does not match password');
  }
  checkCollective(body);
  const profile = profileOf(body);
  // Create: push_token is used only when app is true.
  if (body.app !== true) delete profile.push_token;
  return {
    code: body.code,
    email: identifier(body.email, normalizeEmail),
    dni: identifier(body.dni, canonicalDni),
    phone: identifier(body.phone, canonicalPhone),
    status: body.status ?? 'active',
    profile,
    referred_by: body.referred_by,
    creation_date: body.creation_date ?? now,
    updated_at: now,
  };
}

/**
 * The record after an update (attributes aside): fields sent replace the
 * stored ones (creation_date too), null clears them; updated_at is the server's time.
 */
export function updatedCustomer(record: CustomerRecord, body: CustomersUpdate, now: string): CustomerRecord {
  if (body.status !== undefined && (record.status === 'merging' || record.status === 'merged')) {
    throw invalidRequest('status', `cannot be changed while the customer is ${record.status}`);
  }
  checkCollective(body);
  const patch = profileOf(body);
  // Update: push_token is used when app is missing, null or true.
  if (body.app === false) delete patch.push_token;
  const profile: CustomerProfile = { ...record.profile, ...patch };
  for (const [one, other] of NAMED_TWO_WAYS) {
    if (patch[one] != null && !(other in patch)) delete profile[other];
    if (patch[other] != null && !(one in patch)) delete profile[one];
  }
  for (const [field, value] of Object.entries(patch)) if (value === null && field !== 'birth') delete profile[field];
  const next: CustomerRecord = { ...record, profile, updated_at: now };
  if ('code' in body) {
    checkCode(body.code);
    next.code = identifier(body.code, (v) => v);
  }
  // A duplicated_email (dni) marker stays while the email (dni) is the one it marks: re-sending it unchanged keeps it.
  if ('email' in body) {
    next.email = identifier(body.email, normalizeEmail);
    if (next.email !== record.email) delete next.duplicated_email;
  }
  if ('dni' in body) {
    next.dni = identifier(body.dni, canonicalDni);
    if (next.dni !== record.dni) delete next.duplicated_dni;
  }
  if ('phone' in body) next.phone = identifier(body.phone, canonicalPhone);
  if (body.status !== undefined) next.status = body.status;
  if (body.creation_date !== undefined) next.creation_date = body.creation_date;
  if (next.phone !== undefined && profile.phone_prefix === undefined) throw invalidRequest('phone_prefix', 'is required when phone is filled');
  checkRegistrationLocation(body, profile);
  return next;
}

/**
 * The create requires a registration location (id or code); an update may clear one of them while the other
 * remains, never both. Judged on the stored record with the update applied (`updatedCustomer` runs inside the
 * update's transaction), and only when the update clears one: a record without either is refused no other change.
 */
function checkRegistrationLocation(body: CustomersUpdate, profile: CustomerProfile): void {
  const clears = body.registration_location_id === null || body.registration_location_code === null;
  if (clears && profile.registration_location_id === undefined && profile.registration_location_code === undefined) {
    throw invalidRequest('registration_location_id', 'is required (or registration_location_code): an update cannot clear both');
  }
}

