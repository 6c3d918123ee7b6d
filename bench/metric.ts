/** One benchmark figure, machine-readable. `goal` is the target and `direction` says which side is good. */
export interface Metric {
  name: string;
  value: number;
  unit: string;
  goal?: number;
  direction?: 'lower' | 'higher';
  met?: boolean;
  note?: string;
}

export function metric(name: string, value: number, unit: string, goal?: number, direction: 'lower' | 'higher' = 'lower', note?: string): Metric {
  const met = goal === undefined ? undefined : direction === 'lower' ? value <= goal : value >= goal;
  return { name, value: Number(value.toPrecision(4)), unit, goal, direction: goal === undefined ? undefined : direction, met, note };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
