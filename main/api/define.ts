import type { z } from 'zod';

/** One API method: validated input, validated output, and a sentence for `fermix help`/docs. */
export interface MethodSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  input: I;
  output: O;
  description: string;
}

export function defineMethod<I extends z.ZodType, O extends z.ZodType>(spec: MethodSpec<I, O>): MethodSpec<I, O> {
  return spec;
}

export type MethodInput<M> = M extends MethodSpec<infer I, z.ZodType> ? z.input<I> : never;
export type MethodParsedInput<M> = M extends MethodSpec<infer I, z.ZodType> ? z.output<I> : never;
export type MethodOutput<M> = M extends MethodSpec<z.ZodType, infer O> ? z.output<O> : never;
