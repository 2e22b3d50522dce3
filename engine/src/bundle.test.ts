/**
 * The engine runs in a browser: esbuild bundles it for platform 'browser'
 * (a Node import would fail the build), and the bundle evaluates a cart in a
 * bare JavaScript context that has no Node globals (no process, require, Buffer),
 * from campaigns as an app reads them over HTTP too, with the same JSON text.
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { cartCampaignsFromReads, compileCampaigns, evaluateCart } from './index.js';
import { cart, context, discount, line, points, SETTINGS } from '../test-support/scenario.js';

describe('browser bundle', () => {
  it('bundles for the browser and evaluates a cart like the package does', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('./index.ts', import.meta.url))],
      bundle: true,
      platform: 'browser',
      format: 'iife',
      globalName: 'TallyEngine',
      write: false,
      logLevel: 'silent',
    });
    const code = result.outputFiles[0].text;
    const sandbox = createContext({});
    runInContext(code, sandbox);
    expect(runInContext('typeof process + typeof require + typeof Buffer', sandbox)).toBe('undefinedundefinedundefined');

    const campaigns = [discount(1, { rule_effects: [{ type: 'percentage', value: 10 }] }), points(2, { rule_effects: [{ type: 'ratio', value: 10 }] })];
    // What an app reads over HTTP (GET /discounts/{id}): rule objects as JSON strings, absent fields null, renamed ones.
    const reads = [
      { id: 3, type: 'discount', name: 'Capped', category: null, rule_conditions: null, maximum_discount_transaction: 0.05, rule_effects: '[{"type":"direct_value","value":1,"distribution":"total_cart"}]', coupon_info: null },
      { id: 4, type: 'points', name: 'Birthday', when: 'birthday', rule_effects: '[{"type":"direct_value","value":100,"distribution":"total"}]', coupon_info: null },
    ];
    const input = cart([line(1, 10, 2.99), line(2, 11, 0.29)]);
    sandbox.input = JSON.stringify({ campaigns, reads, settings: SETTINGS, cart: input, context: context() });
    const fromBundle = runInContext(
      `(() => { const i = JSON.parse(input);
        const p = TallyEngine.compileCampaigns([...i.campaigns, ...TallyEngine.cartCampaignsFromReads(i.reads)], i.settings);
        return JSON.stringify(TallyEngine.evaluateCart(p, i.cart, i.context)); })()`,
      sandbox,
    );
    const direct = evaluateCart(compileCampaigns([...campaigns, ...cartCampaignsFromReads(reads)], SETTINGS), input, context());
    // Byte for byte, as the server's JSON answer is compared (server/src/carts/offline-parity.test.ts).
    expect(fromBundle).toBe(JSON.stringify(direct));
    expect([direct.response.score, direct.response.total_discount_applied]).toEqual([28, 0.38]);
  });
});
