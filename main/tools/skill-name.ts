import { z } from 'zod';

/** Skill names (and skill reference-file names): letters, digits, `_`, `-`, at most 64 characters. */
export const SKILL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

export function skillName(description: string) {
  return z.string().regex(SKILL_NAME_PATTERN).describe(description);
}
