/**
 * The ajv-formats formats a Company's schema may use (custom event data, the customer attribute schema), each as
 * what a value must be (`mustBeAnyOf`): ajv's own message ("must match format \"email\"") names a format a reader
 * may not know. A format Tally checks elsewhere too is worded as that check is: `date` and `date-time` as the wire
 * types (a route's path or query value, a body's field), `email` as the `X-Author-Email` header and the customer
 * email schema. Formats that accept every value of their type (`float`, `double`, `password`, `binary`) never fail.
 */
import type { FormatName } from 'ajv-formats/dist/formats.js';
import { inRange } from './errors.js';
import { WIRE_DESCRIPTIONS } from './wire.js';

export const FORMAT_DESCRIPTIONS: Readonly<Record<FormatName, string>> = {
  date: WIRE_DESCRIPTIONS.date,
  time: 'a time (hh:mm:ssZ or with an offset such as -0500)',
  'date-time': WIRE_DESCRIPTIONS.datetime,
  'iso-time': 'a time (hh:mm:ss, optionally with Z or an offset such as -0500)',
  'iso-date-time': 'an ISO 8601 datetime (YYYY-MM-DDThh:mm:ss, optionally with Z or an offset such as -0500)',
  duration: 'an ISO 8601 duration (such as P1D or PT1H30M)',
  uri: 'an absolute URI (such as https://example.com/page)',
  'uri-reference': 'a URI or a relative reference',
  'uri-template': 'a URI template (RFC 6570)',
  url: 'a URL',
  email: 'an email address',
  hostname: 'a hostname',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  regex: 'a regular expression',
  uuid: 'a UUID',
  'json-pointer': 'a JSON pointer (such as /a/0)',
  'json-pointer-uri-fragment': 'a JSON pointer URI fragment (such as #/a/0)',
  'relative-json-pointer': 'a relative JSON pointer (such as 1/a)',
  byte: 'base64-encoded bytes',
  int32: inRange('integer', { minimum: -(2 ** 31), maximum: 2 ** 31 - 1 }),
  int64: 'an integer',
  float: 'a number',
  double: 'a number',
  password: 'a string',
  binary: 'a string',
};
