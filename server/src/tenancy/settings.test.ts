import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../store/env.js';
import { changeSettings } from './admin.js';
import { LmdbTenancyStore, type TenancyStore } from './store.js';
import type { Tenant } from './types.js';

/** PATCH /company and `tally company update --settings` change settings through changeSettings. */
describe('a settings change', () => {
  const dir = mkdtempSync(join(tmpdir(), 'tally-settings-'));
  const env = openStore(dir);
  const tenancy = new LmdbTenancyStore(env);
  const tenant: Tenant = { companyId: 'acme', environment: 'sandbox' };
  afterAll(async () => {
    await env.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is refused (409 conflict) when another write changed the settings after it read them; that write stays', async () => {
    let other: Promise<unknown> | undefined;
    // Another process (the CLI, a second server) writes between this change's read and its write.
    const racing: TenancyStore = Object.assign(Object.create(tenancy) as TenancyStore, {
      getSettings: (t: Tenant) => {
        const read = tenancy.getSettings(t);
        other ??= changeSettings(tenancy, t, { country: 'FR' });
        return read;
      },
    });
    await expect(changeSettings(racing, tenant, { country: 'PT' })).rejects.toMatchObject({ code: 'conflict' });
    await other;
    expect(tenancy.getSettings(tenant)).toMatchObject({ country: 'FR', version: 2 });
  });
});
