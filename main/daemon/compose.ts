import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDispatcher, type Dispatcher, type Handlers } from '../api/dispatcher.js';
import { ensureHome, homePaths, resolveHome, type HomePaths } from '../config/home.js';
import { loadConfig } from '../config/config-file.js';
import type { FermixConfig } from '../config/schema.js';
import { FERMIX_VERSION } from '../core/version.js';
import { cliCommand } from '../cli/invocation.js';
import { openDatabase, type Database } from '../store/database.js';
import { schemaTemplateName } from '../store/schema-template.js';
import { createConversationStore } from '../store/conversations.js';
import { createEventBus, type EventBus } from './event-bus.js';
import { activityEventLogger, logSettingsChange } from './activity-log.js';
import { createHttpAuth } from './http-auth.js';
import { createWebSessionStore } from './web-sessions.js';
import { createCallSignals } from './call-signals.js';
import { createHttpServer } from './http-server.js';
import { createControlSocket } from './control-socket.js';
import { acquirePidLock } from './pid-lock.js';
import { createLogger } from './logger.js';
import { createDoctor } from './doctor.js';
import { baseDoctorChecks } from './doctor-checks.js';
import { packageRoot } from './package-root.js';
import { SYSTEM_STREAM } from '../api/events.js';
import { builtinToolsFor } from './builtin-tools.js';
import { createToolServices } from './tool-services.js';
import { createVoiceHandlers } from './voice-handlers.js';
import { createSandboxHandlers } from './sandbox-handlers.js';
import { computerUseState, createComputerHandlers, createComputerUseControl } from './computer-handlers.js';
import { createSettingsHandlers } from './settings-handlers.js';
import { createProviderSettingsHandlers } from './provider-settings-handlers.js';
import { createChatHistoryHandlers } from './chat-history-handlers.js';
import { createConversationHandlers } from './conversation-handlers.js';
import { createAttachmentHandlers } from './attachment-handlers.js';
import { createAttachmentSink } from './attachment-sink.js';
import { createAttachmentStore } from '../store/attachments.js';
import { homedir } from 'node:os';
import { createSecretStore } from '../secrets/secret-store.js';
import { createMcpService } from '../mcp/service.js';
import { createMcpHandlers } from './mcp-handlers.js';
import { applyCommandCapabilities } from '../sandbox/index.js';
import { createAgentService, createChatHandlers, createConfigReader } from '../agent/index.js';
import { createCapabilityService, type CapabilityService } from './capability-service.js';
import { setUpComputerUse, type MacPermissions } from '../computer/index.js';
import { createPluginService } from '../plugins/service.js';
import type { HttpRailNet } from '../plugins/rails/http/interpreter.js';
import { createPluginHandlers } from './plugin-handlers.js';
import { authTokensDoctorCheck, pluginsDoctorCheck } from '../plugins/doctor-check.js';
import { createJobs, type JobClock } from '../jobs/index.js';
import { createJobHandlers } from './job-handlers.js';
import { createMemorySkillHandlers } from './memory-skill-handlers.js';
import { spawnSuccessor } from './restart.js';
import { createMemoryService } from '../memory/service.js';
import { DEFAULT_AGENT_ID } from '../memory/admission.js';
import { createSkillService, type SkillService } from '../skills/service.js';
import { mainAgentRole } from '../core/capabilities/roles.js';

export interface DaemonOptions {
  home?: string;
  /** Overrides [fermix_web] port; 0 picks a free port. */
  port?: number;
  verbose?: boolean;
  rendererDir?: string;
  /** From the Electron shell: powerMonitor.getSystemIdleTime (Windows idle, whole seconds). */
  systemIdleSeconds?: () => number;
  /** From the Electron shell (systemPreferences): macOS Accessibility and Screen Recording grants, for doctor. */
  macPermissions?: () => MacPermissions | undefined;
  /** Tests only: Net.Guard options for plugin HTTP rails (the minted loopback policy, a test CA). No config key reaches this. */
  pluginNet?: HttpRailNet;
  /** From the Electron shell: relaunch the app (app.relaunch + app.exit) for system.restart; headless daemons respawn instead. */
  relaunch?: () => void;
  /** Tests only: the jobs scheduler's clock (a manual clock runs a job "at its time" without waiting). */
  jobsClock?: JobClock;
}

/** How long after start-up the daemon purges expired deleted conversations and stale uploads. */
export const HOUSEKEEPING_DELAY_MS = 200;
/** How long after start-up the daemon installs the bundled plugins the store lacks. */
export const BUNDLED_INSTALL_DELAY_MS = 500;

export interface RunningDaemon {
  paths: HomePaths;
  config: FermixConfig;
  port: number;
  url: string;
  token: string;
  events: EventBus;
  /** The one router; the Electron shell adapts IPC to it. */
  dispatcher: Dispatcher;
  capabilities: CapabilityService;
  /** Computer use's pause switch, for the tray. */
  computerUse: ReturnType<typeof createComputerUseControl>;
  db: Database;
  stop(reason?: string): Promise<void>;
  stopped: Promise<void>;
}

/**
 * THE composition root: the only place that knows every module and wires them together.
 * Both hosts use it: `fermix daemon` (plain Node) and the Electron main process (main/shell).
 */
export async function startDaemon(options: DaemonOptions = {}): Promise<RunningDaemon> {
  // Start-up phases, logged with 'daemon started' so slow starts can be explained from the log.
  const startupMarks: Record<string, number> = {};
  let lastMark = performance.now();
  const mark = (phase: string) => {
    const now = performance.now();
    startupMarks[phase] = Math.round(now - lastMark);
    lastMark = now;
  };
  const paths = homePaths(options.home ?? resolveHome());
  ensureHome(paths);
  // Config errors stop start-up before anything is locked or opened.
  const { config } = loadConfig(paths.config);
  const logger = createLogger({ file: paths.logFile, level: options.verbose ? 'debug' : config.logging.level, stderr: options.verbose ?? false });
  const lock = acquirePidLock(paths.pidFile);
  mark('config_and_lock');
  const cleanups: (() => Promise<void> | void)[] = [() => lock.release()];
  const startedAt = new Date();
  const lifetime = new AbortController();
  let inFlight = 0;

  try {
    const events = createEventBus();
    events.subscribe(activityEventLogger(logger));
    const keychain = createSecretStore({ kind: config.fermix_core.secret_store, profile: config.fermix_core.profile, fermixHome: paths.home });
    // Started before the (synchronous) database open: probing the OS jail spawns bwrap, which then
    // runs while the database opens instead of after it.
    const toolsStarting = createToolServices({ config, paths, events, keychain, logger });
    // A fresh home's database is a copy of the schema the build made (store/schema-template.ts), not a
    // run of every migration; without the template (a build that has none) the migrations run as before.
    const db = openDatabase(paths.database, { ownsDaemonLock: true, schemaTemplate: () => join(packageRoot(), 'out', 'node', schemaTemplateName()) });
    cleanups.unshift(() => db.close());
    mark('database');
    const conversations = createConversationStore(db);
    const attachmentStore = createAttachmentStore({ db, home: paths.home });
    const tools = await toolsStarting;
    cleanups.unshift(() => tools.shutdown());
    mark('tool_services');
    // Re-parses config.toml only when it changed (mtime/size): settings edits apply to the next call or turn.
    const configReader = createConfigReader(paths.config);
    const secretStoreFor = (profile: string) => createSecretStore({ kind: configReader().fermix_core.secret_store, profile, fermixHome: paths.home });
    // The one pause switch for computer use (tray, window, slash commands, and the tool itself).
    const computerUse = createComputerUseControl(false);
    // Registered only when enabled and the native layer works here; nut-js is not even loaded otherwise.
    const computerSetup = await setUpComputerUse({
      enabled: config.fermix_core.computer_use.enabled,
      control: computerUse,
      liveEnabled: () => configReader().fermix_core.computer_use.enabled,
      accessMode: () => configReader().sandbox.mode,
      systemIdleSeconds: options.systemIdleSeconds,
    });
    if (!computerSetup.ready && config.fermix_core.computer_use.enabled) logger.warn('computer use not registered', { reason: computerSetup.reason });
    const computerNative = () => (computerSetup.ready ? { registered: true, idle: computerSetup.runtime.idleDetection() } : { registered: false, reason: computerSetup.reason });
    const memory = createMemoryService({
      db,
      promptFilesDir: join(paths.home, 'memory', DEFAULT_AGENT_ID),
      onPromptFilesError: (error) => logger.warn('memory USER.md/MEMORY.md not rebuilt (the database still holds every memory)', { error: String(error) }),
      onInjectionFlag: (flag) => logger.warn('memory injection_scan flagged a stored memory (kept as data)', { trace: 'fermix.security.injection_scan', ...flag }),
    });
    // The skill registry needs the agent (skill_run's sub-turn), created below; the catalog reads it late.
    const late: { skills?: SkillService } = {};
    const capabilities = createCapabilityService({
      config,
      configFile: paths.config,
      db,
      events,
      tools: builtinToolsFor(config, { computerUse: computerSetup.ready ? computerSetup.capability : undefined }),
      computerUseReady: () => computerSetup.ready && configReader().fermix_core.computer_use.enabled,
      services: { ...tools.services, attachments: createAttachmentSink({ store: attachmentStore, events }), memory },
      permissionMode: () => configReader().permissions.mode,
      onError: (message, error) => logger.error(message, { error: String(error) }),
      commandsUnjailed: !tools.jailStatus.active,
    });
    // Plugins: readiness decided and ready plugins' tools registered before the agent's first turn.
    const plugins = createPluginService({
      pluginsDir: paths.plugins, configFile: paths.config, resourcesDir: join(packageRoot(), 'resources'), coreVersion: FERMIX_VERSION,
      keychain, registry: capabilities.registry, net: options.pluginNet,
      onProgress: (progress) => events.emit(SYSTEM_STREAM, 'plugins.install_progress', progress),
    });
    // Shutdown stops every MCP-rail plugin process (their process groups) and any sign-in still waiting
    // on its loopback redirect.
    cleanups.unshift(async () => {
      plugins.oauth.close();
      await plugins.close();
    });
    try {
      plugins.reload();
      // A refused dev_local folder fails loudly in the log too; the daemon and the other plugins run on.
      for (const refusal of plugins.supervisor.devLocal()?.refusals ?? []) logger.warn('dev_local plugin folder refused', { folder: refusal.folder, code: refusal.code, field: refusal.field, error: refusal.message });
    } catch (error) {
      logger.error('plugins could not be loaded', { error: String(error) });
    }
    const builtinNames = new Set(capabilities.registry.list().map((cap) => cap.name));
    applyCommandCapabilities(capabilities.registry, { config: config.sandbox, daemonEnv: process.env, reserved: builtinNames });
    const reloadSandbox = () => {
      const next = loadConfig(paths.config).config;
      tools.reloadSandbox(next.sandbox);
      const swapped = applyCommandCapabilities(capabilities.registry, { config: next.sandbox, daemonEnv: process.env, reserved: builtinNames });
      logger.info('sandbox reloaded', { mode: next.sandbox.mode, ...swapped });
      return { mode: next.sandbox.mode, commands_added: swapped.added, commands_removed: swapped.removed };
    };
    // Every window and the tray follow the switch live, whoever flips it (tray, another window, `fermix` CLI),
    // and an enable or disable too; with bootEnabled the event says when a restart is still needed.
    const emitComputerState = () => events.emit('system', 'computer.state', { ...computerUseState(configReader, computerUse, computerNative, config.fermix_core.computer_use.enabled), acting: computerSetup.ready && computerSetup.runtime.acting() });
    computerUse.onChange(emitComputerState);
    const computerHandlers = createComputerHandlers({ control: computerUse, config: configReader, native: computerNative, configFile: paths.config, bootEnabled: config.fermix_core.computer_use.enabled, acting: () => computerSetup.ready && computerSetup.runtime.acting() });
    const setComputerEnabled = computerHandlers['computer.set_enabled'];
    computerHandlers['computer.set_enabled'] = async (input, context) => {
      const answer = await setComputerEnabled(input, context);
      emitComputerState();
      return answer;
    };
    if (computerSetup.ready) {
      // A finished turn (/stop included) ends its computer-use session: held keys and buttons are let go.
      const runtime = computerSetup.runtime;
      const unsubscribe = events.subscribe((event) => {
        if (event.type === 'chat.turn_finished') void runtime.endSession((event.payload as { conversation_id: string }).conversation_id);
      });
      // "Acting now" in the tray while an action runs.
      const unsubscribeActivity = runtime.onActivity(emitComputerState);
      cleanups.unshift(() => {
        unsubscribe();
        unsubscribeActivity();
      });
    }
    // Operator MCP servers start in the background: their tools appear as each one becomes ready.
    const mcp = createMcpService({
      registry: capabilities.registry, invoker: capabilities.invoker, approvals: capabilities.approvals, audit: capabilities.audit.sink, db,
      config: configReader, services: () => capabilities.services, secrets: () => secretStoreFor(configReader().fermix_core.profile),
      logsDir: paths.logs, workspace: paths.workspace, resolveLoginPath: process.versions.electron !== undefined, logger,
    });
    mcp.start();
    cleanups.unshift(() => mcp.close());
    const agent = createAgentService({
      db,
      registry: capabilities.registry,
      invoker: capabilities.invoker,
      approvals: capabilities.approvals,
      events,
      config: configReader,
      services: () => capabilities.services,
      logger,
      fermixHome: paths.home,
      pluginStatus: () => plugins.supervisor.promptStatus(),
      skillCatalog: (trust) => late.skills?.catalog(trust) ?? [],
      memoryPrompt: (turn) => memory.promptSection(turn),
      // The store named in config.toml now (`fermix secrets migrate` switches it without a restart).
      secrets: { keyring: (name, profile) => secretStoreFor(profile).get(name), env: (name) => process.env[name] },
    });
    // Runs before the store closes: running turns are cancelled, parked turns stay parked for the next start.
    cleanups.unshift(() => agent.close());
    // Scheduled jobs: only the daemon schedules. Stopped before the agent closes (cleanups run newest first).
    const jobs = createJobs({
      db, agent, registry: capabilities.registry, clock: options.jobsClock, logger,
      emit: (stream, type, payload) => void events.emit(stream, type as never, payload as never),
      hideConversation: (id) => void conversations.remove(id),
      watch: (stream, seen) => events.subscribe((event) => void (event.stream === stream && seen())),
      mainRole: () => mainAgentRole(configReader()),
      providers: () => Object.keys(configReader().providers),
    });
    capabilities.services.jobs = jobs.port;
    cleanups.unshift(() => jobs.scheduler.stop());
    const skills = createSkillService({
      locations: { bundledDir: join(packageRoot(), 'resources', 'skills'), localDir: paths.skills, pluginsDir: paths.plugins },
      registry: capabilities.registry,
      journalsDir: join(paths.home, 'journals'),
      role: () => mainAgentRole(configReader()),
      subTurn: (request) => agent.runSubTurn(request),
      onError: (message, fields) => logger.warn(message, fields),
      onEvent: (message, fields) => logger.warn(message, fields),
    });
    // A bad SKILL.md is an error line in the log (and in skill_reload's report), never a failed start.
    const loadedSkills = skills.reload();
    logger.info('skills loaded', { count: loadedSkills.count, errors: loadedSkills.errors.length });
    late.skills = skills;
    capabilities.services.skills = skills;
    mark('capabilities_and_agent');
    const doctor = createDoctor();
    for (const check of baseDoctorChecks(paths, { insideDaemon: true, db, mcp: () => mcp.supervisor.list(), computerUse: { live: computerNative, macPermissions: options.macPermissions } })) doctor.register(check);
    doctor.register(pluginsDoctorCheck(() => plugins, { insideDaemon: true }));
    doctor.register(authTokensDoctorCheck(() => plugins));

    let stopRequested: (reason: string) => void = () => {};
    // Browser sessions survive restarts: the cookie id's HMAC under secret_key_base (a protected path) is kept in run/.
    const webSessions = createWebSessionStore({ secretFile: join(paths.home, 'secret_key_base'), sessionsFile: join(paths.run, 'web-sessions.json'), onWarn: (message, fields) => logger.warn(message, fields) });
    const auth = createHttpAuth(undefined, webSessions);
    let httpUrl: string | null = null;

    const handlers: Partial<Handlers> = {
      'system.health': () => ({ live: true, ...readiness() }),
      'system.status': () => ({
        pid: process.pid,
        version: FERMIX_VERSION,
        started_at: startedAt.toISOString(),
        uptime_s: Math.round((Date.now() - startedAt.getTime()) / 1000),
        home: paths.home,
        http_url: httpUrl,
        socket: paths.socket,
        in_flight: inFlight,
        // The About screen names `fermix logs` as it runs here (`npx fermix logs` in a checkout).
        cli: cliCommand(),
      }),
      'system.rotate_token': () => {
        const { revoked } = auth.rotate();
        http.closeEventClients();
        writeRuntimeInfo();
        logger.info('web token rotated; every window session revoked', { revoked_sessions: revoked });
        return { url: `${httpUrl ?? ''}#token=${auth.token}`, revoked_sessions: revoked };
      },
      'system.stop': () => {
        // Answer first, then stop: the caller waits for the pid to disappear.
        setTimeout(() => stopRequested('stop requested over the API'), 10);
        return { stopping: true as const, pid: process.pid };
      },
      'system.restart': () => {
        // Answer first, then stop (as system.stop); the successor waits for this pid to be gone.
        const mode = options.relaunch ? ('relaunch' as const) : ('respawn' as const);
        if (mode === 'respawn') spawnSuccessor(port);
        logger.info('restart requested over the API', { mode });
        setTimeout(() => (options.relaunch ? options.relaunch() : stopRequested('restart requested over the API')), 10);
        return { restarting: true as const, pid: process.pid, mode };
      },
      'system.doctor': async () => ({ checks: await doctor.run() }),
      ...createConversationHandlers({ conversations, events }),
      'events.replay': (input) => events.replay(input.stream, input.after_seq),
      ...capabilities.handlers,
      ...createChatHandlers(agent, { events }),
      ...createChatHistoryHandlers({ db }),
      ...createAttachmentHandlers({ store: attachmentStore, db, logger }),
      ...computerHandlers,
      ...createSettingsHandlers({
        configFile: paths.config,
        fermixHome: paths.home,
        workspace: paths.workspace,
        home: homedir(),
        keychain: secretStoreFor,
        reloadSandbox: () => void reloadSandbox(),
      }),
      ...createProviderSettingsHandlers({ configFile: paths.config, keychain: secretStoreFor }),
      ...createVoiceHandlers({ config: configReader, keychain: secretStoreFor, logger }),
      ...createPluginHandlers(plugins),
      ...createJobHandlers(jobs.service),
      ...createMemorySkillHandlers({ memory, skills }),
      ...createMcpHandlers(mcp, { configFile: paths.config, secrets: () => secretStoreFor(configReader().fermix_core.profile) }),
      'directory_access.pending': (input) => ({
        pending: tools.directoryAccess.pending(input.conversation_id).map((grant) => ({
          token: grant.token, conversation_id: grant.conversationId, path: grant.path, reason: grant.reason, diff: grant.diff, message: grant.message, expires_at: new Date(grant.expiresAt).toISOString(),
        })),
      }),
      'sandbox.reload': () => reloadSandbox(),
      ...createSandboxHandlers({ sandbox: () => tools.sandbox, jail: tools.jailStatus, config: () => configReader().sandbox, home: homedir(), fermixHome: paths.home, daemonEnv: process.env }),
      // Only the chat window answers folder grants: a sandboxed command could call the CLI to approve itself.
      'directory_access.answer': async (input, context) => ({
        outcome: await tools.directoryAccess.answer({ token: input.token, decision: input.decision, conversationId: input.conversation_id, trust: 'operator', origin: context.transport === 'socket' ? 'cli' : 'chat' }),
      }),
    };

    const components = { store: true, http: false, socket: false };
    function readiness() {
      const not_ready = Object.entries(components)
        .filter(([, ready]) => !ready)
        .map(([component]) => ({ component, reason: 'starting' }));
      return { ready: not_ready.length === 0, not_ready };
    }

    const inner = createDispatcher(handlers, { onInternalError: (method, error) => logger.error('api method failed', { method, error: String((error as Error)?.stack ?? error) }) });
    const callSignals = createCallSignals(lifetime.signal);
    const dispatcher: Dispatcher = {
      async dispatch(method: string, input: unknown, context: Parameters<typeof inner.dispatch>[2]) {
        inFlight += 1;
        const call = context.signal ? undefined : callSignals.open();
        try {
          const answer = await inner.dispatch(method, input, { ...context, signal: context.signal ?? call?.signal });
          if (answer.ok) logSettingsChange(logger, method, input, context.transport);
          return answer;
        } finally {
          call?.release();
          inFlight -= 1;
        }
      },
    };

    const http = createHttpServer({
      dispatcher,
      mcp: mcp.http,
      events,
      auth,
      rendererDir: options.rendererDir ?? join(packageRoot(), 'out', 'renderer'),
      readiness,
      onError: (message, error) => logger.error(message, { error: String(error) }),
      onWarn: (message, fields) => logger.warn(message, fields),
    });
    const port = await http.listen(options.port ?? config.fermix_web.port);
    tools.setDaemonPort(port); // the managed browser refuses the daemon's own origin
    cleanups.unshift(() => http.close());
    components.http = true;
    mark('http');
    httpUrl = `http://127.0.0.1:${port}/`;

    const socket = createControlSocket({ path: paths.socket, dispatcher, events, onError: (message, error) => logger.warn(message, { error: String(error) }) });
    await socket.listen();
    cleanups.unshift(() => socket.close());
    components.socket = true;
    mark('socket');

    const url = `${httpUrl}#token=${auth.token}`;
    // The CLI reads this to print the window URL (`fermix status`); 0600 because it holds the token.
    // Rewritten when the token rotates (system.rotate_token).
    function writeRuntimeInfo(): void {
      writeFileSync(paths.runtimeInfo, JSON.stringify({ pid: process.pid, port, url: `${httpUrl}#token=${auth.token}`, version: FERMIX_VERSION, started_at: startedAt.toISOString() }, null, 2), { mode: 0o600 });
    }
    writeRuntimeInfo();
    cleanups.unshift(() => rmSync(paths.runtimeInfo, { force: true }));
    agent.start(); // resumes turns parked for approval before the last shutdown
    jobs.scheduler.start(); // runs left unfinished by the last process are marked interrupted, never re-run
    logger.info('daemon started', { pid: process.pid, port, home: paths.home, version: FERMIX_VERSION, jail: tools.jailStatus.active, startup_ms: startupMarks });
    // The bundled Google trio is always present: installed (verified, as `plugins install`) in the
    // background when the store lacks it, BUNDLED_INSTALL_DELAY_MS after the daemon answers rather than at
    // that moment: the verification is main-thread work, and the first requests come in just then (a
    // build whose catalog key is not trusted tries, and logs why, on every start). Shutdown waits for an
    // install in flight.
    let bundledInstall: Promise<void> = Promise.resolve();
    const bundledTimer = setTimeout(() => {
      bundledInstall = plugins.installBundled().then(
        (result) => {
          if (result.installed.length > 0) logger.info('bundled plugins installed', { plugins: result.installed });
          // One line per cause, not per plugin: an untrusted dev signer refuses all three the same way.
          const byCause = new Map<string, { code: string; error: string; plugins: string[] }>();
          for (const failure of result.failed) {
            const key = `${failure.code}\u0000${failure.message}`;
            const entry = byCause.get(key) ?? { code: failure.code, error: failure.message, plugins: [] };
            entry.plugins.push(failure.name);
            byCause.set(key, entry);
          }
          for (const cause of byCause.values()) logger.warn('bundled plugins not installed', cause);
        },
        (error) => logger.error('bundled plugins could not be installed', { error: String(error) }),
      );
    }, BUNDLED_INSTALL_DELAY_MS);
    bundledTimer.unref();
    cleanups.unshift(() => {
      clearTimeout(bundledTimer);
      return bundledInstall;
    });
    // Housekeeping that no request waits for runs just after the daemon answers, not before: each was a
    // statement SQLite compiled on the start path (~2-3 ms of start-up together, docs/decisions/0027).
    const housekeeping = setTimeout(() => {
      try {
        // What was deleted more than a day ago (past its Undo) goes for good, once per start.
        conversations.purgeDeleted();
        const swept = attachmentStore.sweepStaged();
        if (swept > 0) logger.info('unsent attachment uploads removed', { count: swept });
      } catch (error) {
        logger.warn('start-up housekeeping failed', { error: String(error) });
      }
    }, HOUSEKEEPING_DELAY_MS);
    housekeeping.unref();
    cleanups.unshift(() => clearTimeout(housekeeping));

    let resolveStopped: () => void = () => {};
    const stopped = new Promise<void>((resolve) => (resolveStopped = resolve));
    let stopping: Promise<void> | undefined;
    const stop = (reason = 'stopped') => {
      stopping ??= (async () => {
        logger.info('daemon stopping', { reason, in_flight: inFlight });
        events.emit(SYSTEM_STREAM, 'daemon.stopping', { reason });
        lifetime.abort(new Error(`daemon ${reason}`));
        for (const cleanup of cleanups) {
          try {
            await cleanup();
          } catch (error) {
            logger.error('cleanup failed', { error: String(error) });
          }
        }
        logger.info('daemon stopped', { reason });
        logger.close();
        resolveStopped();
      })();
      return stopping;
    };
    stopRequested = (reason) => void stop(reason);
    return { paths, config, port, url, token: auth.token, events, dispatcher, capabilities, computerUse, db, stop, stopped };
  } catch (error) {
    for (const cleanup of cleanups) await cleanup();
    logger.close();
    throw error;
  }
}
