/**
 * docs/openapi.json as an integrator's tools read it: Redocly's linter (the
 * one openapi-typescript runs) finds no problem, and openapi-typescript's types
 * let a typed client compile that reads ids as numbers, nullable fields as
 * `| null` and error answers as {error, code}.
 */
import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const source = readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8');

describe('docs/openapi.json in generators', () => {
  it('passes Redocly lint (recommended, examples checked) without an error or a warning', async () => {
    const config = await createConfig({
      extends: ['recommended'],
      rules: {
        // Checked too: examples must match their schemas.
        'no-invalid-schema-examples': 'error',
        'no-invalid-parameter-examples': 'error',
        'no-invalid-media-type-examples': 'error',
        // No generator needs a summary; the operationId and the contract's section name an operation (docs/decisions.md).
        'operation-summary': 'off',
      },
    });
    const problems = await lintFromString({ source, absoluteRef: 'openapi.json', config });
    expect(problems.map((p) => `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([]);
  });

  it('generates TypeScript types that a typed client compiles against', async () => {
    const types = astToString(await openapiTS(JSON.parse(source), { silent: true }));
    const client = `
      import type { paths } from './schema.js';
      type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
      type Responses<P extends keyof paths, M extends keyof paths[P]> = paths[P][M] extends { responses: infer R } ? R : never;
      type Answer<P extends keyof paths, M extends keyof paths[P], S extends keyof Responses<P, M>> = Json<Responses<P, M>[S]>;
      declare function call<P extends keyof paths, M extends keyof paths[P]>(method: M, path: P): Promise<{ [S in keyof Responses<P, M>]: { status: S; body: Json<Responses<P, M>[S]> } }[keyof Responses<P, M>]>;

      export async function integration(): Promise<void> {
        const got = await call('get', '/customers/{value}');
        if (got.status === 200) {
          const id: number = got.body.id;
          const code: string | null | undefined = got.body.code;
          // @ts-expect-error a field the server may answer null is not a plain string
          const name: string | undefined = got.body.name;
          void [id, code, name];
        } else if (got.status === 404 || got.status === 400 || got.status === 429 || got.status === 503) {
          const failure: { error: string; code: string } = got.body;
          void failure;
        } else if (got.status === 403) {
          const forbidden: 'Forbidden' = got.body.message;
          void forbidden;
        }
        const points: Answer<'/customers/{value}/points', 'get', 200> = (await call('get', '/customers/{value}/points')).body as never;
        const score: number = points.score;
        const page: Answer<'/points/transactions', 'get', 200> = (await call('get', '/points/transactions')).body as never;
        const next: string | undefined = page.next_token_starts_after;
        // @ts-expect-error an int64 id is a number, never a string
        const customerId: string = page.data[0]!.customer_id;
        const redeemed: Answer<'/points/redeem', 'post', 402> = (await call('post', '/points/redeem')).body as never;
        const refused: string = redeemed.code;
        const cart: Answer<'/carts/simulate', 'post', 200> = (await call('post', '/carts/simulate')).body as never;
        // A simulated cart may have no id.
        const cartId: number | null | undefined = cart.id;
        const earned: number = cart.score;
        void [score, next, customerId, refused, cartId, earned];
      }
    `;
    const files: Record<string, string> = { '/client/schema.ts': types, '/client/client.ts': client };
    const options: ts.CompilerOptions = {
      strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts'], types: [], exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true,
    };
    const host = ts.createCompilerHost(options);
    const { getSourceFile, fileExists, readFile, directoryExists } = host;
    const local = (name: string) => files[name.replace(/\.js$/, '.ts')];
    host.fileExists = (name) => local(name) !== undefined || fileExists.call(host, name);
    host.directoryExists = (name) => name === '/client' || (directoryExists?.call(host, name) ?? false);
    host.readFile = (name) => local(name) ?? readFile.call(host, name);
    host.getSourceFile = (name, version, ...rest) => {
      const text = local(name);
      return text === undefined ? getSourceFile.call(host, name, version, ...rest) : ts.createSourceFile(name, text, version);
    };
    const program = ts.createProgram(['/client/client.ts'], options, host);
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
  });
});
