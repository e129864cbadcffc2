import { type Config, ConfigError } from "../config.js";
import { loadOrCreateDataDirKey } from "./secret-box.js";
import { checkAllowHosts, type Lookup, type TargetPolicy } from "./target-policy.js";

/** What the webhook endpoints and the delivery worker need from the deployment's configuration. */
export interface WebhookSettings {
  /** 32 bytes (CTS_SECRET_KEY, or the data dir's key in embedded mode): encrypts signing secrets at rest. */
  secretKey: Buffer;
  /** CTS_WEBHOOK_ALLOW_HOSTS: loopback targets exempt from the public-address rule (development only). */
  allowHosts: readonly string[];
  /** CTS_WEBHOOK_ALLOW_HTTP=1: http accepted for the exempt targets only. */
  allowHttp: boolean;
  /** DNS resolution; tests stub it (DNS rebinding cases). */
  lookup?: Lookup;
}

export function targetPolicy(settings: WebhookSettings): TargetPolicy {
  return {
    allowHosts: settings.allowHosts,
    allowHttp: settings.allowHttp,
    ...(settings.lookup ? { lookup: settings.lookup } : {}),
  };
}

/**
 * The deployment's settings: CTS_SECRET_KEY, else (embedded mode) the data dir's own key; every
 * CTS_WEBHOOK_ALLOW_HOSTS entry must be loopback, or start-up stops with one line per problem.
 */
export async function resolveWebhookSettings(config: Config, lookup?: Lookup): Promise<WebhookSettings> {
  const problems = await checkAllowHosts(config.webhookAllowHosts, lookup);
  if (problems.length > 0) throw new ConfigError(problems);
  return {
    secretKey: config.secretKey ?? loadOrCreateDataDirKey(config.dataDir),
    allowHosts: config.webhookAllowHosts,
    allowHttp: config.webhookAllowHttp,
    ...(lookup ? { lookup } : {}),
  };
}
