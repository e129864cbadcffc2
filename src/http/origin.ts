/** What decides the service's origin: the operator's settings and the port it listens on. */
export interface OriginSettings {
  /** CTS_PUBLIC_URL (an origin), if set. */
  publicUrl: string | undefined;
  /** The server speaks TLS itself (CTS_TLS_CERT and CTS_TLS_KEY). */
  tls: boolean;
  /** CTS_HOST as written. */
  host: string;
  /** The port it listens on (CTS_PORT, or the one the system chose for port 0). */
  port: number;
}

/** The default listen address (CTS_HOST, CTS_PORT), for an app that never listens (tests over `inject`). */
export const DEFAULT_LISTEN = { host: "127.0.0.1", port: 3000 } as const;

/**
 * The origin of every link the service writes and of the Origin checks (API.md §20 (d)): CTS_PUBLIC_URL,
 * else the listen address (`https` with TLS; a wildcard host written `localhost`), as `URL#origin` spells
 * it (no default port), the form browsers send in `Origin`. Never a request's Host or X-Forwarded-Host.
 */
export function serviceOrigin(settings: OriginSettings): string {
  if (settings.publicUrl) return new URL(settings.publicUrl).origin;
  const literal = settings.host.includes(":") && !settings.host.startsWith("[") ? `[${settings.host}]` : settings.host;
  const url = new URL(`${settings.tls ? "https" : "http"}://${literal}:${settings.port}`);
  if (url.hostname === "0.0.0.0" || url.hostname === "[::]") url.hostname = "localhost";
  return url.origin;
}

/**
 * The origin of one app: known from its settings, except the port of a listen on port 0, which the
 * server's `listening` reports (tests listen on port 0).
 */
export class ServiceOrigin {
  #value: string;

  constructor(private readonly settings: OriginSettings) {
    this.#value = serviceOrigin(settings);
  }

  get value(): string {
    return this.#value;
  }

  /** The server listens: its port is now known (a Unix socket path changes nothing). */
  listening(address: { port: number } | string | null): void {
    if (address === null || typeof address === "string") return;
    this.#value = serviceOrigin({ ...this.settings, port: address.port });
  }
}
