// Loaded into the memory suite's 300-turn daemon with NODE_OPTIONS=--import (never into the idle daemons,
// never in production): on SIGUSR2 it appends one JSON line with the process's own view of its memory to
// $FERMIX_BENCH_MEMORY_PROBE. It reads figures only; it never triggers a GC.
import { appendFileSync } from 'node:fs';
import v8 from 'node:v8';

const memories = new Set();
function remember(exports) {
  for (const value of Object.values(exports ?? {})) if (value instanceof WebAssembly.Memory) memories.add(value);
}
// undici's HTTP parser and the bash grammar are WebAssembly; their linear memories never shrink. (SQLite is
// native since decision 0032: its memory is in the RSS, outside the heap.)
const RealInstance = WebAssembly.Instance;
WebAssembly.Instance = new Proxy(RealInstance, {
  construct(target, args, newTarget) {
    const instance = Reflect.construct(target, args, newTarget);
    remember(instance.exports);
    return instance;
  },
});
const realInstantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function instantiate(...args) {
  const result = await realInstantiate.apply(this, args);
  remember((result.instance ?? result).exports);
  return result;
};
const RealMemory = WebAssembly.Memory;
WebAssembly.Memory = new Proxy(RealMemory, {
  construct(target, args, newTarget) {
    const memory = Reflect.construct(target, args, newTarget);
    memories.add(memory);
    return memory;
  },
});

process.on('SIGUSR2', () => {
  const usage = process.memoryUsage();
  const spaces = {};
  for (const space of v8.getHeapSpaceStatistics()) spaces[space.space_name.replace(/_space$/, '')] = { committed: space.space_size, used: space.space_used_size, physical: space.physical_space_size };
  const code = v8.getHeapCodeStatistics();
  appendFileSync(process.env.FERMIX_BENCH_MEMORY_PROBE, `${JSON.stringify({ usage, spaces, code, wasm: [...memories].map((memory) => memory.buffer.byteLength) })}\n`);
});
