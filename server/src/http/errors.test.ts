import { TallyError } from '@tally/engine';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../log.js';
import { errorReply } from './errors.js';

describe('errors become {error, code} in one place', () => {
  const log = createLogger();
  log.level = 'silent';

  it('answers a TallyError with its contract status and code', () => {
    expect(errorReply(new TallyError('customer_not_found', 'customer 3 does not exist'), log)).toEqual({
      status: 404,
      body: { error: 'customer 3 does not exist', code: 'customer_not_found' },
    });
    expect(errorReply(new TallyError('idempotency_key_reused', 'x'), log).status).toBe(409);
  });

  it('answers anything unexpected with 500 server_error, without its details', () => {
    expect(errorReply(new Error('secret internals'), log)).toEqual({
      status: 500,
      body: { error: 'Internal server error', code: 'server_error' },
    });
    expect(errorReply('a string thrown', log).status).toBe(500);
  });
});
