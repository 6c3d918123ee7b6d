import { describe, expect, it } from 'vitest';
import { BUILTIN_INPUT_SCHEMAS, BUILTIN_TOOLS, COMPUTER_USE_TOOL } from './index.js';
import { lazySchemasBuilt } from './lazy-schema.js';

// Imported first and read before anything else in this file: vitest gives each test file its own module
// graph, so the count starts at whatever the imports above built — which must be nothing.
const builtAtImport = lazySchemasBuilt();

describe('built-in tool zod schemas are built on first use', () => {
  it('loading the tools builds no schema; reading one tool builds only that tool, once', () => {
    expect(builtAtImport).toBe(0);
    const fileRead = BUILTIN_TOOLS.find((tool) => tool.name === 'file_read');
    expect(fileRead).toBeDefined();
    expect(fileRead!.parameters.type).toBe('object');
    expect(lazySchemasBuilt()).toBe(1);
    expect(fileRead!.parameters.properties).toHaveProperty('path');
    const input = BUILTIN_INPUT_SCHEMAS.file_read();
    expect(BUILTIN_INPUT_SCHEMAS.file_read()).toBe(input);
    expect(lazySchemasBuilt()).toBe(1);
    expect(input.safeParse({ path: 'a.txt' }).success).toBe(true);
  });

  it('the JSON Schemas and the validation errors are the ones the eagerly built schemas gave', async () => {
    // test/fixtures/builtin-tool-schemas.json was written from the schemas as they were built at module
    // load; a deliberate schema change updates it with `npx vitest run main/tools/lazy-schemas.test.ts -u`.
    const current: Record<string, unknown> = {};
    for (const tool of [...BUILTIN_TOOLS, COMPUTER_USE_TOOL]) {
      const input = BUILTIN_INPUT_SCHEMAS[tool.name]();
      const wrong = Object.fromEntries(Object.keys(tool.parameters.properties ?? {}).map((key) => [key, { wrong: true }]));
      current[tool.name] = {
        parameters: tool.parameters,
        ...(tool.output_schema ? { output_schema: tool.output_schema } : {}),
        issues: { empty: input.safeParse({}).error?.issues ?? [], wrong_types: input.safeParse(wrong).error?.issues ?? [] },
      };
    }
    await expect(`${JSON.stringify(current, null, 2)}\n`).toMatchFileSnapshot('../../test/fixtures/builtin-tool-schemas.json');
  });
});
