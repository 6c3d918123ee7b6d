/**
 * A hosted plugin's pinned workspace and access profile, chosen on the setup screen only. Kept in the
 * plugin store (`<pluginsDir>/hosted/<name>.json`), not in config.toml: there is no CLI verb for it
 * and `plugins config set` (manifest-declared UPPER_CASE keys) cannot reach it.
 */
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

const choiceSchema = z.object({ workspace_id: z.string().min(1).max(256), workspace_label: z.string().max(256), profile: z.string().regex(/^[a-z][a-z0-9_]{0,31}$/) }).strict();
export type HostedChoice = z.infer<typeof choiceSchema>;

export function createWorkspaceChoices(pluginsDir: string) {
  const dir = join(pluginsDir, 'hosted');
  const file = (name: string) => join(dir, `${name}.json`);
  return {
    get(name: string): HostedChoice | null {
      try {
        const parsed = choiceSchema.safeParse(JSON.parse(readFileSync(file(name), 'utf8')));
        return parsed.success ? parsed.data : null;
      } catch {
        return null;
      }
    },
    set(name: string, choice: HostedChoice): void {
      mkdirSync(dir, { recursive: true });
      const temp = `${file(name)}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify(choiceSchema.parse(choice))}\n`, { mode: 0o600 });
      renameSync(temp, file(name));
    },
    clear(name: string): void {
      rmSync(file(name), { force: true });
    },
  };
}
export type WorkspaceChoices = ReturnType<typeof createWorkspaceChoices>;
