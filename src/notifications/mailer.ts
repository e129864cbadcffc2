import type { Message } from "./render.js";

/** One message to send; `messageId` is the delivery's, so a receiver can drop a duplicate. */
export interface Outgoing extends Message {
  to: string;
  messageId: string;
}

/** What an attempt did: sent, refused for good (5xx, a bounce), or worth another try. */
export type SendResult = { ok: true } | { ok: false; permanent: boolean; error: string };

export interface Mailer {
  send(message: Outgoing): Promise<SendResult>;
  close(): void;
}

/** An error as a log line and a delivery's `last_error`: the server's reply, never the URL or its password. */
function describe(err: unknown): { permanent: boolean; error: string } {
  const e = err as { responseCode?: number; response?: string; code?: string; message?: string };
  const code = typeof e.responseCode === "number" ? e.responseCode : undefined;
  const text = (e.response ?? e.code ?? "SMTP error").replace(/\s+/g, " ").slice(0, 500);
  return { permanent: code !== undefined && code >= 500, error: code !== undefined ? `${code} ${text}` : text };
}

/** The SMTP client (nodemailer, loaded on first use), from CTS_SMTP_URL. */
export async function createMailer(smtpUrl: string, from: string): Promise<Mailer> {
  const nodemailer = (await import("nodemailer")).default;
  const url = new URL(smtpUrl);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === "smtps:" ? 465 : 587,
    secure: url.protocol === "smtps:",
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    // Plain smtp:// to a loopback server (development, tests) may skip STARTTLS; anywhere else it is required
    // when the server offers it (nodemailer's default).
    ...(url.searchParams.get("tls") === "off" ? { ignoreTLS: true } : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
    logger: false,
  });
  return {
    async send(message) {
      try {
        await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.messageId,
        });
        return { ok: true };
      } catch (err) {
        return { ok: false, ...describe(err) };
      }
    },
    close() {
      transport.close();
    },
  };
}
