import { parseArgs } from 'node:util';
import { homePaths, resolveHome } from '../config/home.js';
import { FERMIX_VERSION } from '../core/version.js';
import { EXIT, UsageError, processIo, reportError, type CliIo } from './output.js';
import { helpFor, localizeUsage, wantsHelp } from './help.js';

// Verbs are imported on demand so that quick verbs do not load the daemon's modules.
const lifecycle = () => import('./verbs/lifecycle.js');
const info = () => import('./verbs/info.js');
const capabilities = () => import('./verbs/capabilities.js');
const audit = () => import('./verbs/audit.js');
const secrets = () => import('./verbs/secrets.js');
const jobs = () => import('./verbs/jobs.js');
const DEFAULT_TAIL_LINES = 100;

export const USAGE = `fermix ${FERMIX_VERSION} — your personal AI agent

Usage: fermix <verb> [options]

  daemon [--port N] [--verbose]   run the daemon in the foreground (--port 0 picks a free port)
  ask [--json] [--session ID] [--stdin] MESSAGE   one turn with the agent (operator trust, your cwd)
  chat [--session ID]             interactive conversation
  providers list|add|remove|primary|set-key|models   model providers (keys go to the OS keychain)
  sandbox status|explain PATH|explain --command CMD|mode MODE|commands …|env …   the sandbox (and whether the OS jail is active)
  grant path P | revoke path P    widen or narrow the sandbox roots (\`sandbox grant path P\` works too)
  status [--json]                 is the daemon running? (exit 3 when it is not)
  health [--json]                 liveness and readiness
  stop [--grace MS]               stop the daemon (SIGKILL after the grace period, default 10000)
  restart [--port N]              stop, then start the daemon in the background
  doctor [--full] [--json]        check the installation, probing the primary provider (--full: the fallbacks too); exit 1 on any FAIL
  config path|validate            where config.toml is; check it
  logs [-f] [-n N] [--json]       show the last N log lines (default ${DEFAULT_TAIL_LINES}), readable; --json prints the raw lines; -f follows
  capabilities [list] [--kind K] [--json]      every capability, grouped
  capabilities inspect NAME [--json]           full normalized detail of one capability
  capabilities call NAME [JSON | --args JSON] [--trust operator|guest] [--interactive]   call through the invoke boundary (audited; asks on a terminal)
  audit [--since 6h|ISO] [--capability N] [--decision allow|deny|rejected] [--json] [--export jsonl|csv]
  secrets set NAME [--stdin] | clear NAME | status NAME   API keys in the OS keychain (never in argv)
  secrets migrate --to keyring|file [--name NAME]   move stored secrets and switch [fermix_core] secret_store
  plugins list|catalog|installed|doctor|enable|disable|reload|install|upgrade|pin|uninstall|gc|auth|config …   plugins (--json everywhere)
  token rotate [--json]           sign every window out (new URL token, all web sessions revoked)
  roles list|check [--json]       every role (operator is built in) and what each reaches; [agents.main] role picks one
  mcp list|tools|restart|logs|add|remove|enable|disable|pins|import|serve|list-exposed   MCP servers ([mcp.servers]) and inbound MCP
  mcp auth login NAME [--no-browser] | auth logout NAME   OAuth sign-in of a Streamable HTTP server (oauth = true)
  jobs list|runs ID|run-now ID|pause ID|resume ID|remove ID [--json]   scheduled jobs (created in the chat with schedule_job)
  memory list|search WORDS|forget ID|KEY [--json]   stored memories (the agent stores them; you forget them)
  skills list|view NAME|reload [--json]   skills ($FERMIX_HOME/skills/<name>/SKILL.md, bundled and plugin ones)
  version                         print the version
  help [VERB]                     this text, or one verb's (also VERB --help)

Environment: FERMIX_HOME (default ~/.fermix).`;

function parsePort(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UsageError(`--port must be 0..65535 (got "${value}")`);
  return port;
}

/** Verb-specific usage beside the table's lines, for `fermix VERB --help`. */
async function verbUsage(): Promise<Record<string, string>> {
  const [{ ASK_USAGE }, { PROVIDERS_USAGE }, { PLUGINS_USAGE }, { JOBS_USAGE }] = await Promise.all([import('./verbs/ask.js'), import('./verbs/providers.js'), import('./verbs/plugins.js'), import('./verbs/jobs.js')]);
  return { ask: ASK_USAGE, chat: 'usage: fermix chat [--session ID]', providers: PROVIDERS_USAGE, plugins: PLUGINS_USAGE, jobs: JOBS_USAGE, memory: (await import('./verbs/memory.js')).MEMORY_USAGE, skills: (await import('./verbs/skills.js')).SKILLS_USAGE, mcp: (await import('./verbs/mcp.js')).MCP_USAGE, daemon: 'usage: fermix daemon [--port N] [--verbose]' };
}

async function printHelp(io: CliIo, words: string[]): Promise<number> {
  if (words.length === 0) {
    io.out(localizeUsage(USAGE));
    return EXIT.ok;
  }
  const text = helpFor(USAGE, words, await verbUsage());
  if (text === undefined) return reportError(io, new UsageError(`unknown verb "${words[0]}"`), false);
  io.out(text);
  return EXIT.ok;
}

export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  let json = argv.includes('--json');
  // `--help` on every verb and subverb, before any verb parses (and refuses) it.
  if (wantsHelp(argv)) return printHelp(io, argv.filter((arg) => !arg.startsWith('-')).slice(0, 2));
  if (argv[0] === 'help') return printHelp(io, argv.slice(1, 3));
  // One grammar (reference §2.18: `fermix grant|revoke path P`); the README's old `sandbox grant path P` is accepted.
  if (argv[0] === 'sandbox' && (argv[1] === 'grant' || argv[1] === 'revoke') && argv[2] === 'path') argv = argv.slice(1);
  // These verbs parse their own flags (free text, `--` before helper commands).
  if (argv[0] === 'ask') return (await import('./verbs/ask.js')).runAsk(argv.slice(1));
  if (argv[0] === 'chat') return (await import('./verbs/ask.js')).runChat(argv.slice(1));
  if (argv[0] === 'providers') {
    const providers = await import('./verbs/providers.js');
    return providers.runProviders(argv.slice(1), providers.processProvidersEnvironment(io, homePaths(resolveHome())));
  }
  // `fermix plugins` parses its own flags (--stdin, --json) and prints the §2.18 envelope itself.
  if (argv[0] === 'plugins') return (await import('./verbs/plugins.js')).pluginsVerb(io, homePaths(resolveHome()), argv.slice(1));
  if (argv[0] === 'mcp') {
    try {
      return await (await import('./verbs/mcp.js')).mcpVerb(argv.slice(1), io, homePaths(resolveHome()));
    } catch (error) {
      const usage = error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS');
      return reportError(io, usage ? new UsageError(error.message) : error, json);
    }
  }
  if (argv[0] === 'sandbox' || argv[0] === 'grant' || argv[0] === 'revoke') {
    try {
      return await (await import('./verbs/sandbox.js')).sandboxVerb(io, homePaths(resolveHome()), argv.filter((arg) => arg !== '--json'), json);
    } catch (error) {
      return reportError(io, error, json);
    }
  }
  try {
    const { values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean', default: false },
        verbose: { type: 'boolean', default: false },
        port: { type: 'string' },
        grace: { type: 'string' },
        follow: { type: 'boolean', short: 'f', default: false },
        lines: { type: 'string', short: 'n' },
        help: { type: 'boolean', short: 'h', default: false },
        full: { type: 'boolean', default: false },
        kind: { type: 'string' },
        args: { type: 'string' },
        trust: { type: 'string' },
        since: { type: 'string' },
        capability: { type: 'string' },
        decision: { type: 'string' },
        export: { type: 'string' },
        limit: { type: 'string' },
        interactive: { type: 'boolean', default: false },
        stdin: { type: 'boolean', default: false },
        to: { type: 'string' },
        name: { type: 'string', multiple: true },
        'secret-store': { type: 'string' },
        'migrate-secrets': { type: 'boolean', default: false },
        history: { type: 'boolean', default: false },
        file: { type: 'string' },
      },
    });
    json = values.json ?? false;
    const [verb, sub] = positionals;
    const paths = homePaths(resolveHome());
    const grace = values.grace === undefined ? 10_000 : Number(values.grace);
    if (!Number.isFinite(grace) || grace < 0) throw new UsageError('--grace takes milliseconds');

    switch (verb) {
      case undefined:
        io.out(localizeUsage(USAGE));
        return EXIT.ok;
      case 'version':
        io.out(json ? JSON.stringify({ schema_version: 1, ok: true, result: { version: FERMIX_VERSION } }) : FERMIX_VERSION);
        return EXIT.ok;
      case 'daemon':
      case 'run':
        return await (await lifecycle()).runDaemonVerb(io, { home: paths.home, port: parsePort(values.port), verbose: values.verbose ?? false });
      case 'status':
        return await (await info()).statusVerb(io, paths, json);
      case 'health':
        return await (await info()).healthVerb(io, paths, json);
      case 'stop':
        return await (await lifecycle()).stopDaemon(io, paths, grace);
      case 'restart':
        return await (await lifecycle()).restartDaemon(io, paths, grace, parsePort(values.port));
      case 'doctor':
        return await (await info()).doctorVerb(io, paths, json, values.full ?? false);
      case 'config':
        return (await info()).configVerb(io, paths, sub, json);
      case 'logs':
        return await (await info()).logsVerb(io, paths, values.lines === undefined ? DEFAULT_TAIL_LINES : Number(values.lines), values.follow ?? false, json);
      case 'capabilities':
        return await (await capabilities()).capabilitiesVerb(io, paths, positionals.slice(1), { json, kind: values.kind, args: values.args, trust: values.trust, interactive: values.interactive });
      case 'token':
        return await (await import('./verbs/token.js')).tokenVerb(io, paths, sub, json);
      case 'roles':
        return (await capabilities()).rolesVerb(io, paths, sub, json);
      case 'secrets':
        return await (await secrets()).secretsVerb(io, paths, positionals.slice(1), { json, stdin: values.stdin ?? false, to: values.to, names: values.name });
      case 'setup':
        // Fermix's spelling: `fermix setup --secret-store file|keyring --migrate-secrets`.
        if (values['secret-store'] === undefined) throw new UsageError('usage: fermix setup --secret-store keyring|file [--migrate-secrets]');
        if (!values['migrate-secrets']) throw new UsageError('fermix setup --secret-store changes where secrets live; add --migrate-secrets to move the stored ones too (same as `fermix secrets migrate --to …`).');
        return await (await secrets()).secretsVerb(io, paths, ['migrate'], { json, stdin: false, to: values['secret-store'], names: values.name });
      case 'jobs':
        return await (await jobs()).jobsVerb(io, paths, positionals.slice(1), { json, limit: values.limit });
      case 'memory':
        return await (await import('./verbs/memory.js')).memoryVerb(io, paths, positionals.slice(1), { json, limit: values.limit, history: values.history ?? false });
      case 'skills':
        return await (await import('./verbs/skills.js')).skillsVerb(io, paths, positionals.slice(1), { json, file: values.file });
      case 'audit':
        return await (await audit()).auditVerb(io, paths, { json, since: values.since, capability: values.capability, decision: values.decision, exportFormat: values.export, limit: values.limit });
      default:
        throw new UsageError(`unknown verb "${verb}"`);
    }
  } catch (error) {
    if (error instanceof TypeError && (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      return reportError(io, new UsageError(error.message), json);
    }
    return reportError(io, error, json);
  }
}
