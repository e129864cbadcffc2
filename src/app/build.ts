import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import Fastify, { LogController } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import pino from "pino";
import { accountingRoutes } from "../accounting/index.js";
import { apiKeyRoutes, KeyCache } from "../api-keys/index.js";
import { auditRoutes } from "../audit/routes.js";
import { type AnswerFloor, authRoutes, type OidcSettings } from "../auth/index.js";
import { commissionRoutes } from "../commissions/index.js";
import { compPlanRoutes } from "../comp-plans/index.js";
import type { TrustProxy } from "../config.js";
import type { EmbeddedPg } from "../db/pglite-thread.js";
import type { Db } from "../db/schema.js";
import { dealRoutes } from "../deals/index.js";
import { disputeRoutes } from "../disputes/index.js";
import { drawRoutes } from "../draws/index.js";
import { exchangeRateRoutes } from "../exchange-rates/index.js";
import { DEFAULT_LISTEN, ServiceOrigin } from "../http/origin.js";
import type { App } from "../http/types.js";
import { FILE_TOO_LARGE, importRoutes, MAX_FILE_BYTES } from "../imports/index.js";
import { jobRoutes } from "../jobs/routes.js";
import { mcpRoutes } from "../mcp/routes.js";
import { type NotificationSettings, notificationRoutes } from "../notifications/index.js";
import { payoutRunRoutes } from "../payout-runs/index.js";
import { planAcknowledgementRoutes } from "../plan-acknowledgements/index.js";
import { type Limit, PER_KEY, type RateLimitStore } from "../rate-limit/limiter.js";
import { MemoryStore } from "../rate-limit/stores.js";
import { requestLogRoutes } from "../request-logs/routes.js";
import { RequestLogWriter } from "../request-logs/writer.js";
import { DEFAULT_SESSION_SETTINGS, type SessionSettings } from "../sessions/index.js";
import { spiffRoutes } from "../spiffs/index.js";
import { userRoutes } from "../users/index.js";
import { type WebhookSettings, webhookRoutes } from "../webhooks/index.js";
import { BODY_LIMIT, registerBodyParsers, registerCsvBody } from "./body-parsers.js";
import { ClientErrors } from "./client-errors.js";
import { registerCompression } from "./compression.js";
import { consoleFallback, registerConsole, WebConsole } from "./console.js";
import { registerDocs } from "./docs.js";
import { handleError } from "./error-handler.js";
import { healthRoutes } from "./health.js";
import { registerIdempotency } from "./idempotency.js";
import { registerIfMatch } from "./if-match.js";
import { registerInputChecks } from "./input-checks.js";
import { knownRoutes, MAX_PARAM_LENGTH, registerNotFound } from "./not-found.js";
import { documentFor, openApiDocument, registerOpenApi } from "./openapi.js";
import { registerPipeline, requestIdGenerator } from "./pipeline.js";
import { registerRecordHeaders } from "./record-headers.js";
import { STATIC_SECURITY_HEADERS, writeSecurityHeaders } from "./security-headers.js";

export const VERSION: string = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")).version;

export interface AppOptions {
  db: Db;
  /**
   * The embedded instance behind `db`, if that is what it is: key changes then reach the key cache by
   * NOTIFY inside their COMMIT. Without it the cache checks a version before trusting itself (any database).
   */
  pglite?: EmbeddedPg | undefined;
  env: string;
  publicUrl?: string | undefined;
  /** CTS_HOST and CTS_PORT: the origin without CTS_PUBLIC_URL (API.md §20 (d)); the port once listening. */
  listen?: { host: string; port: number };
  tls?: { cert: string; key: string } | undefined;
  trustProxy?: TrustProxy;
  logger?: pino.Logger;
  rateLimits?: RateLimitStore;
  /** Injected in tests to move time (rate-limit windows, expiry). */
  clock?: () => Date;
  /** Secret key and target exemptions; without them (tools that never deliver) a throwaway key. */
  webhooks?: WebhookSettings;
  /** CTS_REQUEST_TIMEOUT: seconds a request's headers and body may take to arrive (default 30). */
  requestTimeoutSeconds?: number;
  /** Benchmarks only: a raised per-key limit (API.md §3's 100 per minute otherwise). */
  perKeyLimit?: Limit;
  /** Benchmarks only: more routes under /api/v1, behind the whole pipeline (e.g. a trivial one). */
  extraRoutes?: (api: App) => void;
  /** CTS_SESSION_IDLE_MINUTES and CTS_SESSION_MAX_HOURS (API.md §11); their defaults otherwise. */
  sessions?: SessionSettings;
  /** CTS_OIDC_* and the deployment's secret key: OpenID Connect sign-in (API.md §11); its routes 404 without. */
  oidc?: OidcSettings | undefined;
  /** Email notifications (CTS_SMTP_URL, CTS_MAIL_FROM, CTS_PUBLIC_URL): invitations and resets are emailed. */
  mail?: NotificationSettings | undefined;
  /** Tests only: POST /auth/password-reset's answer floor on the test's clock and timer (auth/answer-floor.ts). */
  resetAnswerFloor?: AnswerFloor;
  /** Tests only (CTS_TEST_CRASH_AFTER_COMMIT): the process kills itself between an idempotent commit and its reply. */
  crashAfterCommit?: boolean;
}

export interface BuiltApp {
  app: App;
  requestLog: RequestLogWriter;
  /** The origin its links are written with: the CLI asks the running server for it (API.md §20 (d)). */
  origin: ServiceOrigin;
}

/**
 * CTS_TRUST_PROXY as Fastify wants it. A hop count becomes "trust the nearest N hops": Fastify 5.12
 * takes a bare number as trusting no one, which would put every client behind the proxy on one IP.
 */
function trustProxyOption(
  trust: TrustProxy | undefined,
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === "number") return (_address, hop) => hop < trust;
  return trust ?? false;
}

/** The whole HTTP service: pipeline, error handling, every feature's routes, OpenAPI and docs. */
export async function buildApp(options: AppOptions): Promise<BuiltApp> {
  const logger = options.logger ?? pino({ level: "silent" });
  const clock = options.clock ?? (() => new Date());
  const requestLog = new RequestLogWriter(options.db, (err) => logger.error({ err }, "request log write failed"));
  const timeoutMs = (options.requestTimeoutSeconds ?? 30) * 1000;
  const clientErrors = new ClientErrors({
    logger,
    requestLog,
    clock,
    requestTimeoutSeconds: timeoutMs / 1000,
  });
  const fastify = Fastify({
    loggerInstance: logger,
    // One JSON line per request comes from the pipeline's onResponse hook instead.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdGenerator,
    requestIdHeader: false,
    bodyLimit: BODY_LIMIT,
    // Draining requests are answered (with Connection: close), not refused: see the pipeline.
    return503OnClosing: false,
    trustProxy: trustProxyOption(options.trustProxy),
    ...(options.tls ? { https: { cert: options.tls.cert, key: options.tls.key } } : {}),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH },
    // zod validates and serializes every route: given as the factories too, Fastify never loads its
    // default compilers (ajv and fast-json-stringify: ~90 ms of a cold start). Fastify types the
    // factories for ajv's schemas; it calls what they return as it calls setValidatorCompiler's.
    schemaController: {
      compilersFactory: { buildValidator: () => validatorCompiler, buildSerializer: () => serializerCompiler } as never,
    },
    // Slow or stalled clients: headers and body within CTS_REQUEST_TIMEOUT (408), idle keep-alive
    // connections closed after 72 s (longer than common load balancers' 60 s), 1,000 requests each.
    requestTimeout: timeoutMs,
    keepAliveTimeout: 72_000,
    maxRequestsPerSocket: 1000,
    clientErrorHandler: clientErrors.handle,
    // A URL that cannot be decoded or routed is refused before any hook runs: still the contract's body.
    frameworkErrors: (err, req, reply) => {
      reply.header("Request-Id", req.id).headers(STATIC_SECURITY_HEADERS);
      const sent = handleError(err, req, reply);
      clientErrors.logUnrouted(req, reply.statusCode);
      return sent;
    },
  });
  // Node checks those timeouts on this interval (30 s by default), read when the server starts listening.
  Object.assign(fastify.server, {
    headersTimeout: timeoutMs,
    connectionsCheckingInterval: Math.min(1000, timeoutMs / 2),
  });
  const origin = new ServiceOrigin({
    publicUrl: options.publicUrl,
    tls: options.tls !== undefined,
    ...(options.listen ?? DEFAULT_LISTEN),
  });
  fastify.server.on("listening", () => origin.listening(fastify.server.address()));
  const app = fastify.withTypeProvider<ZodTypeProvider>() as unknown as App;
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);

  app.addHook("onRequest", clientErrors.track);
  const keys = options.pglite ? await KeyCache.notified(options.db, options.pglite) : KeyCache.versioned(options.db);
  app.addHook("onClose", async () => keys.close());
  // Before the pipeline: its hooks may answer (401, 429) and end the request. Synchronous: no promise.
  app.addHook("onRequest", (_req, reply, done) => {
    writeSecurityHeaders(reply);
    done();
  });
  await registerCompression(app);
  const rateLimits = options.rateLimits ?? new MemoryStore();
  const sessions = options.sessions ?? DEFAULT_SESSION_SETTINGS;
  const known = knownRoutes(app);
  const web = new WebConsole();
  const pageFallback = consoleFallback(web, known);
  registerPipeline(app, {
    pageFallback,
    db: options.db,
    keys,
    env: options.env,
    origin,
    tls: options.tls !== undefined,
    rateLimits,
    perKey: options.perKeyLimit ?? PER_KEY,
    sessions,
    requestLog,
    logger,
    clock,
  });
  registerInputChecks(app);
  registerIdempotency(app, options.db, clock, {
    embedded: options.pglite !== undefined,
    crashAfterCommit: options.crashAfterCommit ?? false,
  });
  registerIfMatch(app);
  registerRecordHeaders(app);
  registerBodyParsers(app);
  registerNotFound(app, known, pageFallback);
  await registerOpenApi(app, { version: VERSION });

  healthRoutes(app, options.db);
  let document: Record<string, unknown> | undefined;
  mcpRoutes(app, { version: VERSION });
  await app.register(
    async (api: App) => {
      api.get("/openapi.json", { config: { public: true }, schema: { hide: true } }, async (req) => {
        document ??= openApiDocument(app);
        return documentFor(document, req.publicOrigin);
      });
      apiKeyRoutes(api);
      authRoutes(api, {
        db: options.db,
        env: options.env,
        sessions,
        rateLimits,
        clock,
        oidc: options.oidc,
        mail: options.mail,
        answerFloor: options.resetAnswerFloor,
      });
      notificationRoutes(api, options.mail !== undefined);
      userRoutes(api);
      requestLogRoutes(api, requestLog);
      jobRoutes(api);
      auditRoutes(api);
      compPlanRoutes(api, options.mail);
      spiffRoutes(api);
      exchangeRateRoutes(api);
      webhookRoutes(api, options.webhooks ?? { secretKey: randomBytes(32), allowHosts: [], allowHttp: false });
      dealRoutes(api);
      disputeRoutes(api);
      commissionRoutes(api);
      payoutRunRoutes(api);
      drawRoutes(api);
      accountingRoutes(api);
      planAcknowledgementRoutes(api);
      // The imports take text/csv bodies up to 32 MiB; every other route keeps the JSON parser and 1 MiB.
      await api.register(async (csv: App) => {
        registerCsvBody(csv, { bytes: MAX_FILE_BYTES, tooLarge: FILE_TOO_LARGE });
        importRoutes(csv);
      });
      options.extraRoutes?.(api);
    },
    { prefix: "/api/v1" },
  );
  await registerDocs(app);
  registerConsole(app, web);
  app.addHook("onClose", async () => requestLog.flush());
  await app.ready();
  return { app, requestLog, origin };
}
