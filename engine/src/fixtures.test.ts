/** Golden cases as data: engine/fixtures/<case>/{campaigns,cart,context,expected}.json (settings.json optional). */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { compileCampaigns, evaluateCart } from './index.js';
import { SETTINGS } from '../test-support/scenario.js';

const root = fileURLToPath(new URL('../fixtures/', import.meta.url));
const read = (dir: string, name: string) => JSON.parse(readFileSync(`${root}${dir}/${name}.json`, 'utf8'));

describe('golden cases', () => {
  it.each(readdirSync(root))('%s', (dir) => {
    const settings = existsSync(`${root}${dir}/settings.json`) ? read(dir, 'settings') : SETTINGS;
    const outcome = evaluateCart(compileCampaigns(read(dir, 'campaigns'), settings), read(dir, 'cart'), read(dir, 'context'));
    expect(outcome).toEqual(read(dir, 'expected'));
  });
});
