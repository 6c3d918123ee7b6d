/** The doctor framework: subsystems register checks; each returns one line with its fix. */
export type DoctorStatus = 'OK' | 'WARN' | 'FAIL' | 'N/A';

export interface DoctorResult {
  status: DoctorStatus;
  detail: string;
  /** The exact command or screen that fixes a WARN/FAIL; empty when OK. */
  fix: string;
}

export interface DoctorCheck {
  id: string;
  title: string;
  run(): Promise<DoctorResult> | DoctorResult;
}

export interface DoctorRow extends DoctorResult {
  id: string;
  title: string;
}

export function createDoctor() {
  const checks: DoctorCheck[] = [];
  return {
    register(check: DoctorCheck) {
      if (checks.some((existing) => existing.id === check.id)) throw new Error(`Doctor check ${check.id} is registered twice.`);
      checks.push(check);
    },
    async run(): Promise<DoctorRow[]> {
      const rows: DoctorRow[] = [];
      for (const check of checks) {
        try {
          rows.push({ id: check.id, title: check.title, ...(await check.run()) });
        } catch (error) {
          // A crashing check is itself a finding, not a reason to hide the others.
          rows.push({ id: check.id, title: check.title, status: 'FAIL', detail: `check crashed: ${(error as Error).message}`, fix: 'Run `fermix logs -n 50` and report the problem.' });
        }
      }
      return rows;
    },
  };
}

export function doctorExitCode(rows: DoctorRow[]): number {
  return rows.some((row) => row.status === 'FAIL') ? 1 : 0;
}

export function formatDoctorRows(rows: DoctorRow[]): string {
  const width = Math.max(...rows.map((row) => row.title.length), 10);
  return rows
    .map((row) => `${row.status.padEnd(4)}  ${row.title.padEnd(width)}  ${row.detail}${row.fix && row.status !== 'OK' ? `  → ${row.fix}` : ''}`)
    .join('\n');
}
