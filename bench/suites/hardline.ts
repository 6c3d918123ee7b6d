/**
 * Hardline decision time (hardening issue, item 3):
 * - the worst adversarial 128 KiB command — long words, 65,536-stage pipelines, 64 Ki statements,
 *   unclosed quotes, backtick storms, brace and glob bombs, deep nesting, here-doc floods, thousands
 *   of destructive-looking commands fed to `sh`, inputs shaped against each linear rule — goal ≤ 50 ms;
 * - a typical command (the must-pass corpus, test/security/hardline-corpus/allow.txt), goal ≤ 0.1 ms.
 * Each figure is the median of several runs of the same decision. The module is measured as the
 * daemon runs it: bundled by esbuild (tsx's keep-names wrappers would add their own cost), with the
 * tree-sitter parser loaded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { median, metric, percentile, type Metric } from '../metric.js';

type HardlineModule = typeof import('../../main/sandbox/hardline.js');

const ROOT = join(import.meta.dirname, '..', '..');
const SIZE = 128 * 1024;
const context = {
  home: '/home/dev',
  fermixHome: '/home/dev/.fermix',
  cwd: '/home/dev/.fermix/workspace/app',
  isProtected: (p: string) => p === '/home/dev/.ssh' || p.startsWith('/home/dev/.ssh/'),
};

async function loadBundled(): Promise<HardlineModule> {
  const outfile = join(ROOT, 'out', 'bench', 'hardline.mjs');
  await build({
    entryPoints: [join(ROOT, 'main', 'sandbox', 'hardline.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    external: ['web-tree-sitter'],
    logLevel: 'warning',
  });
  return (await import(pathToFileURL(outfile).href)) as HardlineModule;
}

/** Fills `unit` up to exactly SIZE bytes (ASCII), keeping `head` and `tail`. */
function fill(head: string, unit: string, tail = ''): string {
  const room = SIZE - head.length - tail.length;
  return head + unit.repeat(Math.floor(room / unit.length)) + tail;
}

export function adversarialInputs(): Record<string, string> {
  return {
    long_word: fill('echo ', 'A'),
    long_word_unclosed_quote: fill('echo "', 'A'),
    words: fill('echo ', 'A '),
    pipeline_65k_stages: fill('', 'a|', 'a'),
    pipeline_broken_tail: fill('', 'a|'),
    statements_64k: fill('', 'x;'),
    newlines: fill('', 'a\n'),
    and_chain: fill('', 'a&&', 'a'),
    background_chain: fill('', 'a & '),
    distinct_commands: Array.from({ length: 40_000 }, (_, i) => `c${i.toString(36)}`).join(';').slice(0, SIZE),
    destructive_looking_fed_to_sh: fill('echo "', 'rm -rf build; ', '" | sh'),
    distinct_deletes_fed_to_sh: `echo "${Array.from({ length: 12_000 }, (_, i) => `rm -rf b${i.toString(36)}`).join('; ')}`.slice(0, SIZE - 7) + '" | sh',
    distinct_deletes: Array.from({ length: 12_000 }, (_, i) => `rm -rf b${i.toString(36)}`).join(';').slice(0, SIZE),
    distinct_operands: `rm -rf ${Array.from({ length: 30_000 }, (_, i) => `d${i.toString(36)}`).join(' ')}`.slice(0, SIZE),
    rm_many_targets: fill('rm -rf ', 'dir ', ''),
    rm_many_globs: fill('rm -rf ', '/*a ', ''),
    rm_star_storm: fill('rm -rf /', '*'),
    rm_glob_segments: fill('rm -rf ', '/*'),
    rm_dot_segments: fill('rm -rf ', '/.'),
    rm_deep_glob_path: fill('rm -rf /tmp/', '*/', 'x'),
    rm_bracket_storm: fill('rm -rf /', '[a'),
    brace_groups: fill('rm -rf ', '{a,b}'),
    brace_nested: fill('rm -rf /', '{a,'),
    dollar_storm: fill('"', '$', '"'),
    backtick_storm: fill('', '`'),
    subst_nesting_open: fill('', '$('),
    subst_at_tree_limit: `${'$('.repeat(20)}${'A'.repeat(SIZE - 100)}${')'.repeat(20)}`,
    param_nesting_open: fill('echo ', '${'),
    param_defaults: `echo ${'${a:-'.repeat(60)}x${'}'.repeat(60)} ${'b'.repeat(SIZE - 400)}`,
    single_quotes: fill('', "'a'"),
    double_quotes_subst: fill('', '"$(a)"'),
    heredoc_flood: fill('', 'cat <<E\n'),
    heredoc_big_body: fill('cat > f <<EOF\n', 'line $(x) text\n', 'EOF\n'),
    case_flood: fill('', 'case x in '),
    if_flood: fill('', 'if a; then '),
    function_flood: fill('', 'f(){ '),
    loop_flood: fill('', 'while true; do '),
    sh_c_nesting: `sh -c "${'sh -c \\"'.repeat(3)}${'A'.repeat(SIZE - 80)}"`,
    python_loop_headers: fill('python3 -c "', 'while True: ', '"'),
    python_forks_no_loop: fill('python3 -c "', 'os.fork() ', '"'),
    python_rmtree_calls: fill('python3 -c "', "shutil.rmtree('x') ", '"'),
    perl_backticks: fill("perl -e '", '`a` ', "'"),
    node_spawns: fill('node -e "', 'spawn(x); ', '"'),
    tilde_dots: fill('rm -rf ~a', '.', '!'),
    printf_formats: fill("printf '", '%s', "' | sh"),
    xargs_fed: fill('echo ', 'a ', ' | xargs rm -rf'),
    tokens_at_tree_limit: `${'a '.repeat(4000)}${'B'.repeat(SIZE - 8100)}`,
  };
}

/** Median wall-clock and CPU milliseconds of one decision (CPU time shows what a loaded machine adds). */
function time(hardline: HardlineModule, command: string, runs: number): { wall: number; cpu: number } {
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let k = 0; k < runs; k += 1) {
    const cpuBefore = process.cpuUsage();
    const started = process.hrtime.bigint();
    hardline.findHardline(command, context);
    wall.push(Number(process.hrtime.bigint() - started) / 1e6);
    const used = process.cpuUsage(cpuBefore);
    cpu.push((used.user + used.system) / 1000);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

export async function run(): Promise<Metric[]> {
  const hardline = await loadBundled();
  await hardline.loadHardline();
  if (!hardline.hardlineParserStatus().ready) throw new Error(`the shell parser did not load: ${hardline.hardlineParserStatus().error}`);

  const worst: Array<{ name: string; ms: number; cpu: number }> = [];
  for (const [name, command] of Object.entries(adversarialInputs())) {
    if (Buffer.byteLength(command) > SIZE) throw new Error(`${name} is over 128 KiB`);
    hardline.findHardline(command, context); // warm-up
    const t = time(hardline, command, 7);
    worst.push({ name, ms: t.wall, cpu: t.cpu });
  }
  const worstCpu = [...worst].sort((a, b) => b.cpu - a.cpu)[0];
  worst.sort((a, b) => b.ms - a.ms);

  const typical = readFileSync(join(ROOT, 'test', 'security', 'hardline-corpus', 'allow.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.replaceAll('⏎', '\n'));
  for (let k = 0; k < 20; k += 1) for (const command of typical) hardline.findHardline(command, context);
  const perCommand: number[] = [];
  for (const command of typical) {
    const started = process.hrtime.bigint();
    for (let k = 0; k < 200; k += 1) hardline.findHardline(command, context);
    perCommand.push(Number(process.hrtime.bigint() - started) / 1e6 / 200);
  }
  const over = hardline.findHardline(`echo ${'A'.repeat(SIZE)}`, context);

  console.log(`  slowest adversarial inputs: ${worst.slice(0, 5).map((w) => `${w.name} ${w.ms.toFixed(1)} ms`).join(', ')}`);
  return [
    metric('hardline_worst_128k_decision_ms', worst[0].ms, 'ms', 50, 'lower', `median of 7; worst of ${worst.length} adversarial 128 KiB inputs: ${worst[0].name}`),
    metric('hardline_worst_128k_decision_cpu_ms', worstCpu.cpu, 'ms', 50, 'lower', `CPU time, median of 7 (the same runs; unaffected by other processes): ${worstCpu.name}`),
    metric('hardline_adversarial_median_ms', median(worst.map((w) => w.ms)), 'ms', undefined, 'lower', 'median over the adversarial inputs'),
    metric('hardline_typical_command_ms', median(perCommand), 'ms', 0.1, 'lower', `median over the ${typical.length} must-pass corpus commands; p95 ${percentile(perCommand, 95).toFixed(4)} ms`),
    metric('hardline_over_cap_refused', over?.rule === 'too_long' ? 1 : 0, 'bool', 1, 'higher', '128 KiB + 5 bytes refused by the size cap before parsing'),
  ];
}
