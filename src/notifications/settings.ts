/** What the API side needs to queue messages: set when CTS_SMTP_URL, CTS_MAIL_FROM and CTS_PUBLIC_URL are. */
export interface NotificationSettings {
  publicUrl: string;
  /** Seals a token inside its delivery until the message is sent (the deployment's CTS_SECRET_KEY). */
  secretKey: Buffer;
}
