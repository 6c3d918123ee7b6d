import type { Capability } from '../../main/core/capabilities/capability.js';
import { createInvoker, createMemoryAuditSink, createMemoryRuleStore, createPermissionGate, createRegistry } from '../../main/core/capabilities/index.js';
import { median, metric, percentile, type Metric } from '../metric.js';

const CLASSES = ['read_only', 'read_write', 'exec', 'network', 'external_api'] as const;

function synthetic(index: number): Capability {
  const executor = async (args: Record<string, unknown>) => ({ text: String(args.q ?? '') });
  return {
    name: `tool_${index}`,
    description: `Synthetic tool number ${index} for the registry benchmark.`,
    parameters: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
    kind: index % 3 === 0 ? 'mcp' : 'builtin',
    executor,
    hidden_from_agent: index % 50 === 0,
    policy_class: CLASSES[index % CLASSES.length],
    metadata: { category: index % 7 === 0 ? 'scheduling' : 'file' },
    group: 'fs',
    scope_requirements: [],
    audit_behavior: 'full',
    is_stateful: false,
  };
}

function timeEach(iterations: number, work: (index: number) => void): number[] {
  const samples: number[] = [];
  for (let index = 0; index < iterations; index += 1) {
    const started = process.hrtime.bigint();
    work(index);
    samples.push(Number(process.hrtime.bigint() - started) / 1e3);
  }
  return samples;
}

export async function run(): Promise<Metric[]> {
  const registry = createRegistry();
  for (let index = 0; index < 5000; index += 1) registry.register(synthetic(index));

  // find: batches of 1,000 lookups, per-lookup time = batch / 1000 (a single lookup is below timer resolution).
  const findBatches = timeEach(200, (batch) => {
    for (let index = 0; index < 1000; index += 1) registry.find(`tool_${(batch * 1000 + index) % 5000}`);
  }).map((micros) => micros / 1000);

  const listSamples = timeEach(300, () => {
    registry.list_for({ trust: 'operator', excluded_categories: ['scheduling'] });
  }).map((micros) => micros / 1000);

  // A filter the registry has not seen (a new excluded name each time): one pass over the sorted entries.
  const coldSamples = timeEach(300, (index) => {
    registry.list_for({ trust: 'operator', excluded_categories: ['scheduling'], excluded_names: [`cold_${index}`] });
  }).map((micros) => micros / 1000);

  // The first list_for after a change (register, unregister, a family swap): the index is updated
  // incrementally, so this is the filter pass alone, not a re-sort of 5,000 entries.
  const afterChange: number[] = [];
  const filter = { trust: 'operator' as const, excluded_categories: ['scheduling'] };
  for (let index = 0; index < 300; index += 1) {
    const step = index % 3;
    if (step === 0) registry.register(synthetic(5000 + index));
    else if (step === 1) registry.unregister(`tool_${5000 + index - 1}`);
    else registry.replace_kind('skill', { family: 'bench' }, [{ ...synthetic(9000 + (index % 7)), kind: 'skill', metadata: { category: 'file', family: 'bench' } }]);
    const started = process.hrtime.bigint();
    registry.list_for(filter);
    afterChange.push(Number(process.hrtime.bigint() - started) / 1e6);
  }

  // Boundary overhead: validate + trust filter + gate + audit vs calling the executor directly, same tool.
  const gate = createPermissionGate({ rules: createMemoryRuleStore(), mode: 'ask' });
  const audit = createMemoryAuditSink();
  const invoker = createInvoker({ registry, gate, audit });
  const target = registry.find('tool_5')!; // read_only
  const direct: number[] = [];
  const boundary: number[] = [];
  const controller = new AbortController();
  for (let index = 0; index < 3000; index += 1) {
    let started = process.hrtime.bigint();
    await target.executor!({ q: 'x' }, { trust: 'operator', origin: 'cli', signal: controller.signal, services: {} });
    direct.push(Number(process.hrtime.bigint() - started) / 1e6);
    started = process.hrtime.bigint();
    await invoker.execute('tool_5', { q: 'x' }, { trust: 'operator', origin: 'cli' });
    boundary.push(Number(process.hrtime.bigint() - started) / 1e6);
    if (audit.records.length > 1000) audit.records.length = 0;
  }
  const overhead = median(boundary.slice(500)) - median(direct.slice(500));
  return [
    metric('registry_find_us', median(findBatches), 'µs', 2, 'lower', 'median per lookup, 5,000 registered'),
    metric('registry_list_for_5000_ms', median(listSamples), 'ms', 1, 'lower', `median, same filter again (a kept view); p95 ${percentile(listSamples, 95).toFixed(3)} ms`),
    metric('registry_list_for_5000_new_filter_ms', median(coldSamples), 'ms', undefined, 'lower', `median, a filter not seen before (one pass); p95 ${percentile(coldSamples, 95).toFixed(3)} ms`),
    metric('registry_first_list_for_after_change_5000_ms', median(afterChange), 'ms', 1, 'lower', `median of 300 changes (register / unregister / replace_kind), p95 ${percentile(afterChange, 95).toFixed(3)} ms`),
    metric('boundary_overhead_median_ms', overhead, 'ms', 0.2, 'lower', 'validate + gate + audit minus a direct executor call'),
  ];
}
