import { beforeAll, describe, expect, it } from 'vitest';
import { createArgsValidator, strictSchema } from './validate-args.js';
import { makeCapability } from './test-fixtures.js';
import { isFermixError } from '../errors.js';

function refusal(run: () => void) {
  try {
    run();
  } catch (error) {
    if (isFermixError(error)) return error;
    throw error;
  }
  throw new Error('expected the arguments to be refused');
}

describe('strict tool inputs at the invoke boundary', () => {
  const validator = createArgsValidator();
  beforeAll(() => validator.ready());

  it('refuses an unknown property of an MCP schema that says nothing about extras, naming it and the accepted ones', () => {
    const cap = makeCapability({ name: 'mcp_search', kind: 'mcp', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } });
    const error = refusal(() => validator.validate(cap, { query: 'x', pad: 'y'.repeat(1000) }));
    expect(error.code).toBe('invalid_arguments');
    expect(error.message).toBe('Invalid arguments for mcp_search: `pad` is not an accepted argument.');
    expect(error.hint).toContain('only its arguments: query');
    expect(() => validator.validate(cap, { query: 'x' })).not.toThrow();
  });

  it('sees properties declared in allOf branches (2020-12) and draft-07 schemas', () => {
    const composed = makeCapability({ name: 'c', kind: 'mcp', parameters: { type: 'object', allOf: [{ properties: { a: { type: 'string' } } }], properties: { b: { type: 'string' } } } });
    expect(() => validator.validate(composed, { a: 'x', b: 'y' })).not.toThrow();
    expect(refusal(() => validator.validate(composed, { a: 'x', zz: 1 })).message).toContain('`zz` is not an accepted argument');
    const d7 = makeCapability({ name: 'd7', kind: 'mcp', parameters: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: { type: 'string' } } } });
    expect(refusal(() => validator.validate(d7, { a: 'x', zz: 1 })).message).toContain('`zz`');
  });

  it('leaves schemas that allow extras as their authors wrote them, and accepts required-but-undeclared names', () => {
    const open = makeCapability({ name: 'open', kind: 'mcp', parameters: { type: 'object', properties: {}, additionalProperties: true } });
    expect(() => validator.validate(open, { anything: 1 })).not.toThrow();
    expect(strictSchema({ type: 'object', patternProperties: { '^x': {} } }, false)).toEqual({ type: 'object', patternProperties: { '^x': {} } });
    const sloppy = makeCapability({ name: 'sloppy', kind: 'mcp', parameters: { type: 'object', required: ['a'] } });
    expect(() => validator.validate(sloppy, { a: 1 })).not.toThrow();
    expect(refusal(() => validator.validate(sloppy, { a: 1, b: 2 })).message).toContain('`b`');
  });

  it('does not echo a huge unknown property name whole', () => {
    const cap = makeCapability({ name: 'mcp_t', kind: 'mcp', parameters: { type: 'object', properties: { a: { type: 'string' } } } });
    const error = refusal(() => validator.validate(cap, { ['k'.repeat(100_000)]: 1 }));
    expect(error.message.length).toBeLessThan(300);
  });
});
