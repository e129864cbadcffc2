import type { AddressInfo } from "node:net";
import { type ParsedMail, simpleParser } from "mailparser";
import { SMTPServer } from "smtp-server";

/** A message the test SMTP server accepted, parsed by mailparser, with the envelope's recipients. */
export interface Received {
  to: string[];
  parsed: ParsedMail;
  subject: string;
  text: string;
  html: string;
}

export interface MailServer {
  port: number;
  url: string;
  received: Received[];
  /** Refuse the next messages to this address with this SMTP reply code (e.g. 550, 451). */
  refuse(address: string, code: number): void;
  close(): Promise<void>;
}

/** A real SMTP server on 127.0.0.1 (smtp-server), requiring AUTH PLAIN user/secret, plain TCP. */
export async function startMailServer(): Promise<MailServer> {
  const received: Received[] = [];
  const refusals = new Map<string, number>();
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ["STARTTLS"],
    authOptional: false,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === "cts" && auth.password === "s3cret-pass") return callback(null, { user: "cts" });
      return callback(new Error("Invalid username or password"));
    },
    onRcptTo(address, _session, callback) {
      const code = refusals.get(address.address.toLowerCase());
      if (code) {
        const err = new Error(code >= 500 ? "mailbox unavailable" : "try again later") as Error & {
          responseCode: number;
        };
        err.responseCode = code;
        return callback(err);
      }
      return callback();
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            to: session.envelope.rcptTo.map((r) => r.address),
            parsed,
            subject: parsed.subject ?? "",
            text: parsed.text ?? "",
            html: typeof parsed.html === "string" ? parsed.html : "",
          });
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://cts:s3cret-pass@127.0.0.1:${port}?tls=off`,
    received,
    refuse: (address, code) => refusals.set(address.toLowerCase(), code),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
