/**
 * GET /carts query: the filters, their exclusivity rules (spec part 2) and
 * the predicate they make. Dates filter the cart's creation_date read as a
 * day of the Company's timezone, both ends included.
 */
import { cannotBeSentWith, invalidRequest } from '../http/errors.js';
import { atMostOne, countryCode, optionalCode, optionalCountries, optionalInt64, optionalWire } from '../http/params.js';
import { localDate } from '../calendar/company-days.js';
import type { CartRecord } from './types.js';

export interface CartQuery {
  customer_id?: string;
  customer_code?: string;
  associate_id?: string;
  location_id?: string;
  location_code?: string;
  order_id?: string;
  from_date?: string;
  to_date?: string;
  id?: string;
  code?: string;
  countries?: ReadonlySet<string>;
}

function text(query: URLSearchParams, name: string): string | undefined {
  const value = query.get(name);
  return value === null || value === '' ? undefined : value;
}

/** `country`, or `countries` in every form the other lists read it (repeated, `countries[]`, comma list). */
function readCountries(query: URLSearchParams): ReadonlySet<string> | undefined {
  const country = text(query, 'country');
  const countries = optionalCountries(query);
  if (country !== undefined && countries !== undefined) throw cannotBeSentWith('countries', 'country');
  return country !== undefined ? new Set([countryCode(country, 'country')]) : countries && new Set(countries);
}

export function readCartQuery(query: URLSearchParams): CartQuery {
  const parsed: CartQuery = {
    customer_id: optionalInt64(query.get('customer_id'), 'customer_id'),
    customer_code: optionalCode(query.get('customer_code'), 'customer_code'),
    associate_id: optionalInt64(query.get('associate_id'), 'associate_id'),
    location_id: optionalInt64(query.get('location_id'), 'location_id'),
    location_code: optionalCode(query.get('location_code'), 'location_code'),
    order_id: text(query, 'order_id'),
    from_date: optionalWire('date', query.get('from_date'), 'from_date'),
    to_date: optionalWire('date', query.get('to_date'), 'to_date'),
    id: optionalInt64(query.get('id'), 'id'),
    code: text(query, 'code'),
    countries: readCountries(query),
  };
  const sent = (name: keyof CartQuery) => parsed[name] !== undefined;
  atMostOne(['id', 'code'], sent);
  atMostOne(['customer_id', 'customer_code', 'location_id'], sent);
  atMostOne(['associate_id', 'customer_id'], sent);
  atMostOne(['associate_id', 'customer_code'], sent);
  if (parsed.from_date !== undefined && parsed.to_date !== undefined && parsed.from_date > parsed.to_date) {
    throw invalidRequest('to_date', 'must not be before from_date');
  }
  return parsed;
}

/**
 * `timezone`: the Company's; from_date and to_date are its days, as carts' targeting and points read the
 * creation date. `locationOfCode`: the id of the location whose code is the query's location_code, when one
 * has it; a cart sent with that location's id only (no location_code) is that location's cart too.
 */
export function cartFilter(query: CartQuery, timezone: string, locationOfCode?: string): (cart: CartRecord) => boolean {
  return (cart) => {
    return (
      (query.id === undefined || cart.id === query.id) &&
      (query.code === undefined || cart.code === query.code) &&
      (query.customer_id === undefined || cart.customer_id === query.customer_id) &&
      (query.associate_id === undefined || cart.associate_id === query.associate_id) &&
      (query.location_id === undefined || cart.location_id === query.location_id) &&
      (query.location_code === undefined || cart.location_code === query.location_code || (locationOfCode !== undefined && cart.location_id === locationOfCode)) &&
      (query.order_id === undefined || cart.order_id === query.order_id) &&
      (query.countries === undefined || (cart.country !== null && query.countries.has(cart.country))) &&
      // Last: only the carts the other filters keep pay for the conversion to a local day.
      inDates(cart, query, timezone)
    );
  };
}

function inDates(cart: CartRecord, { from_date, to_date }: CartQuery, timezone: string): boolean {
  if (from_date === undefined && to_date === undefined) return true;
  const day = localDate(new Date(cart.creation_date), timezone);
  return (from_date === undefined || day >= from_date) && (to_date === undefined || day <= to_date);
}
