/**
 * The engine runs in a browser: esbuild bundles it for platform 'browser'
 * (a Node import would fail the build), and the bundle evaluates a cart in a
 * bare JavaScript context that has no Node globals (no process, require, Buffer).
 */
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';
import { createContext, runInContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { compileCampaigns, evaluateCart } from './index.js';
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
    const input = cart([line(1, 10, 2.99), line(2, 11, 0.29)]);
    sandbox.input = JSON.stringify({ campaigns, settings: SETTINGS, cart: input, context: context() });
    const fromBundle = runInContext(
      `(() => { const i = JSON.parse(input); const p = TallyEngine.compileCampaigns(i.campaigns, i.settings);
        return JSON.stringify(TallyEngine.evaluateCart(p, i.cart, i.context)); })()`,
      sandbox,
    );
    const direct = evaluateCart(compileCampaigns(campaigns, SETTINGS), input, context());
    expect(JSON.parse(fromBundle)).toEqual(direct);
    expect(direct.response.score).toBe(28);
  });
});
