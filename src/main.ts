import type { Server } from "node:net";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import pino from "pino";
import { type CreatedApiKey, ensureBootstrapKey } from "./api-keys/index.js";
import { buildApp } from "./app/build.js";
import { listenMetrics, registerDatabaseGauges } from "./app/metrics-server.js";
import { scheduleRetention } from "./app/retention.js";
import { workSources } from "./app/work-sources.js";
import { setImpactInlineLimit } from "./comp-plans/index.js";
import type { Config } from "./config.js";
import { makeCtx, OWNER } from "./context.js";
import { type Deployment, openDeployment } from "./deployment.js";
import { Worker } from "./jobs/worker.js";
import { createMailer } from "./notifications/index.js";
import { runOwnerCommand } from "./owner/commands.js";
import { checkSocketPath, listenOwnerSocket, ownerSocketPath } from "./owner/socket.js";
import { createRateLimitStore } from "./rate-limit/select.js";
import { FIRST_ADMIN_COMMAND, FIRST_ADMIN_NPM_COMMAND, hasActiveAdmin } from "./users/index.js";
import { listenForDeliveries, resolveWebhookSettings, type WebhookSettings } from "./webhooks/index.js";

/** The package's directory (this file is in src/ or dist/), where `npm run cts` works. */
const PROJECT_ROOT = resolve(fileURLToPath(new URL("..", import.meta.url)));

export interface ServeOptions {
  worker: boolean;
}

/** Printed once, to stderr, never through the JSON logger: the only time the raw key exists outside the client. */
function printBootstrapBanner(key: CreatedApiKey): void {
  const line = "=".repeat(78);
  process.stderr.write(
    `\n${line}\n  Bootstrap admin key (shown once, never stored raw; keep it in a secret manager):\n\n  ${key.key}\n\n` +
      `  id ${key.id} · scope admin · environment ${key.environment}\n` +
      `  Create smaller keys with it (POST /api/v1/api-keys) and evaluate with read keys.\n${line}\n\n`,
  );
}

/**
 * Printed to stderr at every start while no active admin user exists (a new data dir among them): where
 * the console is and the one command that lets its first person in, so nobody has to search the README.
 * After `npm install && npm start` no `cts` is on the PATH: in the project's directory the npm script is
 * the command. It finds this server by its data dir, relative to the directory it runs in: a data dir
 * other than the default is written into it, so it works as printed (a database URL is not: it holds a
 * password).
 */
function printFirstRunBanner(origin: string, config: Config): void {
  const line = "=".repeat(78);
  const cwd = process.cwd();
  const env =
    config.databaseUrl || config.dataDir === resolve("data") ? "" : `CTS_DATA_DIR=${shellWord(config.dataDir)} `;
  const inProject = resolve(cwd) === PROJECT_ROOT;
  const command = `${env}${inProject ? FIRST_ADMIN_NPM_COMMAND : FIRST_ADMIN_COMMAND}`;
  const installed = inProject ? `  (or, where cts is installed as a command: ${env}${FIRST_ADMIN_COMMAND})\n` : "";
  const database = config.databaseUrl ? "  with this server's DATABASE_URL in its environment\n" : "";
  process.stderr.write(
    `\n${line}\n  No one can sign in to the console yet. Make the first admin: in another terminal,\n` +
      `  in ${cwd}, run\n\n    ${command}\n\n${database}${installed}` +
      "  It prints a one-time sign-up link: open it and choose a password.\n" +
      `  The console is at ${origin}/\n${line}\n\n`,
  );
}

/** A path as one POSIX shell word: as is when it holds nothing the shell reads, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w./:@%+=,-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}

function createLogger(config: Config): pino.Logger {
  return pino({ level: config.logLevel, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime });
}

function connectionWarning(logger: pino.Logger) {
  return (message: string, reason: string) => logger.warn({ reason }, message);
}

/** `cts serve`: config → database (locked, migrated) → app → listen (+ worker, + owner socket). */
export async function serve(config: Config, options: ServeOptions): Promise<void> {
  const logger = createLogger(config);
  // Every process that answers /impact (and the MCP tool) decides inline or job by the operator's limit.
  setImpactInlineLimit(config.planImpactInlineLines);
  const webhooks = await resolveWebhookSettings(config);
  warnWebhookExemptions(logger, webhooks);
  if (!config.databaseUrl) {
    const problem = checkSocketPath(ownerSocketPath(config.dataDir));
    if (problem) throw new Error(problem);
  }
  const { deployment, extra: bootstrap } = await openDeployment(
    config,
    (tx) => ensureBootstrapKey(tx, makeCtx(tx, config.env, OWNER)),
    connectionWarning(logger),
  );
  if (bootstrap) printBootstrapBanner(bootstrap);
  const db = deployment.database.db;
  const rateLimits = createRateLimitStore(config, db, logger);
  const mail = config.mail && { publicUrl: config.mail.publicUrl, secretKey: webhooks.secretKey };
  const { app, origin } = await buildApp({
    db,
    pglite: deployment.database.pglite,
    env: config.env,
    publicUrl: config.publicUrl,
    listen: { host: config.host, port: config.port },
    tls: config.tls,
    trustProxy: config.trustProxy,
    requestTimeoutSeconds: config.requestTimeoutSeconds,
    sessions: config.sessions,
    logger,
    rateLimits,
    webhooks,
    oidc: config.oidc && { ...config.oidc, secretKey: webhooks.secretKey },
    mail,
    crashAfterCommit: config.testCrashAfterCommit,
  });
  await app.listen({ host: config.host, port: config.port });
  if (!(await hasActiveAdmin(db))) printFirstRunBanner(origin.value, config);
  const worker = options.worker ? await startWorker(config, deployment, logger, webhooks) : undefined;
  const unlisten = worker && (await wakeOnDeliveries(config, deployment, worker, logger));
  const metrics = await startMetrics(config, deployment);
  const socket = deployment.embedded
    ? await listenOwnerSocket(ownerSocketPath(config.dataDir), (command, args) =>
        runOwnerCommand(
          makeCtx(db, config.env, OWNER),
          command,
          args,
          {
            pid: process.pid,
            address: app.server.address(),
            origin: origin.value,
          },
          { mail },
        ),
      )
    : undefined;
  // Before "cts serving": whoever waits for that line may stop the server at once, and a SIGTERM that
  // arrives with no handler yet kills it without draining.
  onShutdownSignal(logger, config.shutdownTimeoutSeconds, async (remainingMs) => {
    await app.close();
    await worker?.stop(remainingMs());
    await unlisten?.();
    await closeServer(socket);
    await closeServer(metrics);
    await rateLimits.close?.();
    await deployment.close();
  });
  logger.info(
    {
      env: config.env,
      database: deployment.database.kind,
      worker: options.worker,
      address: app.server.address(),
      origin: origin.value,
    },
    "cts serving",
  );
}

/** `cts worker`: background work alone, for deployments that scale API and workers apart. */
export async function work(config: Config): Promise<void> {
  const logger = createLogger(config);
  const webhooks = await resolveWebhookSettings(config);
  warnWebhookExemptions(logger, webhooks);
  const { deployment } = await openDeployment(config, undefined, connectionWarning(logger));
  const worker = await startWorker(config, deployment, logger, webhooks);
  const unlisten = await wakeOnDeliveries(config, deployment, worker, logger);
  const metrics = await startMetrics(config, deployment);
  onShutdownSignal(logger, config.shutdownTimeoutSeconds, async (remainingMs) => {
    await worker.stop(remainingMs());
    await unlisten();
    await closeServer(metrics);
    await deployment.close();
  });
  logger.info({ env: config.env, database: deployment.database.kind, worker: worker.id }, "cts worker running");
}

/** Development exemptions weaken the SSRF rules: say so once, where operators look. */
function warnWebhookExemptions(logger: pino.Logger, webhooks: WebhookSettings): void {
  if (webhooks.allowHosts.length === 0) return;
  const http = webhooks.allowHttp ? "http allowed" : "https only";
  logger.warn(
    { allow_hosts: webhooks.allowHosts, allow_http: webhooks.allowHttp },
    `CTS_WEBHOOK_ALLOW_HOSTS exempts ${webhooks.allowHosts.join(", ")} from the webhook address rules (loopback only, ${http}); for development only`,
  );
}

async function startWorker(
  config: Config,
  deployment: Deployment,
  logger: pino.Logger,
  webhooks: WebhookSettings,
): Promise<Worker> {
  const db = deployment.database.db;
  await scheduleRetention(db, new Date());
  // Embedded: the data-dir lock makes this the only worker, so leases left behind are a dead process's.
  const exclusive = deployment.embedded;
  const mail = config.mail && {
    mailer: await createMailer(config.mail.smtpUrl, config.mail.from),
    publicUrl: config.mail.publicUrl,
    secretKey: webhooks.secretKey,
  };
  const sources = workSources(db, logger, { settings: webhooks, exclusive }, config.workerConcurrency, mail);
  const worker = new Worker({ sources, logger });
  worker.start();
  return worker;
}

/** Committed deliveries wake the worker at once (LISTEN/NOTIFY) instead of at its next poll. */
function wakeOnDeliveries(config: Config, deployment: Deployment, worker: Worker, logger: pino.Logger) {
  return listenForDeliveries(deployment.database, config.databaseUrl, () => worker.wake(), logger);
}

async function startMetrics(config: Config, deployment: Deployment): Promise<Server | undefined> {
  if (config.metricsPort === undefined) return undefined;
  registerDatabaseGauges(deployment.database);
  return listenMetrics(config.host, config.metricsPort);
}

function closeServer(server: Server | undefined): Promise<void> {
  return new Promise((resolve) => (server ? server.close(() => resolve()) : resolve()));
}

/** SIGTERM/SIGINT: stop accepting, drain, close — bounded by CTS_SHUTDOWN_TIMEOUT, then exit anyway. */
function onShutdownSignal(
  logger: pino.Logger,
  timeoutSeconds: number,
  drain: (remainingMs: () => number) => Promise<void>,
): void {
  let stopping = false;
  const handler = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const deadline = Date.now() + timeoutSeconds * 1000;
    logger.info({ signal, timeout_s: timeoutSeconds }, "shutting down");
    setTimeout(
      () => {
        logger.error("shutdown timed out; exiting");
        process.exit(1);
      },
      timeoutSeconds * 1000 + 1000,
    ).unref();
    try {
      await drain(() => Math.max(0, deadline - Date.now()));
      logger.info("stopped");
      process.exit(0);
    } catch (err) {
      logger.error({ err }, "shutdown failed");
      process.exit(1);
    }
  };
  process.on("SIGTERM", handler);
  process.on("SIGINT", handler);
  process.on("unhandledRejection", (err) => logger.error({ err }, "unhandled rejection"));
}
